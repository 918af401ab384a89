import { Hono } from 'hono';
import type { AppEnv } from '../env';
import { honeypot } from '../middleware/honeypot';
import { turnstile } from '../middleware/turnstile';
import { validate } from '../middleware/validate';
import { CONTACT_SUCCESS_MESSAGE, contactSchema } from '#core/schemas/contact';
import { networkHash } from '../middleware/client-network';
import { submitContactForm } from '../services/contact';

// A bot that fills the hidden "website" field gets the answer a person gets, and nothing happens.
const contactHoneypot = honeypot<AppEnv>({ field: 'website', onFilled: (c) => c.json({ message: CONTACT_SUCCESS_MESSAGE }, 201) });

/**
 * POST /api/contact: store the message first, then tell the firm (docs/product.md §2). The visitor
 * is answered once the message is committed; the notification goes out after the answer
 * (worker/services/contact/receive.ts).
 */
export const contact = new Hono<AppEnv>().post('/', contactHoneypot, validate('json', contactSchema), turnstile(), async (c) => {
  const result = await submitContactForm(c.env, c.executionCtx, await networkHash(c), c.req.valid('json'));
  if (!result.ok) return c.json({ message: result.message }, 429, { 'Retry-After': String(result.retryAfter) });
  return c.json({ message: CONTACT_SUCCESS_MESSAGE }, 201);
});
