import { Hono } from 'hono';
import { contactMessages } from '../db/schema';
import type { AppEnv } from '../env';
import { honeypot } from '../middleware/honeypot';
import { turnstile } from '../middleware/turnstile';
import { validate } from '../middleware/validate';
import { CONTACT_SUCCESS_MESSAGE, contactSchema } from '#core/schemas/contact';
import { networkHash } from '../middleware/client-network';
import { deliverAfterAnswer } from '../services/email/send-email';
import { contactNotificationEmail } from '../services/email/submission-emails';
import { publishedContent } from '../services/content/published';
import { IP_WINDOW_SECONDS, storeSubmission } from '../services/limits/submission-limits';
import { newMessageId } from '../services/contact/replies';

// A bot that fills the hidden "website" field gets the answer a person gets, and nothing happens.
const contactHoneypot = honeypot<AppEnv>({ field: 'website', onFilled: (c) => c.json({ message: CONTACT_SUCCESS_MESSAGE }, 201) });

/**
 * POST /api/contact: store the message first, then tell the firm (docs/product.md §2). The visitor
 * is answered once the message is committed; the notification goes out after the answer.
 */
export const contact = new Hono<AppEnv>().post('/', contactHoneypot, validate('json', contactSchema), turnstile(), async (c) => {
  const input = c.req.valid('json');
  const ipHash = await networkHash(c);
  // One D1 call (worker/services/limits/submission-limits.ts): the limits, the message, today's
  // submitter record and the firm's notification queued in the outbox commit together.
  // The firm's facts as published, read before the write (no D1 call while this isolate has them).
  const { firm } = await publishedContent(c.env);
  // The notification's Message-ID is stored with the message: the thread root of the inbox's replies.
  const values = { name: input.name, email: input.email, phone: input.phone || null, message: input.message, messageId: newMessageId(c.env), createdAt: new Date() };
  const result = await storeSubmission(c.env, 'contact', ipHash, {
    table: contactMessages,
    values,
    emails: { always: [contactNotificationEmail(firm, values)] },
    phone: firm.contact.phone,
  });
  if (!result.ok) return c.json({ message: result.message }, 429, { 'Retry-After': String(IP_WINDOW_SECONDS) });
  if (result.mail) deliverAfterAnswer(c.env, c.executionCtx, result.mail.transport, result.mail.logged);
  return c.json({ message: CONTACT_SUCCESS_MESSAGE }, 201);
});
