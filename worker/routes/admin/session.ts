import { Hono } from 'hono';
import { getDb, type Db } from '../../db/client';
import type { AppEnv } from '../../env';
import { currentAdmin } from '../../middleware/require-admin';
import { validate } from '../../middleware/validate';
import { adminLoginSchema, changePasswordSchema } from '#core/schemas/admin';
import { readSecuritySettings } from '../../services/admin-auth/accounts';
import { clearSessionCookie, endSession, readSessionCookie, renewSession, startSession, verifySessionToken } from '../../services/admin-auth/session';
import {
  anyAdminExists,
  bootstrapPasswordProblem,
  consumeSecondFactor,
  ensureAdmin,
  findAdminById,
  findAdminByUsername,
  hasTwoFactor,
  MIN_BOOTSTRAP_PASSWORD_LENGTH,
  updateAdminPassword,
} from '../../services/admin-auth/users';
import { loginSubject, setKnownDevice } from '../../services/admin-auth/known-device';
import { claimLoginAttempt, forgiveLoginAttempt, throttledMessage } from '../../services/admin-auth/login-throttle';
import { checkAdminPassword } from '../../services/admin-auth/password-check';
import { DUMMY_PASSWORD_HASH, verifyPassword } from '../../services/admin-auth/passwords';
import { audit, recordAudit, recordFailedSignIn } from '../../services/audit/audit-log';
import { clientNetwork } from '../../services/limits/client-ip';

const INVALID_CREDENTIALS = 'Invalid username or password';
const TWO_FACTOR_REQUIRED = 'Enter the 6-digit code from your authenticator app';
const DEACTIVATED = 'This account has been deactivated. Ask the firm’s owner if you need access again.';

