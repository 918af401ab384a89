import type { Bindings } from '../../env';
import { mailChannelsBaseUrl, mailChannelsConfig, mailChannelsTimeoutMs } from './mailchannels';
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

/**
 * Outbound key fetches per isolate (docs/decisions/0012): a request with a fresh `created` and a random key id
 * passes every check that comes before the key, so without a bound each one made a fetch to
 * MailChannels. Key ids MailChannels does not know are remembered for UNKNOWN_KEY_TTL_MS (refused
 * at once, 401), and at most one fetch starts per KEY_FETCH_INTERVAL_MS; a request that needs a
 * fetch inside that interval is answered 503, which MailChannels retries. Keys MailChannels served are
 * kept in memory too (a key never changes under its id), so MailChannels' own requests seldom need
 * a fetch at all. In memory, not KV: random ids must not cost KV writes (1,000 a day on the free
 * plan). Each isolate keeps its own; the bound is per isolate.
 */
export const KEY_FETCH_INTERVAL_MS = 10_000;
export const UNKNOWN_KEY_TTL_MS = 15 * 60_000;
/** Enough for every key id MailChannels uses; beyond it the oldest entry is forgotten. */
const MAX_REMEMBERED_KEY_IDS = 500;

const keyState = {
  known: new Map<string, string>(),
  /** Key id -> until when (ms) it is refused without a fetch. */
  unknown: new Map<string, number>(),
  lastFetchAt: Number.NEGATIVE_INFINITY,
};

function remember<V>(map: Map<string, V>, key: string, value: V) {
  map.delete(key);
  map.set(key, value);
  if (map.size > MAX_REMEMBERED_KEY_IDS) map.delete(map.keys().next().value!);
}

/** Forgets every key id this isolate remembers and the last fetch: for tests, which each start from a fresh state. */
export function resetWebhookKeyState(): void {
  keyState.known.clear();
  keyState.unknown.clear();
  keyState.lastFetchAt = Number.NEGATIVE_INFINITY;
}

/**
 * MailChannels' public key for a key id (GET /tx/v1/webhook/public-key?id=..., answered with
 * `{ id, key }`), from memory or the KV cache when present. An unknown id is the sender's fault
 * (WebhookSignatureError, 401); anything else that keeps us from the key is ours or MailChannels'
 * (WebhookKeyUnavailableError, 503), so MailChannels retries instead of dropping the events. The
 * fetches are bounded per isolate (KEY_FETCH_INTERVAL_MS, UNKNOWN_KEY_TTL_MS above).
 */
export async function webhookPublicKey(env: Bindings, keyId: string, now = Date.now()): Promise<string> {
  const known = keyState.known.get(keyId);
  if (known) return known;
  const unknownUntil = keyState.unknown.get(keyId);
  if (unknownUntil !== undefined) {
    if (unknownUntil > now) throw new WebhookSignatureError('Unknown signing key');
    keyState.unknown.delete(keyId);
  }
  const cacheKey = `${KEY_CACHE_PREFIX}${keyId}`;
  const cached = await env.THROTTLE.get(cacheKey).catch(() => null);
  if (cached) {
    remember(keyState.known, keyId, cached);
    return cached;
  }
  if (now - keyState.lastFetchAt < KEY_FETCH_INTERVAL_MS) {
    throw new WebhookKeyUnavailableError('A signing key was fetched moments ago; further fetches wait (per-isolate throttle)');
  }
  keyState.lastFetchAt = now;

  let res: Response;
  try {
    const config = mailChannelsConfig(env);
    res = await fetch(`${mailChannelsBaseUrl(env)}/webhook/public-key?id=${encodeURIComponent(keyId)}`, {
      headers: config ? { 'x-api-key': config.apiKey } : {},
      signal: AbortSignal.timeout(mailChannelsTimeoutMs(env)),
    });
  } catch (error) {
    throw new WebhookKeyUnavailableError(`Could not fetch the MailChannels signing key: ${(error as Error)?.message ?? String(error)}`);
  }
  if (res.status === 404) {
    remember(keyState.unknown, keyId, now + UNKNOWN_KEY_TTL_MS);
    throw new WebhookSignatureError('Unknown signing key');
  }
  if (!res.ok) throw new WebhookKeyUnavailableError(`MailChannels answered ${res.status} for the signing key`);
  const body = (await res.json().catch(() => null)) as { id?: string; key?: string } | null;
  if (!body?.key) throw new WebhookKeyUnavailableError('MailChannels sent no signing key');
  await env.THROTTLE.put(cacheKey, body.key, { expirationTtl: KEY_CACHE_TTL_SECONDS }).catch(() => undefined);
  remember(keyState.known, keyId, body.key);
  return body.key;
}

