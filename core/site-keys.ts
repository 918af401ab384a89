// The public, non-secret keys an operator may configure (wrangler.jsonc vars GTM_ID and
// TURNSTILE_SITE_KEY), as the site accepts them: the worker's security headers and
// /api/site-config, the build's _headers (vite.config.ts) and the go-live checks (core/go-live.ts)
// all read them through these, so a value counts as configured in one way everywhere.

/** Only Google Tag Manager container ids (GTM-XXXXXXX) count as configured; anything else is ignored. */
const TAG_MANAGER_ID_PATTERN = /^GTM-[A-Z0-9]{4,12}$/;

/** The configured Tag Manager container id, or null when none (or something that is not one) is set. */
export function tagManagerIdOf(value: string | undefined | null): string | null {
  return typeof value === 'string' && TAG_MANAGER_ID_PATTERN.test(value) ? value : null;
}

/** A Turnstile site key as the dashboard issues them (0x…, or Cloudflare's 1x…/2x…/3x… test keys); anything else is ignored. */
const TURNSTILE_SITE_KEY_PATTERN = /^[0-3]x[A-Za-z0-9_-]{8,64}$/;

/** The configured Turnstile site key, or null when none (or something that is not one) is set. */
export function turnstileSiteKeyOf(value: string | undefined | null): string | null {
  return typeof value === 'string' && TURNSTILE_SITE_KEY_PATTERN.test(value) ? value : null;
}
