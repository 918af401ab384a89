import type { Db } from '../../db/client';
import type { Bindings } from '../../env';
import { recordAudit } from '../audit/audit-log';
import type { AdminRequest } from './known-device';
import type { LoginRefusal } from './login-throttle';
import { checkAdminPassword } from './password-check';
import { type CookieToSet, renewSession } from './session';
import { findAdminById, updateAdminPassword } from './users';

export type PasswordChange = { ok: true; cookie: CookieToSet } | { ok: false; reason: 'wrong' } | { ok: false; reason: 'throttled'; refusal: LoginRefusal };

/**
 * The signed-in admin's password change (docs/product.md §6.1): the current password is checked as
 * a sign-in attempt (password-check.ts: a stolen session is no password oracle), then the new one
 * is set and recorded; this browser keeps its session under the new version (the cookie returned),
 * every other session ends.
 */
export async function changePassword(
  env: Pick<Bindings, 'DB' | 'JWT_SECRET'>,
  db: Db,
  request: AdminRequest,
  me: { id: number; username: string; session: { jti: string; expiresAt: Date } },
  change: { currentPassword: string; newPassword: string },
): Promise<PasswordChange> {
  const user = await findAdminById(db, me.id);
  if (!user) return { ok: false, reason: 'wrong' };
  const check = await checkAdminPassword(env, request, user, change.currentPassword);
  if (check === 'wrong') return { ok: false, reason: 'wrong' };
  if (check !== 'right') return { ok: false, reason: 'throttled', refusal: check };
  const updated = await updateAdminPassword(db, user.id, change.newPassword);
  await recordAudit(db, { actor: { id: me.id, username: me.username }, action: 'auth.password-change', record: `admin-user:${user.id}`, network: request.network });
  const cookie = await renewSession(db, env.JWT_SECRET, request.url, { userId: updated.id, username: updated.username, sessionVersion: updated.sessionVersion }, me.session);
  return { ok: true, cookie };
}
