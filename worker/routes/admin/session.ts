import { Hono } from 'hono';
import type { AppEnv } from '../../env';
import { adminRequest, clearSessionCookie, readSessionCookie, setAdminCookies } from '../../middleware/admin-cookies';
import { clientNetwork } from '../../middleware/client-network';
import { currentAdmin } from '../../middleware/require-admin';
import { validate } from '../../middleware/validate';
import { adminLoginSchema, changePasswordSchema } from '#core/schemas/admin';
import { changePassword, signedInView, signIn, signOut, throttledMessage, type LoginRefusal } from '../../services/admin-auth';

const INVALID_CREDENTIALS = 'Invalid username or password';
const TWO_FACTOR_REQUIRED = 'Enter the 6-digit code from your authenticator app';
const DEACTIVATED = 'This account has been deactivated. Ask the firm’s owner if you need access again.';
const retryAfter = (refusal: LoginRefusal) => ({ 'Retry-After': String(refusal.retryAfterSeconds) });

/**
 * Admin sign-in, sign-out and the session check (docs/product.md §6.1): the admin API's public
 * part, answered without a session (routes/admin/index.ts). Sign-in is one use case
 * (services/admin-auth/sign-in.ts); every answer but a session is a failure of sign-in, recorded as one (§6.9).
 */
export const adminSession = new Hono<AppEnv>()
  .post('/login', validate('json', adminLoginSchema), async (c) => {
    const result = await signIn(c.env, c.var.db, adminRequest(c), c.req.valid('json'));
    if (result.ok) {
      // The session's cookie first (scripts read the first Set-Cookie as the session's), then the known device's.
      setAdminCookies(c, result.cookies);
      return c.json(result.view, 200);
    }
    switch (result.reason) {
      case 'throttled':
        return c.json({ message: throttledMessage(result.refusal) }, 429, retryAfter(result.refusal));
      case 'invalid-credentials':
        return c.json({ message: INVALID_CREDENTIALS }, 401);
      case 'deactivated':
        return c.json({ message: DEACTIVATED }, 403);
      case 'two-factor-required':
        return c.json({ message: TWO_FACTOR_REQUIRED, twoFactorRequired: true as const }, 401);
    }
  })
  .post('/logout', async (c) => {
    // Revoked server-side, not only cleared: a copy of the cookie stops working too.
    await signOut(c.env, c.var.db, readSessionCookie(c), clientNetwork(c));
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
    const me = { ...c.var.adminUser, session: c.var.adminSession };
    // Counted like a sign-in (services/admin-auth/password-check.ts): a stolen session is no password oracle.
    const result = await changePassword(c.env, c.var.db, adminRequest(c), me, c.req.valid('json'));
    if (!result.ok && result.reason === 'wrong') return c.json({ message: 'Current password is incorrect' }, 400);
    if (!result.ok) return c.json({ message: throttledMessage(result.refusal) }, 429, retryAfter(result.refusal));
    // This browser keeps its session under the new version; every other session ends.
    setAdminCookies(c, [result.cookie]);
    return c.json({ message: 'Password changed successfully' }, 200);
  });
