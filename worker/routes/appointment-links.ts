import { type Context, Hono } from 'hono';
import type { AppEnv } from '../env';
import { validate } from '../middleware/validate';
import { cancelRequestSchema, LINK_MESSAGES, manageQuerySchema, rescheduleRequestSchema } from '#core/schemas/appointment-links';
import { cancelByLink, type LinkActionResult, readLink, rescheduleByLink } from '../services/appointments';
import { networkHash } from '../middleware/client-network';

// The visitor's self-service (docs/product.md §3), reached from the Cancel and Reschedule links of
// the booking e-mails (worker/services/appointments/link-actions.ts). GET only reads: mail scanners
// follow links. The two POSTs act, each once per link, after taking the forms' per-network
// allowance. Same-origin and the body limit are the API's global middleware (worker/index.ts).

/** A link that does not act: 400 when it is not ours, 410 when it was and no longer is. */
const linkFailure = (c: Context<AppEnv>, reason: 'invalid' | 'expired' | 'used' | 'cancelled') =>
  c.json({ message: LINK_MESSAGES[reason], reason }, reason === 'invalid' ? 400 : 410);

/** An action's answer: the appointment as it now is, or the refusal's status and message. */
function linkActionAnswer(c: Context<AppEnv>, result: LinkActionResult, message: string) {
  if (result.ok) return c.json({ message, appointment: result.appointment }, 200);
  switch (result.reason) {
    case 'network':
      return c.json({ message: result.message }, 429, { 'Retry-After': String(result.retryAfter) });
    case 'changes-used-up':
      return c.json({ message: result.message }, 429);
    case 'same-slot':
      return c.json({ message: LINK_MESSAGES.sameSlot }, 409);
    case 'rule-refused':
      return c.json({ message: result.message }, 400);
    case 'slot-refused':
      return c.json({ message: result.message }, 409);
    default:
      return linkFailure(c, result.reason);
  }
}

export const appointmentLinksApi = new Hono<AppEnv>()
  // What the cancel or reschedule page shows; changes nothing.
  .get('/', validate('query', manageQuerySchema), async (c) => {
    const link = await readLink(c.env, c.var.db, c.req.valid('query').token);
    if (!link.ok) return linkFailure(c, link.reason);
    return c.json({ action: link.action, appointment: link.appointment }, 200);
  })
  .post('/cancel', validate('json', cancelRequestSchema), async (c) => {
    const result = await cancelByLink(c.env, c.var.db, { token: c.req.valid('json').token, networkHash: await networkHash(c) }, c.executionCtx);
    return linkActionAnswer(c, result, 'Your appointment has been cancelled. We have sent you a confirmation by e-mail.');
  })
  // rescheduleRequestSchema reads the clock on each parse: the booking form's date and slot rules.
  .post('/reschedule', validate('json', rescheduleRequestSchema), async (c) => {
    const result = await rescheduleByLink(c.env, c.var.db, { ...c.req.valid('json'), networkHash: await networkHash(c) }, c.executionCtx);
    return linkActionAnswer(c, result, "Your appointment has been moved. We'll contact you shortly to confirm the new time; an updated invite is on its way by e-mail.");
  });
