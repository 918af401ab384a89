import { Hono } from 'hono';
import type { AppEnv } from '../env';
import { applyDeliveryEvents, type MailChannelsEvent } from '../services/email/delivery-events';
import { mailChannelsAccountId, NO_ACCOUNT_ID_MESSAGE, webhookPublicKey } from '../services/email/delivery-webhook';
import { verifyWebhook, WebhookKeyUnavailableError, WebhookSignatureError } from '../services/email/webhook-signature';

/**
 * Calls from other services, authenticated by their own signatures instead of a session (and so
 * exempt from the same-origin check in worker/index.ts).
 */
export const webhooks = new Hono<AppEnv>().post('/mailchannels', async (c) => {
  // Off when MailChannels is not configured: no mail went out through it, so no event can be ours,
  // and nothing (not even a key fetch) is done for such a request.
  if (!c.env.MAILCHANNELS_API_KEY) return c.json({ message: 'Not found' }, 404);
  // Only the firm's own events count (docs/decisions/0012): without its account id none can be told apart.
  // 503, so MailChannels keeps the events and retries once the id is set; the admin's Email
  // Authentication block says the same (worker/services/email/delivery-webhook.ts).
  const accountId = mailChannelsAccountId(c.env);
  if (!accountId) {
    console.error(`MailChannels webhook: refused with 503. ${NO_ACCOUNT_ID_MESSAGE}`);
    return c.json({ message: 'Delivery events are not configured on this site yet; try again later' }, 503);
  }
  // The raw bytes, read once: the digest and signature cover these exact bytes, not their decoded
  // text (decoding drops a leading byte-order mark) nor a re-serialised parse.
  const bytes = new Uint8Array(await c.req.arrayBuffer());
  try {
    await verifyWebhook(c.req.raw, bytes, (keyId) => webhookPublicKey(c.env, keyId));
  } catch (error) {
    if (error instanceof WebhookSignatureError) return c.json({ message: error.message }, 401);
    if (error instanceof WebhookKeyUnavailableError) {
      console.error('MailChannels webhook: signing key unavailable', error.message);
      return c.json({ message: 'The signing key is unavailable; try again later' }, 503);
    }
    throw error;
  }
  let events: unknown;
  try {
    events = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return c.json({ message: 'The body is not JSON' }, 400);
  }
  if (!Array.isArray(events)) return c.json({ message: 'Expected a JSON array of events' }, 400);
  const objects = events.filter((e): e is MailChannelsEvent => typeof e === 'object' && e !== null);
  const result = await applyDeliveryEvents(c.env.DB, objects, { accountId });
  if (result.otherAccount > 0) {
    // A count only: never the events' addresses or handles (logs carry no request data).
    console.warn(`MailChannels webhook: ${result.otherAccount} event(s) of another MailChannels account ignored (customer_handle is not MAILCHANNELS_ACCOUNT_ID)`);
  }
  return c.json({ ...result, received: events.length, ignored: result.ignored + events.length - objects.length }, 200);
});
