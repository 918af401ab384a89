import type { MiddlewareHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { AppEnv } from '../env';
import { currentAdminOf } from '../services/admin-auth';
import { readSessionCookie } from './admin-cookies';

/** The signed-in account of this request's session cookie, or null (services/admin-auth/current-admin.ts). */
export const currentAdmin = (c: Parameters<MiddlewareHandler<AppEnv>>[0]) => currentAdminOf(c.env.JWT_SECRET, c.var.db, readSessionCookie(c));

/**
 * Rejects the request with 401 unless it carries a valid admin session; sets `adminUser` (who, and
 * what role), `adminSession` and `mustEnrolTwoFactor`. What the role may do is requirePermission's.
 *
 * @example
 * adminRoutes.use('*', requireAdmin())
 */
export function requireAdmin(): MiddlewareHandler<AppEnv> {
  return async function requireAdminMiddleware(c, next) {
    const user = await currentAdmin(c);
    if (!user) throw new HTTPException(401, { message: 'Unauthorized' });
    c.set('adminUser', { id: user.id, username: user.username, name: user.name, role: user.role, canSendNewsletters: user.canSendNewsletters });
    c.set('adminSession', { jti: user.jti, expiresAt: user.sessionExpiresAt });
    c.set('mustEnrolTwoFactor', user.mustEnrolTwoFactor);
    return next();
  };
}
