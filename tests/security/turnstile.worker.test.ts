import { env } from 'cloudflare:test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SITEVERIFY_URL, TURNSTILE_FAILED_MESSAGE, TURNSTILE_UNAVAILABLE_MESSAGE } from '../../worker/middleware/turnstile';
import { postChat, newSessionId } from '../harness/worker/chat-helpers';
import { callWithEnv, bookingRequest, nextWeekday } from '../harness/worker/submission-helpers';

/**
 * The bot check on every public write (docs/product.md §8): with TURNSTILE_SECRET set, each public write
 * needs a token Cloudflare's siteverify accepts, checked before anything is counted or stored.
 * Siteverify is faked at the fetch boundary; the worker's own code runs for real.
 */

const SECRET = '0x4AAAAAAAtest-secret';
const GOOD_TOKEN = 'good-token';
const VISITOR_IP = '198.51.100.23';
const turnstileOn = { TURNSTILE_SECRET: SECRET, SITE_URL: 'https://www.northgatecpa.example' };

interface SiteverifyCall {
  contentType: string | null;
  body: Record<string, unknown>;
}

type Behaviour = 'accept' | 'down' | 'http-500' | 'internal-error' | 'other-host';

/** A fake siteverify: accepts GOOD_TOKEN (for the site's host) and refuses anything else, or fails as told. */
function fakeSiteverify(behaviour: Behaviour = 'accept') {
  const calls: SiteverifyCall[] = [];
  const realFetch = globalThis.fetch;
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    if (request.url !== SITEVERIFY_URL) return realFetch(input, init);
    calls.push({ contentType: request.headers.get('content-type'), body: await request.json() });
    if (behaviour === 'down') throw new TypeError('Network connection lost.');
    if (behaviour === 'http-500') return new Response('oops', { status: 500 });
    if (behaviour === 'internal-error') return Response.json({ success: false, 'error-codes': ['internal-error'] });
    const body = calls.at(-1)!.body;
    const success = body.secret === SECRET && body.response === GOOD_TOKEN;
    const hostname = behaviour === 'other-host' ? 'evil.example' : 'www.northgatecpa.example';
    return Response.json(success ? { success, hostname, 'error-codes': [] } : { success, 'error-codes': ['invalid-input-response'] });
  });
  return calls;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

const countRows = async (table: string) => (await env.DB.prepare(`SELECT count(*) AS n FROM ${table}`).first<{ n: number }>())!.n;
/** Every trace a public write leaves: its rows, the daily caps and the per-network windows (the sign-ups' too). */
async function traces() {
  return {
    contact: await countRows('contact_messages'),
    appointments: await countRows('appointments'),
    subscriptions: await countRows('newsletter_subscriptions'),
    dailyCounters: await countRows('daily_counters'),
    dailySubmitters: await countRows('daily_submitters'),
    windows: await countRows('submission_windows'),
    email: await countRows('email_log'),
    signupWindows: await countRows('signup_windows'),
  };
}

const nothing = { contact: 0, appointments: 0, subscriptions: 0, dailyCounters: 0, dailySubmitters: 0, windows: 0, email: 0, signupWindows: 0 };

interface PublicWrite {
  name: string;
  path: string;
  body: () => Promise<Record<string, unknown>>;
  ok: number;
  /** Which traces a successful write leaves (at least one of them grows). */
  stored: (after: Awaited<ReturnType<typeof traces>>) => boolean;
}

/** A stored conversation (offline assistant): the hand-off needs one. Created without Turnstile, as the chat itself is not a form. */
async function conversation() {
  const sessionId = newSessionId();
  expect((await postChat({ message: 'What are your office hours?', sessionId }, { env: { AI: undefined } })).status).toBe(200);
  return sessionId;
}

