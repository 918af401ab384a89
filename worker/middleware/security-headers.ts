import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../env';
import { adminSecurityHeaders, hasTagManager, isAdminPath, securityHeaders as publicSecurityHeaders, turnstileSiteKeyOf } from '../security-headers';

/**
 * Adds the site's security headers to every response the worker produces (API answers and any
 * asset it forwards): the admin's first-party-only policy on /admin and /api/admin, elsewhere the
 * public one, which allows Tag Manager only when GTM_ID names a container and Turnstile only when TURNSTILE_SITE_KEY
 * is set (worker/security-headers.ts).
 *
 * @example
 * app.use(securityHeaders())
 */
export function securityHeaders(): MiddlewareHandler<AppEnv> {
  return async function securityHeadersMiddleware(c, next) {
    await next();
    const pathname = new URL(c.req.url).pathname;
    const headers = isAdminPath(pathname)
      ? adminSecurityHeaders
      : publicSecurityHeaders({ tagManager: hasTagManager(c.env.GTM_ID), turnstile: turnstileSiteKeyOf(c.env.TURNSTILE_SITE_KEY) !== null });
    for (const [name, value] of Object.entries(headers)) {
      // A forwarded asset carries _headers' CSP, written at build time: the worker's, which knows
      // GTM_ID at run time, replaces it.
      if (name === 'Content-Security-Policy' || !c.res.headers.has(name)) c.res.headers.set(name, value);
    }
    // API answers are personal or live: never cache them in shared caches.
    if (pathname.startsWith('/api/') && !c.res.headers.has('Cache-Control')) {
      c.res.headers.set('Cache-Control', 'no-store');
    }
  };
}