/**
 * `configured`: a MailChannels key is set. `accountIdSet`: so is the firm's account id, without
 * which the webhook refuses every event (503); the message then says so.
 */
export type DeliveryEventsStatus =
  | { configured: false; accountIdSet: boolean; enrolled: false; endpoint: string; message: string }
  | { configured: true; accountIdSet: boolean; enrolled: boolean; endpoint: string; message: string };

const NO_KEY_MESSAGE = 'Delivery events need the MailChannels API key (MAILCHANNELS_API_KEY): without it e-mail stays in the outbox.';
/** Why the webhook refuses events while the account id is missing: logged by the route, shown to the admin. */
export const NO_ACCOUNT_ID_MESSAGE =
  'Delivery events need your MailChannels account id (MAILCHANNELS_ACCOUNT_ID in wrangler.jsonc "vars"): until it is set, every delivery event is refused (503), so only your own account\'s events can ever count.';

/** The firm's MailChannels account id, when set. */
export const mailChannelsAccountId = (env: Pick<Bindings, 'MAILCHANNELS_ACCOUNT_ID'>) => env.MAILCHANNELS_ACCOUNT_ID?.trim() || null;

/** A failed call to MailChannels' webhook management, with the words to show the admin. */
export class WebhookManagementError extends Error {
  override readonly name = 'WebhookManagementError';
}

async function managementFetch(env: Bindings, apiKey: string, method: 'GET' | 'POST', query = ''): Promise<Response> {
  try {
    return await fetch(`${mailChannelsBaseUrl(env)}/webhook${query}`, {
      method,
      headers: { 'x-api-key': apiKey },
      signal: AbortSignal.timeout(mailChannelsTimeoutMs(env)),
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
  const accountIdSet = mailChannelsAccountId(env) !== null;
  if (!config) return { configured: false, accountIdSet, enrolled: false, endpoint, message: NO_KEY_MESSAGE };
  const enrolled = (await enrolledWebhooks(env, config.apiKey)).includes(endpoint);
  let message = enrolled ? `Delivery events are enrolled: MailChannels posts them to ${endpoint}` : 'Delivery events are not enrolled yet';
  if (!accountIdSet) message = NO_ACCOUNT_ID_MESSAGE;
  return { configured: true, accountIdSet, enrolled, endpoint, message };
}

/**
 * Enrolls this site's delivery-event URL (POST /tx/v1/webhook?endpoint=...). MailChannels answers
 * 409 when the URL is already enrolled, which is success for the admin.
 */
export async function enrollDeliveryEvents(env: Bindings, origin: string): Promise<{ endpoint: string; message: string }> {
  const endpoint = `${origin}${DELIVERY_EVENTS_PATH}`;
  const config = mailChannelsConfig(env);
  if (!config) throw new WebhookManagementError(NO_KEY_MESSAGE);
  if (!mailChannelsAccountId(env)) throw new WebhookManagementError(NO_ACCOUNT_ID_MESSAGE);
  const res = await managementFetch(env, config.apiKey, 'POST', `?endpoint=${encodeURIComponent(endpoint)}`);
  if (res.status === 409) return { endpoint, message: `Delivery events were already enrolled for ${endpoint}` };
  if (!res.ok) throw await failure(res);
  return { endpoint, message: `Delivery events enrolled: MailChannels will post them to ${endpoint}` };
}
