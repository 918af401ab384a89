import { Hono } from 'hono';
import type { AppEnv } from '../env';
import { tagManagerIdOf, turnstileSiteKeyOf } from '#core/site-keys';

/**
 * Public, non-secret settings the static SPA reads at run time. The cookie banner asks for it only
 * after the visitor accepts cookies, and loads Tag Manager when GTM_ID is configured; the public
 * forms ask for it when a visitor starts filling one, and show Cloudflare Turnstile when
 * TURNSTILE_SITE_KEY is configured (web/lib/turnstile.ts).
 */
export const siteConfig = new Hono<AppEnv>().get('/', (c) => {
  const gtmId = tagManagerIdOf(c.env.GTM_ID);
  const turnstileSiteKey = turnstileSiteKeyOf(c.env.TURNSTILE_SITE_KEY);
  c.header('Cache-Control', 'public, max-age=300');
  return c.json({ gtmId, turnstileSiteKey }, 200);
});
