import type { MiddlewareHandler } from 'hono';
import { securityHeaders as headers } from '../security-headers';

/**
 * Adds the site's security headers to every response the worker produces (API answers and any
 * asset it forwards).
 *
 * @example
 * app.use(securityHeaders())
 */
export function securityHeaders(): MiddlewareHandler {
  return async function securityHeadersMiddleware(c, next) {
    await next();
    for (const [name, value] of Object.entries(headers)) {
      if (!c.res.headers.has(name)) c.res.headers.set(name, value);
    }
    // API answers are personal or live: never cache them in shared caches.
    if (new URL(c.req.url).pathname.startsWith('/api/') && !c.res.headers.has('Cache-Control')) {
      c.res.headers.set('Cache-Control', 'no-store');
    }
  };
}
