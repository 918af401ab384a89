import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { vi } from 'vitest';
import worker from '../../../worker/index';
import { contentDigest } from '../../../worker/services/email/webhook-signature';
import { bytesToBase64 } from '#core/encoding';
import { ORIGIN } from './helpers';
import { MAILCHANNELS_ACCOUNT_ID, MAILCHANNELS_URL } from './mailchannels-fake';

/**
 * MailChannels' webhook side, faked at the fetch boundary: a locally generated ed25519 key pair
 * whose public key is served at /tx/v1/webhook/public-key as MailChannels does (`{ id, key }`, the
 * key base64 SPKI), enrollments recorded at /tx/v1/webhook, and event arrays signed exactly as
 * MailChannels signs them (Content-Digest, Signature-Input, Signature). The worker's verification
 * is the real code. Requests to other MailChannels paths go to whatever fetch was installed before
 * (call fakeMailChannels() first to also fake /send).
 */
export interface WebhookFake {
  keyId: string;
  /** GET /webhook/public-key calls received. */
  keyFetches: number;
  /** Endpoints enrolled with POST /webhook, in order. */
  enrollments: string[];
  /** API keys the management calls carried. */
  apiKeys: (string | null)[];
  /** What the public-key endpoint does: serve the key, answer 500, or fail the connection. */
  keyEndpoint: 'up' | 'error' | 'network-error';
  /** The signing headers for a body, as MailChannels sends them. */
  sign(body: string, options?: SignOptions): Promise<Record<string, string>>;
}

export interface SignOptions {
  /** Seconds since the epoch for `created` (default now). */
  created?: number;
  /** Sign with another key pair (under the same key id unless `keyId` says otherwise). */
  privateKey?: CryptoKey;
  keyId?: string;
}

export const WEBHOOK_KEY_ID = 'mc-test-key-1';

// The worker remembers signing keys and key fetches per isolate (worker/services/email/
// delivery-webhook.ts); each test starts with a new key pair, so each starts from a fresh state:
// the worker setup file forgets them after every test (tests/harness/worker/apply-migrations.ts).

export async function generateEd25519(): Promise<CryptoKeyPair> {
  return (await crypto.subtle.generateKey({ name: 'Ed25519' }, true, ['sign', 'verify'])) as CryptoKeyPair;
}

export async function fakeMailChannelsWebhooks(options: { keyId?: string } = {}): Promise<WebhookFake> {
  const keyId = options.keyId ?? WEBHOOK_KEY_ID;
  const pair = await generateEd25519();
  const publicKey = bytesToBase64((await crypto.subtle.exportKey('spki', pair.publicKey)) as ArrayBuffer);
  const previousFetch = globalThis.fetch;

  const fake: WebhookFake = {
    keyId,
    keyFetches: 0,
    enrollments: [],
    apiKeys: [],
    keyEndpoint: 'up',
    async sign(body, signOptions = {}) {
      const digest = await contentDigest(body);
      const created = signOptions.created ?? Math.floor(Date.now() / 1000);
      const params = `("content-digest");created=${created};alg="ed25519";keyid="${signOptions.keyId ?? keyId}"`;
      const base = `"content-digest": ${digest}\n"@signature-params": ${params}`;
      const signature = await crypto.subtle.sign({ name: 'Ed25519' }, signOptions.privateKey ?? pair.privateKey, new TextEncoder().encode(base));
      return {
        'content-type': 'application/json',
        'content-digest': digest,
        'signature-input': `sig_mc=${params}`,
        signature: `sig_mc=:${bytesToBase64(signature)}:`,
      };
    },
  };

  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (!request.url.startsWith(`${MAILCHANNELS_URL}/webhook`)) return previousFetch(input, init);
    if (url.pathname.endsWith('/webhook/public-key')) {
      fake.keyFetches++;
      if (fake.keyEndpoint === 'network-error') throw new TypeError('Network connection lost.');
      if (fake.keyEndpoint === 'error') return new Response('upstream failure', { status: 500 });
      if (url.searchParams.get('id') !== keyId) return Response.json({ message: 'key not found' }, { status: 404 });
      return Response.json({ id: keyId, key: publicKey });
    }
    fake.apiKeys.push(request.headers.get('x-api-key'));
    if (request.method === 'POST') {
      const endpoint = url.searchParams.get('endpoint') ?? '';
      if (fake.enrollments.includes(endpoint)) return Response.json({ message: 'already enrolled' }, { status: 409 });
      fake.enrollments.push(endpoint);
      return new Response(null, { status: 201 });
    }
    if (request.method === 'GET') return Response.json(fake.enrollments.map((webhook) => ({ webhook })));
    return new Response(null, { status: 405 });
  });
  return fake;
}

/** Posts a body with the given headers to the worker's webhook route, as MailChannels' servers would (no Origin, no cookie). */
export async function postWebhook(testEnv: Cloudflare.Env, body: string, headers: Record<string, string>): Promise<Response> {
  const ctx = createExecutionContext();
  const res = await worker.fetch(
    new Request(`${ORIGIN}/api/webhooks/mailchannels`, { method: 'POST', headers, body }),
    testEnv,
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return res;
}

/** Signs an array of events with the fake's key and posts it to the worker. */
export async function postSignedEvents(testEnv: Cloudflare.Env, fake: WebhookFake, events: unknown[], options?: SignOptions) {
  const body = JSON.stringify(events);
  return postWebhook(testEnv, body, await fake.sign(body, options));
}

/** A delivery event as MailChannels posts it; `email` is the sender, the recipient is in `recipients`. */
export function mcEvent(event: string, recipient: string, requestId: string, extra: Record<string, unknown> = {}) {
  return {
    email: 'no-reply@northgatecpa.example',
    customer_handle: MAILCHANNELS_ACCOUNT_ID,
    timestamp: Math.floor(Date.now() / 1000),
    event,
    request_id: requestId,
    smtp_id: `<${requestId}@mailchannels.test>`,
    recipients: [recipient],
    ...extra,
  };
}
