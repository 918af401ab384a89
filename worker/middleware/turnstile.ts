import type { MiddlewareHandler } from 'hono';
import type { AppEnv, Bindings } from '../env';

export const SITEVERIFY_URL = 'https://challenges.cloudflare.com/turnstile/v0/siteverify';

export const TURNSTILE_FAILED_MESSAGE = 'Please complete the verification and try again.';
export const TURNSTILE_UNAVAILABLE_MESSAGE = 'We could not check the verification just now. Please try again in a few minutes.';

/** Cloudflare's own limit on a token's length (docs of the siteverify API). */
export const TURNSTILE_TOKEN_MAX_LENGTH = 2048;

const SITEVERIFY_TIMEOUT_MS = 5000;

type Verdict = 'passed' | 'failed' | 'unavailable';

interface SiteverifyAnswer {
  success?: unknown;
  hostname?: unknown;
  'error-codes'?: unknown;
}

const timeoutOf = (env: Bindings) => {
  const value = Number(env.TURNSTILE_SITEVERIFY_TIMEOUT_MS);
  return Number.isFinite(value) && value > 0 ? value : SITEVERIFY_TIMEOUT_MS;
};

/** The host the widget must have been solved on: SITE_URL's, when it is a URL. */
function expectedHostname(siteUrl: string | undefined): string | null {
  if (!siteUrl) return null;
  try {
    return new URL(siteUrl).hostname;
  } catch {
    return null;
  }
}

/** The token the SPA put in the JSON body, if it is one (Hono caches the body, so the validator reads it again). */
async function tokenFrom(req: { json(): Promise<unknown> }): Promise<string | null> {
  const body: unknown = await req.json().catch(() => null);
  const token = body && typeof body === 'object' ? (body as Record<string, unknown>).turnstileToken : undefined;
  return typeof token === 'string' && token && token.length <= TURNSTILE_TOKEN_MAX_LENGTH ? token : null;
}

/** Asks Cloudflare whether the token is a fresh, unused answer to this site's challenge. */
async function siteverify(env: Bindings, secret: string, token: string, remoteIp: string | undefined): Promise<Verdict> {
  let answer: SiteverifyAnswer;
  try {
    const res = await fetch(SITEVERIFY_URL, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ secret, response: token, ...(remoteIp ? { remoteip: remoteIp } : {}) }),
      signal: AbortSignal.timeout(timeoutOf(env)),
    });
    if (!res.ok) {
      console.warn(`turnstile: siteverify answered ${res.status}`);
      return 'unavailable';
    }
    answer = await res.json();
  } catch (error) {
    console.warn('turnstile: siteverify unreachable', error instanceof Error ? error.name : 'error');
    return 'unavailable';
  }
  const codes = Array.isArray(answer['error-codes']) ? answer['error-codes'] : [];
  // Cloudflare's own failure is not the visitor's: they may retry the same form later.
  if (answer.success !== true) return codes.includes('internal-error') ? 'unavailable' : 'failed';
  const expected = expectedHostname(env.SITE_URL);
  if (expected && typeof answer.hostname === 'string' && answer.hostname !== expected) return 'failed';
  return 'passed';
}

/**
 * Cloudflare Turnstile on a public write (docs/product.md §8, "Bot check"): when
 * TURNSTILE_SECRET is set, the JSON body's `turnstileToken` must pass siteverify before the handler
 * counts or stores anything. No token or a refused one → 403; siteverify unreachable → 503, nothing
 * stored (fail closed). Without the secret (local, tests, browser tests) it does nothing.
 *
 * Place it after the validator: a token is single-use, so a request refused for its fields must
 * not spend it, and before the handler, whose limits and inserts write.
 *
 * @example
 * contact.post('/', contactHoneypot, validate('json', contactSchema), turnstile(), handler)
 */
export function turnstile(): MiddlewareHandler<AppEnv> {
  return async function turnstileMiddleware(c, next) {
    const secret = c.env.TURNSTILE_SECRET;
    if (!secret) return next();
    const token = await tokenFrom(c.req);
    if (!token) return c.json({ message: TURNSTILE_FAILED_MESSAGE }, 403);
    const verdict = await siteverify(c.env, secret, token, c.req.header('cf-connecting-ip'));
    if (verdict === 'failed') return c.json({ message: TURNSTILE_FAILED_MESSAGE }, 403);
    if (verdict === 'unavailable') return c.json({ message: TURNSTILE_UNAVAILABLE_MESSAGE }, 503, { 'Retry-After': '60' });
    return next();
  };
}
