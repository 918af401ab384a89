import { Hono } from 'hono';
import { getDb } from '../db/client';
import type { AppEnv } from '../env';
import { validate } from '../middleware/validate';
import { newsletterSubscribeSchema, newsletterTokenSchema } from '../schemas/newsletter';
import { clientIp, hashIp } from '../services/client-ip';
import { takeKvAllowance } from '../services/kv-throttle';
import { checkUnsubscribeToken, confirmSubscription, subscribe, unsubscribe } from '../services/newsletter/subscriptions';
import { siteOrigin } from '../services/newsletter/template';

export const SUBSCRIBE_MESSAGE = 'Thank you! Please check your inbox and click the link in our e-mail to confirm your subscription.';
/** Sign-ups per IP per hour: generous for people, a wall for scripts mailing strangers. */
const SUBSCRIBES_PER_IP_PER_HOUR = 10;

/** Counted in KV and open when KV fails (worker/services/kv-throttle.ts, docs/decisions/0006). */
async function overIpLimit(kv: KVNamespace, ipHash: string): Promise<boolean> {
  const allowed = await takeKvAllowance(kv, {
    key: `newsletter-subscribe:${ipHash}:${Math.floor(Date.now() / 3_600_000)}`,
    limit: SUBSCRIBES_PER_IP_PER_HOUR,
    ttlSeconds: 3600 + 60,
    name: 'newsletter-subscribe',
  });
  return !allowed;
}

/** Reads the token from the query (links, RFC 8058 one-click) or a JSON / form body (the SPA's button). */
async function tokenFrom(req: Request, query: string | undefined): Promise<string | null> {
  if (query) return query;
  const type = req.headers.get('content-type') ?? '';
  try {
    if (type.includes('application/json')) {
      const parsed = newsletterTokenSchema.safeParse(await req.json());
      return parsed.success ? parsed.data.token : null;
    }
    if (type.includes('form')) {
      const token = (await req.formData()).get('token');
      return typeof token === 'string' ? token : null;
    }
  } catch {
    return null;
  }
  return null;
}

/** Public newsletter endpoints: double opt-in sign-up, confirmation and unsubscribe. */
export const newsletter = new Hono<AppEnv>()
  .post('/subscribe', validate('json', newsletterSubscribeSchema), async (c) => {
    const input = c.req.valid('json');
    if (await overIpLimit(c.env.THROTTLE, await hashIp(clientIp(c), c.env.JWT_SECRET))) {
      return c.json({ message: 'Too many sign-up attempts. Please try again later.' }, 429);
    }
    await subscribe(c.env, getDb(c.env.DB), input, siteOrigin(c.env, c.req.url));
    // Same answer for a new, pending, active or unsubscribed address: no enumeration.
    return c.json({ message: SUBSCRIBE_MESSAGE }, 200);
  })
  // The link in the confirmation e-mail: activates, then shows the SPA's result page.
  .get('/confirm', async (c) => {
    const token = c.req.query('token') ?? '';
    const outcome = token ? await confirmSubscription(c.env, getDb(c.env.DB), token) : 'invalid';
    return c.redirect(outcome === 'confirmed' ? '/newsletter/confirmed' : '/newsletter/invalid-link', 303);
  })
  // For the SPA's unsubscribe page: is the link valid (and whose masked address)? Changes nothing.
  .get('/unsubscribe', async (c) => {
    const token = c.req.query('token') ?? '';
    const result = token ? await checkUnsubscribeToken(c.env, getDb(c.env.DB), token) : { valid: false };
    return c.json(result, 200);
  })
  // The button on that page, and RFC 8058 one-click POSTs from mail clients (CSRF allow-listed in index.ts).
  .post('/unsubscribe', async (c) => {
    const token = await tokenFrom(c.req.raw, c.req.query('token'));
    const outcome = token ? await unsubscribe(c.env, getDb(c.env.DB), token) : 'invalid';
    if (outcome !== 'unsubscribed') return c.json({ message: 'This unsubscribe link is invalid or has expired' }, 400);
    return c.json({ message: 'You have been unsubscribed' }, 200);
  });
