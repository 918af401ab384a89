import type { MiddlewareHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { getDb } from '../db/client';
import type { AppEnv } from '../env';
import { readSessionCookie, verifySessionToken } from '../services/admin-auth/session';
import { findAdminForSession } from '../services/admin-auth/users';

/** Resolves the signed-in administrator from the session cookie, or null. */
export async function currentAdmin(c: Parameters<MiddlewareHandler<AppEnv>>[0]) {
  const token = readSessionCookie(c);
  if (!token) return null;
  const claims = await verifySessionToken(c.env.JWT_SECRET, token);
  if (!claims) return null;
  // A signed-out token is refused (its jti is revoked), and a password change bumps the version:
  // tokens issued before it stop working.
  const user = await findAdminForSession(getDb(c.env.DB), claims.userId, claims.jti);
  if (!user || user.sessionVersion !== claims.sessionVersion) return null;
  return user;
}

/**
 * Rejects the request with 401 unless it carries a valid admin session; sets `adminUser`.
 *
 * @example
 * adminRoutes.use('*', requireAdmin())
 */
export function requireAdmin(): MiddlewareHandler<AppEnv> {
  return async function requireAdminMiddleware(c, next) {
    const user = await currentAdmin(c);
    if (!user) throw new HTTPException(401, { message: 'Unauthorized' });
    c.set('adminUser', { id: user.id, username: user.username });
    return next();
  };
}
