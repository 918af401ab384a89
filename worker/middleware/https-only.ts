import type { MiddlewareHandler } from 'hono';
import { isLocalHost } from '../services/platform/local-host';

/** Whether the visitor's request came over plain HTTP: the URL's scheme, or a proxy's X-Forwarded-Proto. */
export function isPlainHttp(request: Request): boolean {
  const url = new URL(request.url);
  if (isLocalHost(url.hostname)) return false;
  const forwarded = request.headers.get('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase();
  return url.protocol === 'http:' || forwarded === 'http';
}

/**
 * HTTPS before any credential is sent (docs/product.md §8): a GET or HEAD over plain
 * HTTP is sent to the same address over HTTPS (301), and anything else is refused unprocessed
 * (403), so a password or a form typed on an http:// page is never acted on and no session cookie
 * is set over HTTP. localhost and 127.0.0.1 stay plain HTTP for local development.
 *
 * @example
 * app.use(httpsOnly())
 */
export function httpsOnly(): MiddlewareHandler {
  return async function httpsOnlyMiddleware(c, next) {
    if (!isPlainHttp(c.req.raw)) return next();
    if (c.req.method === 'GET' || c.req.method === 'HEAD') {
      const url = new URL(c.req.url);
      url.protocol = 'https:';
      return c.redirect(url.toString(), 301);
    }
    return c.json({ message: 'This site accepts requests over HTTPS only' }, 403);
  };
}
