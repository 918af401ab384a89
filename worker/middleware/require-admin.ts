import type { MiddlewareHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { AppEnv } from '../env';
import { findAdminForSession, verifySessionToken } from '../services/admin-auth';
import { readSessionCookie } from './admin-cookies';

/**
 * Resolves the signed-in account from the session cookie, or null, with one D1 read: the token's
 * session row must exist (sign-out and deactivation delete it), the account be active, and its
 * session version match (a password change bumps it: tokens issued before it stop working).
 */
export async function currentAdmin(c: Parameters<MiddlewareHandler<AppEnv>>[0]) {
  const token = readSessionCookie(c);
  if (!token) return null;
  const claims = await verifySessionToken(c.env.JWT_SECRET, token);
  if (!claims) return null;
  const user = await findAdminForSession(c.var.db, claims.userId, claims.jti);
  if (!user || user.sessionVersion !== claims.sessionVersion) return null;
  return {
    ...user,
    jti: claims.jti,
    // The owner's policy (docs/product.md §6.8): until this account has a second factor it may only set one up.
    mustEnrolTwoFactor: user.requireTwoFactor === true && !user.hasTwoFactor,
  };
}

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
