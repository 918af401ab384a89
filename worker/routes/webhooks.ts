import { Hono } from 'hono';
import type { AppEnv } from '../env';
import { applyDeliveryEvents, type MailChannelsEvent } from '../services/email/delivery-events';
import { webhookPublicKey } from '../services/email/delivery-webhook';
import { verifyWebhook, WebhookKeyUnavailableError, WebhookSignatureError } from '../services/email/webhook-signature';

/**
 * Calls from other services, authenticated by their own signatures instead of a session (and so
 * exempt from the same-origin check in worker/index.ts).
 */
export const webhooks = new Hono<AppEnv>().post('/mailchannels', async (c) => {
  // The raw text, read once: the signature covers these exact bytes, not a re-serialised parse.
  const body = await c.req.text();
  try {
    await verifyWebhook(c.req.raw, body, (keyId) => webhookPublicKey(c.env, keyId));
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
    events = JSON.parse(body);
  } catch {
    return c.json({ message: 'The body is not JSON' }, 400);
  }
  if (!Array.isArray(events)) return c.json({ message: 'Expected a JSON array of events' }, 400);
  const objects = events.filter((e): e is MailChannelsEvent => typeof e === 'object' && e !== null);
  const result = await applyDeliveryEvents(c.env.DB, objects, { accountId: c.env.MAILCHANNELS_ACCOUNT_ID || undefined });
  return c.json({ ...result, received: events.length, ignored: result.ignored + events.length - objects.length }, 200);
});
