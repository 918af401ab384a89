import { Hono } from 'hono';
import type { AppEnv } from '../env';
import { turnstileSiteKeyOf } from '../security-headers';

/** Only Google Tag Manager container ids (GTM-XXXXXXX) reach the page; anything else is ignored. */
const gtmIdPattern = /^GTM-[A-Z0-9]{4,12}$/;

/**
 * Public, non-secret settings the static SPA reads at run time. The cookie banner asks for it only
 * after the visitor accepts cookies, and loads Tag Manager when GTM_ID is configured; the public
 * forms ask for it when a visitor starts filling one, and show Cloudflare Turnstile when
 * TURNSTILE_SITE_KEY is configured (web/lib/turnstile.ts).
 */
export const siteConfig = new Hono<AppEnv>().get('/', (c) => {
  const gtmId = c.env.GTM_ID && gtmIdPattern.test(c.env.GTM_ID) ? c.env.GTM_ID : null;
  const turnstileSiteKey = turnstileSiteKeyOf(c.env.TURNSTILE_SITE_KEY);
  c.header('Cache-Control', 'public, max-age=300');
  return c.json({ gtmId, turnstileSiteKey }, 200);
});
