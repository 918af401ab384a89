import type { Bindings } from '../../env';

/**
 * The public origin for links in e-mails: SITE_URL (wrangler.jsonc "vars", the one source), or the
 * request's origin should a deployment have dropped it. The cron has no request: it needs SITE_URL.
 */
export function siteOrigin(env: Bindings, requestUrl?: string): string {
  if (env.SITE_URL) return env.SITE_URL.replace(/\/+$/, '');
  if (requestUrl) return new URL(requestUrl).origin;
  throw new Error('SITE_URL is not set: add the public origin to wrangler.jsonc "vars"');
}
