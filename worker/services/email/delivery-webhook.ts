import type { Bindings } from '../../env';
import { MAILCHANNELS_DEFAULT_URL, mailChannelsConfig } from './mailchannels';
import { WebhookKeyUnavailableError, WebhookSignatureError } from './webhook-signature';

/** Where MailChannels posts delivery events (worker/routes/webhooks.ts). */
export const DELIVERY_EVENTS_PATH = '/api/webhooks/mailchannels';

/**
 * Webhook signing keys are cached in KV (THROTTLE), not D1: a key is a small value read on every
 * webhook and written once per key id, which is what KV is for, and `expirationTtl` retires it
 * without a table to purge. KV's eventual consistency is harmless here: a key never changes under
 * its id (a rotated key comes with a new id, which is simply fetched). A failing KV read or write
 * only means one more fetch from MailChannels.
 */
const KEY_CACHE_PREFIX = 'mailchannels-webhook-key:';
const KEY_CACHE_TTL_SECONDS = 6 * 60 * 60;
const DEFAULT_TIMEOUT_MS = 10_000;

function baseUrl(env: Bindings): string {
  return (env.MAILCHANNELS_API_URL || MAILCHANNELS_DEFAULT_URL).replace(/\/+$/, '');
}

function timeoutMs(env: Bindings): number {
  const timeout = Number(env.MAILCHANNELS_TIMEOUT_MS);
  return Number.isFinite(timeout) && timeout > 0 ? timeout : DEFAULT_TIMEOUT_MS;
}

/**
 * MailChannels' public key for a key id (GET /tx/v1/webhook/public-key?id=..., answered with
 * `{ id, key }`), from the KV cache when present. An unknown id is the sender's fault
 * (WebhookSignatureError, 401); anything else that keeps us from the key is ours or MailChannels'
 * (WebhookKeyUnavailableError, 503), so MailChannels retries instead of dropping the events.
 */
export async function webhookPublicKey(env: Bindings, keyId: string): Promise<string> {
  const cacheKey = `${KEY_CACHE_PREFIX}${keyId}`;
  const cached = await env.THROTTLE.get(cacheKey).catch(() => null);
  if (cached) return cached;

  let res: Response;
  try {
    const config = mailChannelsConfig(env);
    res = await fetch(`${baseUrl(env)}/webhook/public-key?id=${encodeURIComponent(keyId)}`, {
      headers: config ? { 'x-api-key': config.apiKey } : {},
      signal: AbortSignal.timeout(timeoutMs(env)),
    });
  } catch (error) {
    throw new WebhookKeyUnavailableError(`Could not fetch the MailChannels signing key: ${(error as Error)?.message ?? String(error)}`);
  }
  if (res.status === 404) throw new WebhookSignatureError('Unknown signing key');
  if (!res.ok) throw new WebhookKeyUnavailableError(`MailChannels answered ${res.status} for the signing key`);
  const body = (await res.json().catch(() => null)) as { id?: string; key?: string } | null;
  if (!body?.key) throw new WebhookKeyUnavailableError('MailChannels sent no signing key');
  await env.THROTTLE.put(cacheKey, body.key, { expirationTtl: KEY_CACHE_TTL_SECONDS }).catch(() => undefined);
  return body.key;
}

export type DeliveryEventsStatus =
  | { configured: false; enrolled: false; endpoint: string; message: string }
  | { configured: true; enrolled: boolean; endpoint: string; message: string };

const NO_KEY_MESSAGE = 'Delivery events need the MailChannels API key (MAILCHANNELS_API_KEY): without it e-mail stays in the outbox.';

/** A failed call to MailChannels' webhook management, with the words to show the admin. */
export class WebhookManagementError extends Error {
  override readonly name = 'WebhookManagementError';
}

async function managementFetch(env: Bindings, apiKey: string, method: 'GET' | 'POST', query = ''): Promise<Response> {
  try {
    return await fetch(`${baseUrl(env)}/webhook${query}`, {
      method,
      headers: { 'x-api-key': apiKey },
      signal: AbortSignal.timeout(timeoutMs(env)),
    });
  } catch (error) {
    throw new WebhookManagementError(`Could not reach MailChannels: ${(error as Error)?.message ?? String(error)}`);
  }
}

async function failure(res: Response): Promise<WebhookManagementError> {
  const text = (await res.text().catch(() => '')).slice(0, 300);
  if (res.status === 401 || res.status === 403) return new WebhookManagementError(`MailChannels rejected the API key (${res.status})`);
  return new WebhookManagementError(`MailChannels answered ${res.status}${text ? `: ${text}` : ''}`);
}

/** The webhook URLs enrolled for the account (GET /tx/v1/webhook answers `[{ webhook }]`). */
async function enrolledWebhooks(env: Bindings, apiKey: string): Promise<string[]> {
  const res = await managementFetch(env, apiKey, 'GET');
  if (!res.ok) throw await failure(res);
  const body = (await res.json().catch(() => null)) as unknown;
  const list = Array.isArray(body) ? body : ((body as { webhooks?: unknown[] } | null)?.webhooks ?? []);
  return list.map((w) => (typeof w === 'string' ? w : String((w as { webhook?: unknown })?.webhook ?? ''))).filter(Boolean);
}

/** Whether this site's delivery-event URL is enrolled with MailChannels. */
export async function deliveryEventsStatus(env: Bindings, origin: string): Promise<DeliveryEventsStatus> {
  const endpoint = `${origin}${DELIVERY_EVENTS_PATH}`;
  const config = mailChannelsConfig(env);
  if (!config) return { configured: false, enrolled: false, endpoint, message: NO_KEY_MESSAGE };
  const enrolled = (await enrolledWebhooks(env, config.apiKey)).includes(endpoint);
  return {
    configured: true,
    enrolled,
    endpoint,
    message: enrolled ? `Delivery events are enrolled: MailChannels posts them to ${endpoint}` : 'Delivery events are not enrolled yet',
  };
}

/**
 * Enrolls this site's delivery-event URL (POST /tx/v1/webhook?endpoint=...). MailChannels answers
 * 409 when the URL is already enrolled, which is success for the admin.
 */
export async function enrollDeliveryEvents(env: Bindings, origin: string): Promise<{ endpoint: string; message: string }> {
  const endpoint = `${origin}${DELIVERY_EVENTS_PATH}`;
  const config = mailChannelsConfig(env);
  if (!config) throw new WebhookManagementError(NO_KEY_MESSAGE);
  const res = await managementFetch(env, config.apiKey, 'POST', `?endpoint=${encodeURIComponent(endpoint)}`);
  if (res.status === 409) return { endpoint, message: `Delivery events were already enrolled for ${endpoint}` };
  if (!res.ok) throw await failure(res);
  return { endpoint, message: `Delivery events enrolled: MailChannels will post them to ${endpoint}` };
}
