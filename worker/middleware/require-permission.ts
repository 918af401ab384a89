import type { MiddlewareHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { matchedRoutes } from 'hono/route';
import type { AppEnv } from '../env';
import { accessFor, DURING_ENROLMENT, mayUse, refusalMessage } from '../services/admin-auth';

/** Where worker/index.ts mounts the admin API: the permission table's paths are relative to it. */
export const ADMIN_API_BASE = '/api/admin';

/**
 * The route a request will be answered by, as the permission table names it (`PATCH /users/:id`),
 * or null when no route matches (a 404 to be): the last matched handler that is not middleware.
 */
export function adminRouteOf(c: Parameters<MiddlewareHandler<AppEnv>>[0]): string | null {
  const handler = matchedRoutes(c).findLast((route) => route.method !== 'ALL');
  if (!handler || !handler.path.startsWith(`${ADMIN_API_BASE}/`)) return null;
  return `${handler.method} ${handler.path.slice(ADMIN_API_BASE.length)}`;
}

/**
 * Applies the permission table (worker/services/admin-auth/permissions.ts, docs/product.md §6.8)
 * after requireAdmin: a role that may not use the route gets 403 with a message saying why; a
 * route without a row, and a path no route answers, is owner-only. While the owner's policy
 * requires a second factor this account lacks, only setting one up is allowed (403 with
 * `twoFactorEnrolmentRequired`, which sends the SPA to the enrolment screen).
 *
 * @example
 * adminRoutes.use(requireAdmin()).use(requirePermission())
 */
export function requirePermission(): MiddlewareHandler<AppEnv> {
  return async function requirePermissionMiddleware(c, next) {
    const route = adminRouteOf(c);
    if (c.get('mustEnrolTwoFactor') && !(route && DURING_ENROLMENT.has(route))) {
      const message = 'Set up two-factor sign-in to continue: the firm requires it for every account.';
      return c.json({ message, twoFactorEnrolmentRequired: true }, 403);
    }
    const access = route ? accessFor(route) : 'owner';
    if (!mayUse(c.get('adminUser'), access)) throw new HTTPException(403, { message: refusalMessage(access) });
    return next();
  };
}
