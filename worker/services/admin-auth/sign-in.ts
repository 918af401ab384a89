import type { Db } from '../../db/client';
import type { Bindings } from '../../env';
import { recordAudit, recordFailedSignIn } from '../audit/audit-log';
import { readSecuritySettings } from './accounts';
import { bootstrapFirstAdmin } from './bootstrap';
import { knownDeviceCookie, loginSubject } from './known-device';
import { claimLoginAttempt, forgiveLoginAttempt, type LoginRefusal } from './login-throttle';
import { DUMMY_PASSWORD_HASH, verifyPassword } from './passwords';
import type { AdminRequest } from './request';
import { type CookieToSet, endSession, type SignInOrigin, startSession, verifySessionToken } from './session';
import { consumeSecondFactor, findAdminByUsername, hasTwoFactor } from './users';

// Admin sign-in as one use case (docs/product.md §6.1), in the spirit of epic-stack's single
// login(): the route picks the request's address, network and cookies, calls signIn and maps the
// result; the password, the throttle, the known device, the second factor and the session are here.

/** What the SPA learns of the signed-in account: who, which role, and whether it must set up two-factor sign-in first. */
export function signedInView(user: { username: string; name: string; email: string | null; role: 'owner' | 'staff'; canSendNewsletters: boolean }, mustEnrolTwoFactor: boolean) {
  return {
    authenticated: true as const,
    username: user.username,
    name: user.name,
    email: user.email,
    role: user.role,
    canSendNewsletters: user.canSendNewsletters,
    mustEnrolTwoFactor,
    // An account without a name or an e-mail (the first owner, created from ADMIN_USERNAME) is
    // asked for both before the panel (docs/product.md §6.8 "Tell us who you are").
    needsProfile: !user.name.trim() || !user.email,
  };
}

/** A sign-in's request: its address, network and cookies, and what the sessions list shows of it. */
export type SignInRequest = AdminRequest & SignInOrigin;

export type SignInResult =
  /** `cookies`: the session's first (scripts read the first Set-Cookie as the session's), then the known device's. */
  | { ok: true; view: ReturnType<typeof signedInView>; cookies: CookieToSet[] }
  | { ok: false; reason: 'throttled'; refusal: LoginRefusal }
  | { ok: false; reason: 'invalid-credentials' | 'deactivated' | 'two-factor-required' };

/**
 * Signs an administrator in: the attempt claimed by the login throttle before any password work,
 * the password (or the first administrator's bootstrap secrets), the account's status, the second
 * factor, then the session. Every outcome is recorded in the audit trail (a failure as one entry per
 * network, account and hour, docs/product.md §6.9).
 */
export async function signIn(env: Bindings, db: Db, request: SignInRequest, credentials: { username: string; password: string; code?: string }): Promise<SignInResult> {
  const { username, password, code } = credentials;
  // A browser that signed in as this admin before is counted by itself (known-device.ts), so
  // the account is looked up first: the cookie is valid only for the account it was issued to.
  let user = await findAdminByUsername(db, username);
  const subject = await loginSubject(env.JWT_SECRET, request, user?.id);
  // The attempt is counted before any password work, so a parallel burst gets no more
  // verifications than the limit allows (login-throttle.ts).
  const claim = await claimLoginAttempt(env.DB, username, subject);
  const failed = async <R extends SignInResult>(result: R): Promise<R> => {
    await recordFailedSignIn(db, { account: user ? { id: user.id, username: user.username } : null, network: request.network });
    return result;
  };
  if (!claim.ok) return failed({ ok: false, reason: 'throttled', refusal: claim });

  if (!user && (await bootstrapFirstAdmin(env, db, username, password))) user = await findAdminByUsername(db, username);
  // An unknown username is verified against a dummy hash: the same PBKDF2 work, so the answer's
  // timing does not tell which usernames exist.
  const valid = await verifyPassword(password, user?.passwordHash ?? DUMMY_PASSWORD_HASH);
  if (!user || !valid) return failed({ ok: false, reason: 'invalid-credentials' });
  // Told only to whoever knows the password: the account exists but no longer signs in.
  if (user.status !== 'active') return failed({ ok: false, reason: 'deactivated' });
  // With the second factor on, the right password alone is a failed attempt like a wrong one:
  // it stays counted (not forgiven), and no session is issued without a valid, unused code.
  if (hasTwoFactor(user) && !(code && (await consumeSecondFactor(db, user, code, Date.now())))) return failed({ ok: false, reason: 'two-factor-required' });

  await forgiveLoginAttempt(env.DB, username, subject);
  await recordAudit(db, { actor: { id: user.id, username: user.username }, action: 'auth.sign-in', record: `admin-user:${user.id}`, network: request.network });
  const session = await startSession(db, env.JWT_SECRET, { userId: user.id, username: user.username, sessionVersion: user.sessionVersion }, request);
  const device = await knownDeviceCookie(env.JWT_SECRET, request.url, user.id, 'device' in subject ? subject.device : null);
  // With the owner's policy on and no second factor yet, the session can only set one up
  // (middleware/require-permission.ts): the SPA shows the enrolment screen.
  const mustEnrolTwoFactor = !hasTwoFactor(user) && (await readSecuritySettings(db)).requireTwoFactor;
  return { ok: true, view: signedInView(user, mustEnrolTwoFactor), cookies: [session, device] };
}

/**
 * Signs out the session whose cookie the request carries (`token`, if any): revoked server-side, not
 * only cleared, so a copy of the cookie stops working too, and recorded. The route clears the cookie.
 */
export async function signOut(env: Pick<Bindings, 'JWT_SECRET'>, db: Db, token: string | undefined, network: string): Promise<void> {
  const session = token ? await verifySessionToken(env.JWT_SECRET, token) : null;
  if (!session) return;
  await endSession(db, session.jti);
  await recordAudit(db, { actor: { id: session.userId, username: session.username }, action: 'auth.sign-out', record: `admin-user:${session.userId}`, network });
}
