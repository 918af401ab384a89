import { Hono } from 'hono';
import type { AppEnv } from '../../env';
import { adminRequest, setAdminCookies } from '../../middleware/admin-cookies';
import { audit } from '../../middleware/audit';
import { validate } from '../../middleware/validate';
import { disableTwoFactorSchema, enableTwoFactorSchema, setupTwoFactorSchema } from '#core/schemas/admin';
import {
  checkAdminPassword,
  consumeSecondFactor,
  disableTwoFactor,
  enableTwoFactor,
  findAdminById,
  hasTwoFactor,
  otpauthUri,
  readSecuritySettings,
  renewSession,
  startTwoFactorEnrolment,
  throttledMessage,
  type LoginRefusal,
} from '../../services/admin-auth';

const WRONG_PASSWORD = 'Password is incorrect';
const wrongPassword = { message: WRONG_PASSWORD, fields: { password: [WRONG_PASSWORD] } };
const throttled = (refusal: LoginRefusal) => [{ message: throttledMessage(refusal) }, 429, { 'Retry-After': String(refusal.retryAfterSeconds) }] as const;

/**
 * The admin's second factor (docs/product.md §6.1), optional unless the owner requires it (§6.8): enrolment with an authenticator app,
 * recovery codes, and turning it off. Signed-in only: behind requireAdmin (routes/admin/index.ts),
 * which sets adminUser. Setting up, turning on
 * and turning off each take the current password, checked as a sign-in attempt (counted by the
 * login throttle, services/admin-auth/password-check.ts): a stolen session can neither enrol its own
 * authenticator nor guess the password here.
 */
export const adminTwoFactor = new Hono<AppEnv>()
  .get('/', async (c) => {
    const db = c.var.db;
    const user = await findAdminById(db, c.get('adminUser').id);
    // `required`: the owner's policy (docs/product.md §6.8), so the panel never calls it optional then.
    return c.json({ enabled: user ? hasTwoFactor(user) : false, required: (await readSecuritySettings(db)).requireTwoFactor }, 200);
  })
  .post('/setup', validate('json', setupTwoFactorSchema), async (c) => {
    const db = c.var.db;
    const user = await findAdminById(db, c.get('adminUser').id);
    if (!user) return c.json(wrongPassword, 400);
    const check = await checkAdminPassword(c.env, adminRequest(c), user, c.req.valid('json').password);
    if (check === 'wrong') return c.json(wrongPassword, 400);
    if (check !== 'right') return c.json(...throttled(check));
    const secret = await startTwoFactorEnrolment(db, user.id);
    if (!secret) return c.json({ message: 'Two-factor sign-in is already on. Turn it off first to set up a new authenticator.' }, 409);
    await audit(c, 'auth.two-factor-setup', `admin-user:${user.id}`);
    return c.json({ secret, otpauthUri: otpauthUri(secret, user.username) }, 200);
  })
  .post('/enable', validate('json', enableTwoFactorSchema), async (c) => {
    const { password, code } = c.req.valid('json');
    const db = c.var.db;
    const user = await findAdminById(db, c.get('adminUser').id);
    if (!user) return c.json(wrongPassword, 400);
    const check = await checkAdminPassword(c.env, adminRequest(c), user, password);
    if (check === 'wrong') return c.json(wrongPassword, 400);
    if (check !== 'right') return c.json(...throttled(check));
    const enabled = await enableTwoFactor(db, user.id, code, Date.now());
    if (!enabled) {
      const message = 'That code did not match. Check the time on your phone and enter the current code.';
      return c.json({ message, fields: { code: [message] } }, 400);
    }
    // Every other session ended with the version bump (a session opened with the password alone,
    // perhaps a stolen one); this browser stays signed in under the new version.
    await audit(c, 'auth.two-factor-enable', `admin-user:${user.id}`);
    setAdminCookies(c, [await renewSession(db, c.env.JWT_SECRET, c.req.url, { userId: user.id, username: user.username, sessionVersion: enabled.sessionVersion }, c.get('adminSession'))]);
    return c.json({ enabled: true as const, recoveryCodes: enabled.recoveryCodes }, 200);
  })
  .post('/disable', validate('json', disableTwoFactorSchema), async (c) => {
    const { password, code } = c.req.valid('json');
    const db = c.var.db;
    const user = await findAdminById(db, c.get('adminUser').id);
    if (!user || !hasTwoFactor(user)) return c.json({ message: 'Two-factor sign-in is not on' }, 409);
    // The code is consumed only after the password matched; one answer for either failing, and
    // the attempt stays counted unless both pass (as at sign-in).
    const check = await checkAdminPassword(c.env, adminRequest(c), user, password, () => consumeSecondFactor(db, user, code, Date.now()));
    if (check === 'wrong') return c.json({ message: 'Password or code is incorrect' }, 400);
    if (check !== 'right') return c.json(...throttled(check));
    await disableTwoFactor(db, user.id);
    await audit(c, 'auth.two-factor-disable', `admin-user:${user.id}`);
    return c.json({ enabled: false as const }, 200);
  });
