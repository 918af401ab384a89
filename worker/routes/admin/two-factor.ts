import { Hono } from 'hono';
import { getDb } from '../../db/client';
import type { AppEnv } from '../../env';
import { validate } from '../../middleware/validate';
import { disableTwoFactorSchema, enableTwoFactorSchema } from '../../schemas/admin';
import {
  consumeSecondFactor,
  disableTwoFactor,
  enableTwoFactor,
  findAdminById,
  hasTwoFactor,
  startTwoFactorEnrolment,
} from '../../services/admin-users';
import { verifyPassword } from '../../services/passwords';
import { otpauthUri } from '../../services/totp';

/**
 * The admin's optional second factor (docs/product.md §6.1): enrolment with an authenticator app,
 * recovery codes, and turning it off. Signed-in only: worker/index.ts guards every /api/admin/*
 * path but login, logout and session, and its requireAdmin sets adminUser.
 */
export const adminTwoFactor = new Hono<AppEnv>()
  .get('/', async (c) => {
    const user = await findAdminById(getDb(c.env.DB), c.get('adminUser').id);
    return c.json({ enabled: user ? hasTwoFactor(user) : false }, 200);
  })
  .post('/setup', async (c) => {
    const { id, username } = c.get('adminUser');
    const secret = await startTwoFactorEnrolment(getDb(c.env.DB), id);
    if (!secret) return c.json({ message: 'Two-factor sign-in is already on. Turn it off first to set up a new authenticator.' }, 409);
    return c.json({ secret, otpauthUri: otpauthUri(secret, username) }, 200);
  })
  .post('/enable', validate('json', enableTwoFactorSchema), async (c) => {
    const recoveryCodes = await enableTwoFactor(getDb(c.env.DB), c.get('adminUser').id, c.req.valid('json').code, Date.now());
    if (!recoveryCodes) {
      return c.json({ message: 'That code did not match. Check the time on your phone and enter the current code.' }, 400);
    }
    return c.json({ enabled: true as const, recoveryCodes }, 200);
  })
  .post('/disable', validate('json', disableTwoFactorSchema), async (c) => {
    const { password, code } = c.req.valid('json');
    const db = getDb(c.env.DB);
    const user = await findAdminById(db, c.get('adminUser').id);
    if (!user || !hasTwoFactor(user)) return c.json({ message: 'Two-factor sign-in is not on' }, 409);
    // The code is consumed only after the password matched; one answer for either failing.
    const passwordOk = await verifyPassword(password, user.passwordHash);
    const codeOk = passwordOk && (await consumeSecondFactor(db, user, code, Date.now()));
    if (!codeOk) return c.json({ message: 'Password or code is incorrect' }, 400);
    await disableTwoFactor(db, user.id);
    return c.json({ enabled: false as const }, 200);
  });
