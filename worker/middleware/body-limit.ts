import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';

/**
 * Caps request bodies (413 above the limit). Forms and chat are small; newsletter HTML gets more.
 * A large path is exact, or ends in "/*" for every path under it (e.g. a draft's "/drafts/:id").
 *
 * @example
 * app.use('/api/*', requestBodyLimit({ defaultBytes: 64 * 1024, largeBytes: 1024 * 1024, largePaths: ['/api/admin/send-newsletter'] }))
 */
export function requestBodyLimit(options: { defaultBytes: number; largeBytes: number; largePaths: string[] }): MiddlewareHandler {
  const onError: Parameters<typeof bodyLimit>[0]['onError'] = (c) =>
    c.json({ message: 'Request body too large' }, 413);
  const small = bodyLimit({ maxSize: options.defaultBytes, onError });
  const large = bodyLimit({ maxSize: options.largeBytes, onError });
  const largePaths = new Set(options.largePaths.filter((path) => !path.endsWith('/*')));
  const largePrefixes = options.largePaths.filter((path) => path.endsWith('/*')).map((path) => path.slice(0, -1));
  const isLarge = (path: string) => largePaths.has(path) || largePrefixes.some((prefix) => path.startsWith(prefix));
  return function requestBodyLimitMiddleware(c, next) {
    return (isLarge(c.req.path) ? large : small)(c, next);
  };
}