/** What the SPA learns of the signed-in account: who, which role, and whether it must set up two-factor sign-in first. */
function signedInView(user: { username: string; name: string; email: string | null; role: 'owner' | 'staff'; canSendNewsletters: boolean }, mustEnrolTwoFactor: boolean) {
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

/** Constant-time equality of two secrets (compares their SHA-256 digests). */
async function sameSecret(a: string, b: string): Promise<boolean> {
  const digest = async (text: string) => new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  const [x, y] = await Promise.all([digest(a), digest(b)]);
  let difference = 0;
  for (let i = 0; i < x.length; i++) difference |= x[i] ^ y[i];
  return difference === 0;
}

/**
 * Creates the first administrator from the ADMIN_USERNAME / ADMIN_PASSWORD secrets, on a sign-in
 * that presents exactly those credentials while no administrator exists at all (a failed attempt
 * writes nothing; once one admin exists the secrets are never read again). Refused, with the
 * reason logged and never the password, when ADMIN_PASSWORD is unset, too short or a placeholder:
 * that sign-in then fails like any other. True when it created the account (or a concurrent
 * sign-in just did).
 */
async function bootstrapFirstAdmin(env: AppEnv['Bindings'], db: Db, username: string, password: string): Promise<boolean> {
  const { ADMIN_USERNAME: adminUsername, ADMIN_PASSWORD: adminPassword } = env;
  if (!adminUsername || username !== adminUsername) return false;
  if (await anyAdminExists(db)) return false;
  const problem = bootstrapPasswordProblem(adminPassword);
  if (problem !== null) {
    console.error(
      `[admin] First administrator not created: ${problem}. Set one of at least ${MIN_BOOTSTRAP_PASSWORD_LENGTH} random characters with \`wrangler secret put ADMIN_PASSWORD\`, then sign in again.`,
    );
    return false;
  }
  if (!adminPassword || !(await sameSecret(password, adminPassword))) return false;
  await ensureAdmin(db, adminUsername, adminPassword);
  return true;
}

/**
 * Admin sign-in, sign-out and the session check (docs/product.md §6.1): the admin API's public
 * part, answered without a session (routes/admin/index.ts).
 */
export const adminSession = new Hono<AppEnv>()
  .post('/login', validate('json', adminLoginSchema), async (c) => {
    const { username, password, code } = c.req.valid('json');
    const db = getDb(c.env.DB);
    // A browser that signed in as this admin before is counted by itself (known-device.ts), so
    // the account is looked up first: the cookie is valid only for the account it was issued to.
    let user = await findAdminByUsername(db, username);
    const subject = await loginSubject(c, user?.id);
    // The attempt is counted before any password work, so a parallel burst gets no more
    // verifications than the limit allows (worker/services/admin-auth/login-throttle.ts).
    const claim = await claimLoginAttempt(c.env.DB, username, subject);
    // Every answer but a session is a failure of sign-in, recorded as one (docs/product.md §6.9):
    // failures are counted per network, account and hour in one entry, so no burst floods the trail.
    const signIn = (outcome: 'success' | 'failure') =>
      outcome === 'success' && user
        ? recordAudit(db, { actor: { id: user.id, username: user.username }, action: 'auth.sign-in', record: `admin-user:${user.id}`, network: clientNetwork(c) })
        : recordFailedSignIn(db, { account: user ? { id: user.id, username: user.username } : null, network: clientNetwork(c) });
    if (!claim.ok) {
      await signIn('failure');
      return c.json({ message: throttledMessage(claim) }, 429, { 'Retry-After': String(claim.retryAfterSeconds) });
    }

    if (!user && (await bootstrapFirstAdmin(c.env, db, username, password))) user = await findAdminByUsername(db, username);
    // An unknown username is verified against a dummy hash: the same PBKDF2 work, so the answer's
    // timing does not tell which usernames exist.
    const valid = await verifyPassword(password, user?.passwordHash ?? DUMMY_PASSWORD_HASH);
    if (!user || !valid) {
      await signIn('failure');
      return c.json({ message: INVALID_CREDENTIALS }, 401);
    }
    // Told only to whoever knows the password: the account exists but no longer signs in.
    if (user.status !== 'active') {
      await signIn('failure');
      return c.json({ message: DEACTIVATED }, 403);
    }
    // With the second factor on, the right password alone is a failed attempt like a wrong one:
    // it stays counted (not forgiven), and no session is issued without a valid, unused code.
    if (hasTwoFactor(user) && !(code && (await consumeSecondFactor(db, user, code, Date.now())))) {
      await signIn('failure');
      return c.json({ message: TWO_FACTOR_REQUIRED, twoFactorRequired: true as const }, 401);
    }
    await forgiveLoginAttempt(c.env.DB, username, subject);
    await signIn('success');
    await startSession(c, db, { userId: user.id, username: user.username, sessionVersion: user.sessionVersion });
    // After the session cookie (scripts read the first Set-Cookie as the session's).
    await setKnownDevice(c, user.id, 'device' in subject ? subject.device : null);
    // With the owner's policy on and no second factor yet, the session can only set one up
    // (middleware/require-permission.ts): the SPA shows the enrolment screen.
    const mustEnrolTwoFactor = !hasTwoFactor(user) && (await readSecuritySettings(db)).requireTwoFactor;
    return c.json(signedInView(user, mustEnrolTwoFactor), 200);
  })
  .post('/logout', async (c) => {
    // Revoked server-side, not only cleared: a copy of the cookie stops working too.
    const token = readSessionCookie(c);
    const session = token ? await verifySessionToken(c.env.JWT_SECRET, token) : null;
    if (session) {
      await endSession(getDb(c.env.DB), session.jti);
      await recordAudit(getDb(c.env.DB), { actor: { id: session.userId, username: session.username }, action: 'auth.sign-out', record: `admin-user:${session.userId}`, network: clientNetwork(c) });
    }
    clearSessionCookie(c);
    return c.json({ message: 'Signed out' }, 200);
  })
  .get('/session', async (c) => {
    const user = await currentAdmin(c);
    if (!user) return c.json({ authenticated: false as const }, 200);
    return c.json(signedInView(user, user.mustEnrolTwoFactor), 200);
  });

/** The password change (docs/product.md §6.1): signed-in only, behind requireAdmin (routes/admin/index.ts), which sets adminUser. */
export const adminChangePassword = new Hono<AppEnv>()
  .post('/change-password', validate('json', changePasswordSchema), async (c) => {
    const { currentPassword, newPassword } = c.req.valid('json');
    const db = getDb(c.env.DB);
    const user = await findAdminById(db, c.get('adminUser').id);
    if (!user) return c.json({ message: 'Current password is incorrect' }, 400);
    // Counted like a sign-in (services/password-check.ts): a stolen session is no password oracle.
    const check = await checkAdminPassword(c, user, currentPassword);
    if (check === 'wrong') return c.json({ message: 'Current password is incorrect' }, 400);
    if (check !== 'right') return c.json({ message: throttledMessage(check) }, 429, { 'Retry-After': String(check.retryAfterSeconds) });
    const updated = await updateAdminPassword(db, user.id, newPassword);
    await audit(c, 'auth.password-change', `admin-user:${user.id}`);
    // This browser keeps its session under the new version; every other session ends.
    await renewSession(c, db, { userId: updated.id, username: updated.username, sessionVersion: updated.sessionVersion }, c.get('adminSession'));
    return c.json({ message: 'Password changed successfully' }, 200);
  });
