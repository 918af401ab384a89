import { Hono } from 'hono';
import { getDb } from '../../db/client';
import type { AppEnv } from '../../env';
import { currentAdmin, requireAdmin } from '../../middleware/require-admin';
import { validate } from '../../middleware/validate';
import { adminLoginSchema, changePasswordSchema } from '../../schemas/admin';
import { clearSessionCookie, setSessionCookie } from '../../services/admin-session';
import { ensureAdmin, findAdminById, findAdminByUsername, updateAdminPassword } from '../../services/admin-users';
import { clientIp, hashIp } from '../../services/client-ip';
import { clearUserFailures, isLoginLocked, loginKeys, recordLoginFailure } from '../../services/login-throttle';
import { verifyPassword } from '../../services/passwords';

const INVALID_CREDENTIALS = 'Invalid username or password';

/** Constant-time equality of two secrets (compares their SHA-256 digests). */
async function sameSecret(a: string, b: string): Promise<boolean> {
  const digest = async (text: string) => new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  const [x, y] = await Promise.all([digest(a), digest(b)]);
  let difference = 0;
  for (let i = 0; i < x.length; i++) difference |= x[i] ^ y[i];
  return difference === 0;
}

/** Admin sign-in, sign-out, session check and password change (DECISIONS.md). */
export const adminSession = new Hono<AppEnv>()
  .post('/login', validate('json', adminLoginSchema), async (c) => {
    const { username, password } = c.req.valid('json');
    const db = getDb(c.env.DB);
    const keys = loginKeys(username, await hashIp(clientIp(c), c.env.JWT_SECRET));
    if (await isLoginLocked(db, keys)) {
      return c.json({ message: 'Too many failed sign-in attempts. Please wait 15 minutes and try again.' }, 429);
    }

    // The first administrator comes from the ADMIN_USERNAME / ADMIN_PASSWORD secrets, created by
    // the first sign-in that presents exactly those credentials (a failed attempt writes nothing).
    if (c.env.ADMIN_USERNAME && c.env.ADMIN_PASSWORD && username === c.env.ADMIN_USERNAME && (await sameSecret(password, c.env.ADMIN_PASSWORD))) {
      const existing = await db.query.adminUsers.findFirst();
      if (!existing) await ensureAdmin(db, c.env.ADMIN_USERNAME, c.env.ADMIN_PASSWORD);
    }

    const user = await findAdminByUsername(db, username);
    const valid = user ? await verifyPassword(password, user.passwordHash) : false;
    if (!user || !valid) {
      await recordLoginFailure(db, keys);
      return c.json({ message: INVALID_CREDENTIALS }, 401);
    }
    await clearUserFailures(db, username);
    await setSessionCookie(c, { userId: user.id, username: user.username, sessionVersion: user.sessionVersion });
    return c.json({ authenticated: true as const, username: user.username }, 200);
  })
  .post('/logout', (c) => {
    clearSessionCookie(c);
    return c.json({ message: 'Signed out' }, 200);
  })
  .get('/session', async (c) => {
    const user = await currentAdmin(c);
    if (!user) return c.json({ authenticated: false as const }, 200);
    return c.json({ authenticated: true as const, username: user.username }, 200);
  })
  .post('/change-password', requireAdmin(), validate('json', changePasswordSchema), async (c) => {
    const { currentPassword, newPassword } = c.req.valid('json');
    const db = getDb(c.env.DB);
    const user = await findAdminById(db, c.get('adminUser').id);
    if (!user || !(await verifyPassword(currentPassword, user.passwordHash))) {
      return c.json({ message: 'Current password is incorrect' }, 400);
    }
    const updated = await updateAdminPassword(db, user.id, newPassword);
    // This browser keeps its session under the new version; every other session ends.
    await setSessionCookie(c, { userId: updated.id, username: updated.username, sessionVersion: updated.sessionVersion });
    return c.json({ message: 'Password changed successfully' }, 200);
  });
