import type { Db } from '../../db/client';
import type { Bindings } from '../../env';
import { recordAudit } from '../audit/audit-log';
import { readSecuritySettings } from './accounts';
import type { Me, PasswordRefused } from './own-account';
import { checkAdminPassword } from './password-check';
import type { AdminRequest } from './request';
import { type CookieToSet, renewSession } from './session';
import { otpauthUri } from './totp';
import { consumeSecondFactor, disableTwoFactor, enableTwoFactor, findAdminById, hasTwoFactor, startTwoFactorEnrolment } from './users';

// The signed-in admin's second factor (docs/product.md §6.1), optional unless the owner requires
// it (§6.8): enrolment with an authenticator app, recovery codes, and turning it off. Setting up,
// turning on and turning off each take the current password, checked as a sign-in attempt
// (password-check.ts): a stolen session can neither enrol its own authenticator nor guess the password here.

/** Whether the account has a second factor, and whether the owner's policy requires one (so the panel never calls it optional then). */
export async function twoFactorStatus(db: Db, id: number): Promise<{ enabled: boolean; required: boolean }> {
  const user = await findAdminById(db, id);
  return { enabled: user ? hasTwoFactor(user) : false, required: (await readSecuritySettings(db)).requireTwoFactor };
}

/** Starts an enrolment: a new secret for the authenticator app (and its otpauth:// address), pending until turned on. */
export async function setUpTwoFactor(
  env: Pick<Bindings, 'DB' | 'JWT_SECRET'>,
  db: Db,
  request: AdminRequest,
  me: Pick<Me, 'id' | 'username'>,
  password: string,
): Promise<{ ok: true; secret: string; otpauthUri: string } | PasswordRefused | { ok: false; reason: 'already-on' }> {
  const user = await findAdminById(db, me.id);
  if (!user) return { ok: false, reason: 'wrong' };
  const check = await checkAdminPassword(env, request, user, password);
  if (check === 'wrong') return { ok: false, reason: 'wrong' };
  if (check !== 'right') return { ok: false, reason: 'throttled', refusal: check };
  const secret = await startTwoFactorEnrolment(db, user.id);
  if (!secret) return { ok: false, reason: 'already-on' };
  await recordAudit(db, { actor: { id: me.id, username: me.username }, action: 'auth.two-factor-setup', record: `admin-user:${user.id}`, network: request.network });
  return { ok: true, secret, otpauthUri: otpauthUri(secret, user.username) };
}

/**
 * Turns the second factor on with a code from the enrolled app: the recovery codes to show once,
 * and this browser's renewed session cookie. Every other session ended with the version bump (a
 * session opened with the password alone, perhaps a stolen one).
 */
export async function turnOnTwoFactor(
  env: Pick<Bindings, 'DB' | 'JWT_SECRET'>,
  db: Db,
  request: AdminRequest,
  me: Me,
  proof: { password: string; code: string },
): Promise<{ ok: true; recoveryCodes: string[]; cookie: CookieToSet } | PasswordRefused | { ok: false; reason: 'code-wrong' }> {
  const user = await findAdminById(db, me.id);
  if (!user) return { ok: false, reason: 'wrong' };
  const check = await checkAdminPassword(env, request, user, proof.password);
  if (check === 'wrong') return { ok: false, reason: 'wrong' };
  if (check !== 'right') return { ok: false, reason: 'throttled', refusal: check };
  const enabled = await enableTwoFactor(db, user.id, proof.code, Date.now());
  if (!enabled) return { ok: false, reason: 'code-wrong' };
  await recordAudit(db, { actor: { id: me.id, username: me.username }, action: 'auth.two-factor-enable', record: `admin-user:${user.id}`, network: request.network });
  const cookie = await renewSession(db, env.JWT_SECRET, request.url, { userId: user.id, username: user.username, sessionVersion: enabled.sessionVersion }, me.session);
  return { ok: true, recoveryCodes: enabled.recoveryCodes, cookie };
}

/**
 * Turns the second factor off with the password and a code: the code is consumed only after the
 * password matched; one answer for either failing ('wrong'), and the attempt stays counted unless
 * both pass (as at sign-in).
 */
export async function turnOffTwoFactor(
  env: Pick<Bindings, 'DB' | 'JWT_SECRET'>,
  db: Db,
  request: AdminRequest,
  me: Pick<Me, 'id' | 'username'>,
  proof: { password: string; code: string },
): Promise<{ ok: true } | PasswordRefused | { ok: false; reason: 'not-on' }> {
  const user = await findAdminById(db, me.id);
  if (!user || !hasTwoFactor(user)) return { ok: false, reason: 'not-on' };
  const check = await checkAdminPassword(env, request, user, proof.password, () => consumeSecondFactor(db, user, proof.code, Date.now()));
  if (check === 'wrong') return { ok: false, reason: 'wrong' };
  if (check !== 'right') return { ok: false, reason: 'throttled', refusal: check };
  await disableTwoFactor(db, user.id);
  await recordAudit(db, { actor: { id: me.id, username: me.username }, action: 'auth.two-factor-disable', record: `admin-user:${user.id}`, network: request.network });
  return { ok: true };
}
