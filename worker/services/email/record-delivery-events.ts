import type { Bindings } from '../../env';
import { applyDeliveryEvents, type ApplyResult, type MailChannelsEvent } from './delivery-events';
import { mailChannelsAccountId, NO_ACCOUNT_ID_MESSAGE, webhookPublicKey } from './delivery-webhook';
import { verifyWebhook, WebhookKeyUnavailableError, WebhookSignatureError } from './webhook-signature';

// POST /api/webhooks/mailchannels's use case (docs/product.md §7; docs/decisions/0012): MailChannels'
// delivery events, authenticated by their signature instead of a session, applied to the e-mail log
// and the newsletter list (./delivery-events.ts). The route maps each result to its status.

export type RecordedDeliveryEvents =
  /** The events applied: what changed, what was a duplicate, what was ignored (200). */
  | { ok: true; result: ApplyResult }
  /** MailChannels is not configured: no event can be ours (404, nothing done, not even a key fetch). */
  | { ok: false; reason: 'off' }
  /** No MAILCHANNELS_ACCOUNT_ID: the firm's events cannot be told apart; MailChannels keeps them and retries (503). */
  | { ok: false; reason: 'no-account-id' }
  /** The signature does not hold (401, its message). */
  | { ok: false; reason: 'bad-signature'; message: string }
  /** The signing key could not be fetched: MailChannels retries (503). */
  | { ok: false; reason: 'key-unavailable' }
  /** The body is not JSON, or not an array of events (400, its message). */
  | { ok: false; reason: 'bad-body'; message: string };

/** Verifies the signed request and applies its events. */
export async function recordDeliveryEvents(env: Bindings, request: Request): Promise<RecordedDeliveryEvents> {
  if (!env.MAILCHANNELS_API_KEY) return { ok: false, reason: 'off' };
  // Only the firm's own events count (docs/decisions/0012): without its account id none can be told
  // apart; the admin's Email Authentication block says the same (./delivery-webhook.ts).
  const accountId = mailChannelsAccountId(env);
  if (!accountId) {
    console.error(`MailChannels webhook: refused with 503. ${NO_ACCOUNT_ID_MESSAGE}`);
    return { ok: false, reason: 'no-account-id' };
  }
  // The raw bytes, read once: the digest and signature cover these exact bytes, not their decoded
  // text (decoding drops a leading byte-order mark) nor a re-serialised parse.
  const bytes = new Uint8Array(await request.arrayBuffer());
  try {
    await verifyWebhook(request, bytes, (keyId) => webhookPublicKey(env, keyId));
  } catch (error) {
    if (error instanceof WebhookSignatureError) return { ok: false, reason: 'bad-signature', message: error.message };
    if (error instanceof WebhookKeyUnavailableError) {
      console.error('MailChannels webhook: signing key unavailable', error.message);
      return { ok: false, reason: 'key-unavailable' };
    }
    throw error;
  }
  let events: unknown;
  try {
    events = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return { ok: false, reason: 'bad-body', message: 'The body is not JSON' };
  }
  if (!Array.isArray(events)) return { ok: false, reason: 'bad-body', message: 'Expected a JSON array of events' };
  const objects = events.filter((e): e is MailChannelsEvent => typeof e === 'object' && e !== null);
  const result = await applyDeliveryEvents(env.DB, objects, { accountId });
  if (result.otherAccount > 0) {
    // A count only: never the events' addresses or handles (logs carry no request data).
    console.warn(`MailChannels webhook: ${result.otherAccount} event(s) of another MailChannels account ignored (customer_handle is not MAILCHANNELS_ACCOUNT_ID)`);
  }
  return { ok: true, result: { ...result, received: events.length, ignored: result.ignored + events.length - objects.length } };
}
