import { Hono } from 'hono';
import type { AppEnv } from '../../env';
import { adminRequest, setAdminCookies } from '../../middleware/admin-cookies';
import { validate } from '../../middleware/validate';
import { disableTwoFactorSchema, enableTwoFactorSchema, setupTwoFactorSchema } from '#core/schemas/admin';
import { type LoginRefusal, setUpTwoFactor, throttledMessage, turnOffTwoFactor, turnOnTwoFactor, twoFactorStatus } from '../../services/admin-auth';

const WRONG_PASSWORD = 'Password is incorrect';
const wrongPassword = { message: WRONG_PASSWORD, fields: { password: [WRONG_PASSWORD] } };
const throttled = (refusal: LoginRefusal) => [{ message: throttledMessage(refusal) }, 429, { 'Retry-After': String(refusal.retryAfterSeconds) }] as const;

/**
 * The admin's second factor (docs/product.md §6.1), optional unless the owner requires it (§6.8): enrolment with an authenticator app,
 * recovery codes, and turning it off. Signed-in only: behind requireAdmin (routes/admin/index.ts),
 * which sets adminUser. Setting up, turning on and turning off each take the current password,
 * checked as a sign-in attempt (services/admin-auth/second-factor.ts).
 */
export const adminTwoFactor = new Hono<AppEnv>()
  // `required`: the owner's policy (docs/product.md §6.8), so the panel never calls it optional then.
  .get('/', async (c) => c.json(await twoFactorStatus(c.var.db, c.var.adminUser.id), 200))
  .post('/setup', validate('json', setupTwoFactorSchema), async (c) => {
    const result = await setUpTwoFactor(c.env, c.var.db, adminRequest(c), c.var.adminUser, c.req.valid('json').password);
    if (result.ok) return c.json({ secret: result.secret, otpauthUri: result.otpauthUri }, 200);
    if (result.reason === 'wrong') return c.json(wrongPassword, 400);
    if (result.reason === 'throttled') return c.json(...throttled(result.refusal));
    return c.json({ message: 'Two-factor sign-in is already on. Turn it off first to set up a new authenticator.' }, 409);
  })
  .post('/enable', validate('json', enableTwoFactorSchema), async (c) => {
    const me = { ...c.var.adminUser, session: c.var.adminSession };
    const result = await turnOnTwoFactor(c.env, c.var.db, adminRequest(c), me, c.req.valid('json'));
    if (!result.ok && result.reason === 'wrong') return c.json(wrongPassword, 400);
    if (!result.ok && result.reason === 'throttled') return c.json(...throttled(result.refusal));
    if (!result.ok) {
      const message = 'That code did not match. Check the time on your phone and enter the current code.';
      return c.json({ message, fields: { code: [message] } }, 400);
    }
    // Every other session ended with the version bump; this browser stays signed in under the new version.
    setAdminCookies(c, [result.cookie]);
    return c.json({ enabled: true as const, recoveryCodes: result.recoveryCodes }, 200);
  })
  .post('/disable', validate('json', disableTwoFactorSchema), async (c) => {
    const result = await turnOffTwoFactor(c.env, c.var.db, adminRequest(c), c.var.adminUser, c.req.valid('json'));
    if (result.ok) return c.json({ enabled: false as const }, 200);
    if (result.reason === 'not-on') return c.json({ message: 'Two-factor sign-in is not on' }, 409);
    if (result.reason === 'wrong') return c.json({ message: 'Password or code is incorrect' }, 400);
    return c.json(...throttled(result.refusal));
  });