const writes: PublicWrite[] = [
  {
    name: 'contact',
    path: '/api/contact',
    body: async () => ({ name: 'Jane Visitor', email: 'jane@example.com', message: 'I need help with my 2025 return.' }),
    ok: 201,
    stored: (t) => t.contact === 1 && t.dailyCounters === 1,
  },
  {
    name: 'booking',
    path: '/api/appointments',
    body: async () => bookingRequest(nextWeekday()),
    ok: 201,
    stored: (t) => t.appointments === 1 && t.dailyCounters >= 1,
  },
  {
    name: 'newsletter sign-up',
    path: '/api/newsletter/subscribe',
    body: async () => ({ email: 'reader@example.com', name: 'Reader' }),
    ok: 200,
    stored: (t) => t.subscriptions === 1 && t.signupWindows === 1,
  },
  {
    name: 'chat hand-off',
    path: '/api/chat/handoff',
    body: async () => ({ sessionId: await conversation(), name: 'Dana Visitor', email: 'dana@example.com' }),
    ok: 201,
    stored: (t) => t.contact === 1 && t.dailyCounters === 1,
  },
];

describe.each(writes)('Turnstile on the $name form ($path)', ({ path, body, ok, stored }) => {
  let request: Record<string, unknown>;
  beforeEach(async () => {
    request = await body();
  });

  const send = (json: Record<string, unknown>, overrides: Partial<typeof env> = turnstileOn) =>
    callWithEnv(overrides, path, { body: json, ip: VISITOR_IP });

  it('refuses a request without a token with 403, before anything is counted or stored, and asks siteverify nothing', async () => {
    const calls = fakeSiteverify();
    const res = await send(request);
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ message: TURNSTILE_FAILED_MESSAGE });
    expect(calls).toHaveLength(0);
    expect(await traces()).toEqual(nothing);
  });

  it('refuses a token siteverify rejects with 403, nothing stored', async () => {
    const calls = fakeSiteverify();
    const res = await send({ ...request, turnstileToken: 'forged' });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ message: TURNSTILE_FAILED_MESSAGE });
    expect(calls).toHaveLength(1);
    expect(await traces()).toEqual(nothing);
  });

  it('refuses a token solved on another site (hostname is not SITE_URL’s)', async () => {
    fakeSiteverify('other-host');
    const res = await send({ ...request, turnstileToken: GOOD_TOKEN });
    expect(res.status).toBe(403);
    expect(await traces()).toEqual(nothing);
  });

  it('accepts a good token: the normal answer, stored and counted; siteverify got the secret, the token and the visitor’s IP', async () => {
    const calls = fakeSiteverify();
    const res = await send({ ...request, turnstileToken: GOOD_TOKEN });
    expect(res.status).toBe(ok);
    expect(stored(await traces())).toBe(true);
    expect(calls).toEqual([{ contentType: 'application/json', body: { secret: SECRET, response: GOOD_TOKEN, remoteip: VISITOR_IP } }]);
  });

  it.each(['down', 'http-500', 'internal-error'] as const)('fails closed with 503 when siteverify is %s: nothing stored', async (behaviour) => {
    fakeSiteverify(behaviour);
    const res = await send({ ...request, turnstileToken: GOOD_TOKEN });
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ message: TURNSTILE_UNAVAILABLE_MESSAGE });
    expect(await traces()).toEqual(nothing);
  });

  it('changes nothing when TURNSTILE_SECRET is unset: no token needed, siteverify never called', async () => {
    const calls = fakeSiteverify();
    const res = await send(request, { TURNSTILE_SECRET: undefined });
    expect(res.status).toBe(ok);
    expect(stored(await traces())).toBe(true);
    expect(calls).toHaveLength(0);
  });
});

describe('Turnstile and the validators', () => {
  it('does not spend the single-use token on a request refused for its fields (400 before siteverify)', async () => {
    const calls = fakeSiteverify();
    const res = await callWithEnv(turnstileOn, '/api/contact', { body: { name: '', email: 'x', message: 'short', turnstileToken: GOOD_TOKEN } });
    expect(res.status).toBe(400);
    expect(calls).toHaveLength(0);
  });

  it('refuses an over-long token as invalid input', async () => {
    fakeSiteverify();
    const res = await callWithEnv(turnstileOn, '/api/contact', {
      body: { name: 'Jane', email: 'jane@example.com', message: 'I need help with my return.', turnstileToken: 'x'.repeat(2049) },
    });
    expect(res.status).toBe(400);
    expect(await countRows('contact_messages')).toBe(0);
  });
});
