import type { Db } from '../../db/client';
import type { Bindings } from '../../env';
import { recordAudit } from '../audit/audit-log';
import { updateOwnProfile } from './accounts';
import type { LoginRefusal } from './login-throttle';
import { checkAdminPassword } from './password-check';
import type { AdminRequest } from './request';
import { type CookieToSet, renewSession } from './session';
import { findAdminById, updateAdminPassword } from './users';

// The signed-in admin's own account (docs/product.md §6.1, §6.8): the password and the name and
// e-mail. A change that takes the current password checks it as a sign-in attempt
// (password-check.ts): a stolen session is no password oracle.

/** Who is changing their own account (c.var.adminUser) and the session they are signed in with. */
export interface Me {
  id: number;
  username: string;
  session: { jti: string; expiresAt: Date };
}

export type PasswordRefused = { ok: false; reason: 'wrong' } | { ok: false; reason: 'throttled'; refusal: LoginRefusal };

export type PasswordChange = { ok: true; cookie: CookieToSet } | PasswordRefused;

/**
 * The password change: the current password checked, the new one set and recorded; this browser
 * keeps its session under the new version (the cookie returned), every other session ends.
 */
export async function changePassword(
  env: Pick<Bindings, 'DB' | 'JWT_SECRET'>,
  db: Db,
  request: AdminRequest,
  me: Me,
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

export type ProfileChange = { ok: true } | PasswordRefused | { ok: false; reason: 'no-account' | 'password-required' | 'email-taken' };

/**
 * "Tell us who you are" (docs/product.md §6.8): the first owner has neither a name nor an e-mail;
 * anyone may correct their own. Replacing an address (not giving the first one) takes the password.
 */
export async function updateProfile(
  env: Pick<Bindings, 'DB' | 'JWT_SECRET'>,
  db: Db,
  request: AdminRequest,
  me: Pick<Me, 'id' | 'username'>,
  change: { name: string; email: string; currentPassword?: string },
): Promise<ProfileChange> {
  const { currentPassword, ...profile } = change;
  const account = await findAdminById(db, me.id);
  if (!account) return { ok: false, reason: 'no-account' };
  if (account.email && account.email !== profile.email) {
    if (!currentPassword) return { ok: false, reason: 'password-required' };
    const check = await checkAdminPassword(env, request, account, currentPassword);
    if (check === 'wrong') return { ok: false, reason: 'wrong' };
    if (check !== 'right') return { ok: false, reason: 'throttled', refusal: check };
  }
  if ((await updateOwnProfile(db, me.id, profile)) === 'email-taken') return { ok: false, reason: 'email-taken' };
  await recordAudit(db, { actor: { id: me.id, username: me.username }, action: 'user.profile-update', record: `admin-user:${me.id}`, network: request.network });
  return { ok: true };
}
