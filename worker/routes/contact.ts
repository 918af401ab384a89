import { Hono, type MiddlewareHandler } from 'hono';
import { contactMessages } from '../db/schema';
import type { AppEnv } from '../env';
import { validate } from '../middleware/validate';
import { CONTACT_SUCCESS_MESSAGE, contactSchema } from '../schemas/contact';
import { clientIp, hashIp } from '../services/client-ip';
import { contactNotificationEmail, sendAfterStoring } from '../services/submission-emails';
import { IP_WINDOW_SECONDS, storeSubmission } from '../services/submission-limits';

/**
 * The honeypot: a field people never see. A bot that fills it gets the normal success answer and
 * nothing is stored, counted or sent. Checked before validation, so the answer does not depend on
 * the rest of the bot's input either.
 */
export const honeypot = (field: string): MiddlewareHandler<AppEnv> =>
  async function honeypotMiddleware(c, next) {
    const body = await c.req.json().catch(() => null);
    if (body && typeof body === 'object' && typeof (body as Record<string, unknown>)[field] === 'string' && (body as Record<string, string>)[field].trim()) {
      return c.json({ message: CONTACT_SUCCESS_MESSAGE }, 201);
    }
    return next();
  };

/** POST /api/contact: store the message first, then tell the firm (docs/product.md §2). */
export const contact = new Hono<AppEnv>().post('/', honeypot('website'), validate('json', contactSchema), async (c) => {
  const input = c.req.valid('json');
  const ipHash = await hashIp(clientIp(c), c.env.JWT_SECRET);
  // One transaction: the message and today's distinct-submitter record.
  const result = await storeSubmission<typeof contactMessages.$inferSelect>(c.env, ipHash, (db) =>
    db
      .insert(contactMessages)
      .values({ name: input.name, email: input.email, phone: input.phone || null, message: input.message })
      .returning(),
  );
  if (!result.ok) return c.json({ message: result.message }, 429, { 'Retry-After': String(IP_WINDOW_SECONDS) });
  const stored = result.row;

  await sendAfterStoring(c.env, [contactNotificationEmail(stored)]);
  return c.json({ message: CONTACT_SUCCESS_MESSAGE }, 201);
});
