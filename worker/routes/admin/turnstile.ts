import { Hono } from 'hono';
import type { AppEnv } from '../../env';
import { turnstileSiteKeyOf } from '#core/site-keys';

/**
 * Whether Cloudflare Turnstile guards the public forms (README, "Deploying to Cloudflare"): the
 * worker checks tokens only with TURNSTILE_SECRET, and the forms ask for one only with a valid
 * TURNSTILE_SITE_KEY. The admin panel warns while either is missing on a public origin
 * (web/features/admin/components/turnstile-warning.tsx). Behind requireAdmin
 * (routes/admin/index.ts); it answers only whether each is set, never a value.
 */
export const adminTurnstile = new Hono<AppEnv>().get('/', (c) =>
  c.json({ secretSet: Boolean(c.env.TURNSTILE_SECRET), siteKeySet: turnstileSiteKeyOf(c.env.TURNSTILE_SITE_KEY) !== null }, 200),
);
