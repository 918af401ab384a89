import { Hono, type HonoRequest } from 'hono';
import * as z from 'zod/v4';
import type { AppEnv } from '../env';
import { turnstile } from '../middleware/turnstile';
import { validate } from '../middleware/validate';
import { newsletterSubscribeSchema, newsletterTokenSchema } from '#core/schemas/newsletter';
import { networkHash } from '../middleware/client-network';
import { checkUnsubscribeToken, confirmSubscription, signUp, unsubscribe } from '../services/newsletter';
import { siteOrigin } from '../services/platform/site-origin';

export const SUBSCRIBE_MESSAGE = 'Thank you! Please check your inbox and click the link in our e-mail to confirm your subscription.';

const INVALID_UNSUBSCRIBE_LINK = 'This unsubscribe link is invalid or has expired';
const INVALID_CONFIRM_LINK = 'This confirmation link is invalid or has expired';

/**
 * A link's token as the SPA sends it (GET's query, POST's JSON body), so the typed
 * client knows both requests. Optional, and a token that breaks the links' own schema (empty, too
 * long, not text) counts as absent: either way the answer is the one a wrong token gets. Hono's
 * JSON validator reads a body only when it is JSON, so the one-click POSTs pass it untouched.
 */
const optionalToken = z.object({ token: newsletterTokenSchema.shape.token.optional().catch(undefined) });

/** A token posted by a plain HTML form (the usual ways are the URL and the SPA's JSON). */
async function formToken(req: HonoRequest): Promise<string | undefined> {
  try {
    const { token } = await req.parseBody();
    return typeof token === 'string' ? token : undefined;
  } catch {
    return undefined; // a malformed form body: no token
  }
}

/** Public newsletter endpoints: double opt-in sign-up, confirmation (by POST) and unsubscribe. */
export const newsletter = new Hono<AppEnv>()
  .post('/subscribe', validate('json', newsletterSubscribeSchema), turnstile(), async (c) => {
    // Per network per hour, one D1 statement (worker/services/newsletter/signup-throttle.ts).
    const network = await networkHash(c);
    const result = await signUp(c.env, c.var.db, c.req.valid('json'), { network, origin: siteOrigin(c.env, c.req.url), ctx: c.executionCtx });
    if (!result.ok) return c.json({ message: 'Too many sign-up attempts. Please try again later.' }, 429);
    // Same answer for a new, pending, active or unsubscribed address: no enumeration.
    return c.json({ message: SUBSCRIBE_MESSAGE }, 200);
  })
  // The link that older confirmation e-mails carried: a GET changes nothing (link scanners
  // open links), it only forwards to the page whose button confirms.
  .get('/confirm', (c) => {
    const token = newsletterTokenSchema.shape.token.safeParse(c.req.query('token'));
    return c.redirect(token.success ? `/newsletter/confirm?token=${encodeURIComponent(token.data)}` : '/newsletter/invalid-link', 303);
  })
  // The Confirm button on that page (web/pages/newsletter-confirm.tsx).
  .post('/confirm', validate('json', optionalToken), async (c) => {
    const token = c.req.valid('json').token;
    const outcome = token ? await confirmSubscription(c.env, c.var.db, token) : 'invalid';
    if (outcome !== 'confirmed') return c.json({ message: INVALID_CONFIRM_LINK }, 400);
    return c.json({ message: 'Your subscription is confirmed' }, 200);
  })
  // For the SPA's unsubscribe page: is the link valid (and whose masked address)? Changes nothing.
  .get('/unsubscribe', validate('query', optionalToken), async (c) => {
    const token = c.req.valid('query').token ?? '';
    const result = token ? await checkUnsubscribeToken(c.env, c.var.db, token) : { valid: false };
    return c.json(result, 200);
  })
  // The button on that page, and RFC 8058 one-click POSTs from mail clients (CSRF allow-listed in index.ts).
  .post('/unsubscribe', validate('json', optionalToken), async (c) => {
    // The URL's token first (links, RFC 8058 one-click), then the SPA's JSON, then a form's.
    const token = c.req.query('token') || c.req.valid('json').token || (await formToken(c.req));
    const outcome = token ? await unsubscribe(c.env, c.var.db, token) : 'invalid';
    if (outcome !== 'unsubscribed') return c.json({ message: INVALID_UNSUBSCRIBE_LINK }, 400);
    return c.json({ message: 'You have been unsubscribed' }, 200);
  });
