import type { MiddlewareHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * CSRF defence: a state-changing request that a browser marks as coming from another site (its
 * Origin is not ours, or Sec-Fetch-Site says cross-site) is refused with 403. Requests without
 * either header come from non-browser clients, which cannot carry the admin's SameSite cookie.
 * Routes that must accept cross-site POSTs (RFC 8058 one-click unsubscribe) are listed in `allow`.
 *
 * @example
 * app.use('/api/*', sameOrigin({ allow: ['/api/newsletter/unsubscribe'] }))
 */
export function sameOrigin(options: { allow?: string[] } = {}): MiddlewareHandler {
  const allow = new Set(options.allow ?? []);
  return async function sameOriginMiddleware(c, next) {
    if (SAFE_METHODS.has(c.req.method) || allow.has(c.req.path)) return next();
    const ownOrigin = new URL(c.req.url).origin;
    const origin = c.req.header('origin');
    const fetchSite = c.req.header('sec-fetch-site');
    if ((origin !== undefined && origin !== ownOrigin) || fetchSite === 'cross-site') {
      throw new HTTPException(403, { message: 'Cross-site request refused' });
    }
    return next();
  };
}
