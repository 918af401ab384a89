import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { afterEach, vi } from 'vitest';
import worker from '../../../worker/index';
import { ORIGIN } from './helpers';

/**
 * A fake MailChannels at the fetch boundary: the worker's own code (transport, sending, routes)
 * runs for real and its outbound fetch to MAILCHANNELS_API_URL lands here.
 */
export const MAILCHANNELS_URL = 'https://mailchannels.test/tx/v1';

export interface RecordedRequest {
  url: string;
  apiKey: string | null;
  body: {
    personalizations: { to: { email: string; name?: string }[]; dkim_domain?: string; dkim_selector?: string; dkim_private_key?: string }[];
    from: { email: string; name: string };
    subject: string;
    content: { type: string; value: string }[];
    headers?: Record<string, string>;
    attachments?: unknown[];
  };
}

export type Responder = (request: RecordedRequest, index: number) => Response | Promise<Response> | 'hang' | 'network-error';

export function fakeMailChannels(responder: Responder = () => Response.json({ request_id: 'req-1' }, { status: 202 })) {
  const requests: RecordedRequest[] = [];
  const realFetch = globalThis.fetch;
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    if (!request.url.startsWith(MAILCHANNELS_URL)) return realFetch(input, init);
    const recorded: RecordedRequest = { url: request.url, apiKey: request.headers.get('x-api-key'), body: await request.json() };
    requests.push(recorded);
    const answer = await responder(recorded, requests.length - 1);
    if (answer === 'network-error') throw new TypeError('Network connection lost.');
    if (answer === 'hang') {
      return new Promise<Response>((_, reject) => {
        request.signal.addEventListener('abort', () => reject(request.signal.reason ?? new DOMException('aborted', 'AbortError')));
      });
    }
    return answer;
  });
  return requests;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

/** The firm's MailChannels account id in the tests: the `customer_handle` of its delivery events. */
export const MAILCHANNELS_ACCOUNT_ID = 'acct-123';

/** The test env with a MailChannels key pointing at the fake, and the firm's account id. */
export function mailChannelsEnv(extra: Partial<Cloudflare.Env> = {}): Cloudflare.Env {
  return {
    ...env,
    MAILCHANNELS_API_KEY: 'test-mc-key',
    MAILCHANNELS_ACCOUNT_ID,
    MAILCHANNELS_API_URL: MAILCHANNELS_URL,
    MAILCHANNELS_TIMEOUT_MS: '200',
    ...extra,
  };
}

/** Calls the real worker with a given env (so a MailChannels key can be configured per test). */
export async function callWith(testEnv: Cloudflare.Env, path: string, options: { method?: string; body?: unknown; cookie?: string; ip?: string } = {}) {
  const method = options.method ?? (options.body !== undefined ? 'POST' : 'GET');
  const headers = new Headers({ 'cf-connecting-ip': options.ip ?? '203.0.113.9' });
  if (method !== 'GET') headers.set('origin', ORIGIN);
  if (options.body !== undefined) headers.set('content-type', 'application/json');
  if (options.cookie) headers.set('cookie', options.cookie);
  const ctx = createExecutionContext();
  const res = await worker.fetch(
    new Request(`${ORIGIN}${path}`, { method, headers, body: options.body !== undefined ? JSON.stringify(options.body) : undefined }),
    testEnv,
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return res;
}
