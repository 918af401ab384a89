import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';

/**
 * Caps request bodies (413 above the limit). Forms and chat are small; newsletter HTML gets more.
 *
 * @example
 * app.use('/api/*', requestBodyLimit({ defaultBytes: 64 * 1024, largeBytes: 1024 * 1024, largePaths: ['/api/admin/send-newsletter'] }))
 */
export function requestBodyLimit(options: { defaultBytes: number; largeBytes: number; largePaths: string[] }): MiddlewareHandler {
  const onError: Parameters<typeof bodyLimit>[0]['onError'] = (c) =>
    c.json({ message: 'Request body too large' }, 413);
  const small = bodyLimit({ maxSize: options.defaultBytes, onError });
  const large = bodyLimit({ maxSize: options.largeBytes, onError });
  const largePaths = new Set(options.largePaths);
  return function requestBodyLimitMiddleware(c, next) {
    return (largePaths.has(c.req.path) ? large : small)(c, next);
  };
}
