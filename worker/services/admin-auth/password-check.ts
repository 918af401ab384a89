import type { Bindings } from '../../env';
import { loginSubject } from './known-device';
import { claimLoginAttempt, forgiveLoginAttempt, type LoginRefusal } from './login-throttle';
import { verifyPassword } from './passwords';
import type { AdminRequest } from './request';

/**
 * Checks a signed-in admin's password (changing it, two-factor set-up, turning it on or off) as a
 * sign-in attempt: claimed by the login throttle before PBKDF2, so a wrong one counts as a failed
 * sign-in and too many answer 429 (docs/product.md §6.1). Without that, a stolen session would be
 * an unthrottled password oracle. `alsoRequired` runs only once the password matched (a second
 * factor that must not be consumed by a wrong password); the attempt is forgiven only when both
 * pass. 'wrong' for either failing.
 */
export async function checkAdminPassword(
  env: Pick<Bindings, 'DB' | 'JWT_SECRET'>,
  request: AdminRequest,
  user: { id: number; username: string; passwordHash: string },
  password: string,
  alsoRequired?: () => Promise<boolean>,
): Promise<'right' | 'wrong' | LoginRefusal> {
  const subject = await loginSubject(env.JWT_SECRET, request, user.id);
  const claim = await claimLoginAttempt(env.DB, user.username, subject);
  if (!claim.ok) return claim;
  if (!(await verifyPassword(password, user.passwordHash))) return 'wrong';
  if (alsoRequired && !(await alsoRequired())) return 'wrong';
  await forgiveLoginAttempt(env.DB, user.username, subject);
  return 'right';
}
