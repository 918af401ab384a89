import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../env';

/** HS256 wants a key at least as long as its 256-bit output; jose accepts less, so the worker checks. */
export const JWT_SECRET_MIN_LENGTH = 32;

/** What is wrong with JWT_SECRET, for the log; null when it is usable. */
export function jwtSecretProblem(secret: string | undefined): string | null {
  if (!secret) return 'JWT_SECRET is not set';
  if (secret.length < JWT_SECRET_MIN_LENGTH) return `JWT_SECRET is shorter than ${JWT_SECRET_MIN_LENGTH} characters (${secret.length})`;
  return null;
}

/** The log line an operator acts on (README, "Deploying to Cloudflare", step 6: secrets). */
export function jwtSecretLogLine(problem: string): string {
  return `${problem}: set it with \`npx wrangler secret put JWT_SECRET\` (a random value of at least ${JWT_SECRET_MIN_LENGTH} characters, e.g. \`openssl rand -base64 48\`).`;
}

/**
 * Fails fast on a deployment without a usable JWT_SECRET: it signs the admin session, every link
 * in every e-mail and the network keys of the limits, so without it nothing of the API is safe to
 * serve. Every API request then answers 503 with a JSON message and logs what to do, instead of
 * failing later inside a sign-in or a form with a bare 500.
 *
 * @example
 * app.use('/api/*', requireJwtSecret())
 */
export function requireJwtSecret(): MiddlewareHandler<AppEnv> {
  return async function requireJwtSecretMiddleware(c, next) {
    const problem = jwtSecretProblem(c.env.JWT_SECRET);
    if (!problem) return next();
    console.error(`Refusing API request ${c.req.method} ${c.req.path}: ${jwtSecretLogLine(problem)}`);
    return c.json({ message: 'The site is not configured yet. Please try again later.' }, 503);
  };
}
