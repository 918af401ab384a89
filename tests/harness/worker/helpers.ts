import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from 'cloudflare:test';
import { hc, type ClientResponse } from 'hono/client';
import type { SuccessStatusCode } from 'hono/utils/http-status';
import { expect } from 'vitest';
import worker, { type AppType } from '../../../worker/index';

// Local development's plain-HTTP host: any other host over http:// is redirected or refused
// (worker/middleware/https-only.ts). Tests of HTTPS behaviour name their https:// URL.
export const ORIGIN = 'http://localhost';

type CallOptions = {
  method?: string;
  body?: unknown;
  rawBody?: BodyInit;
  cookie?: string;
  headers?: Record<string, string>;
  ip?: string;
  /** Bindings changed for this request (e.g. MAILBOX_ENV: its e-mails go to the local mailbox). */
  env?: Record<string, string>;
};

/**
 * Calls the real worker (its default export's fetch) as a same-origin browser would, and returns
 * once the invocation's waitUntil work (the forms' e-mails, sent after the answer) has settled, as
 * it would on the platform before the next request of a test looks at the e-mail log. Tests that
 * need the answer before that work ends use their own ExecutionContext (mail-after-answer.test.ts).
 */
export async function call(path: string, options: CallOptions = {}): Promise<Response> {
  const method = options.method ?? (options.body !== undefined || options.rawBody !== undefined ? 'POST' : 'GET');
  const headers = new Headers(options.headers);
  if (method !== 'GET' && method !== 'HEAD' && !headers.has('origin')) headers.set('origin', ORIGIN);
  if (options.body !== undefined && !headers.has('content-type')) headers.set('content-type', 'application/json');
  if (options.cookie) headers.set('cookie', options.cookie);
  headers.set('cf-connecting-ip', options.ip ?? '203.0.113.7');
  const body = options.rawBody ?? (options.body !== undefined ? JSON.stringify(options.body) : undefined);
  const ctx = createExecutionContext();
  const res = await worker.fetch(new Request(`${ORIGIN}${path}`, { method, headers, body }), { ...env, ...options.env }, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

/**
 * One tick of the cron trigger at `scheduledTime`: the worker's scheduled handler (worker/cron.ts,
 * one handler whatever the cron expression), awaited with its waitUntil work as the platform does.
 */
export async function cronTick(scheduledTime = Date.now(), testEnv: Cloudflare.Env = env): Promise<void> {
  const ctx = createExecutionContext();
  await worker.scheduled(createScheduledController({ scheduledTime, cron: '* * * * *' }), testEnv, ctx);
  await waitOnExecutionContext(ctx);
}

/** The `name=value` pair of the session cookie a response sets, for use in a Cookie header. */
export function sessionCookieFrom(res: { headers: Headers }): string {
  const setCookie = res.headers.getSetCookie().find((c) => c.includes('admin_session='));
  if (!setCookie) throw new Error('no session cookie set');
  return setCookie.split(';')[0];
}

export const ADMIN = { username: env.ADMIN_USERNAME!, password: env.ADMIN_PASSWORD! };

/** Signs in as the seeded administrator and returns the Cookie header value. */
export async function signIn(credentials = ADMIN, ip?: string): Promise<string> {
  const res = await client({ ip }).api.admin.login.$post({ json: credentials });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  return sessionCookieFrom(res);
}

type ClientOptions = Pick<CallOptions, 'cookie' | 'headers' | 'ip'> & {
  /** Bindings to change for these requests (e.g. another AI binding); the rest are the test env's. */
  env?: Partial<Cloudflare.Env>;
};

/**
 * The worker's API as a typed client of its AppType (Hono RPC, like the SPA's web/lib/api.ts):
 * `await client({ cookie }).api.contact.$post({ json })` sends what the route's validator accepts,
 * so a renamed field fails `npm run typecheck`, not just a test run. Each request goes through the
 * same path as `call`: the real worker's fetch, as a same-origin browser from `ip`, returning once
 * its waitUntil work has settled. Tests that send malformed input on purpose (raw bodies, wrong
 * content types) keep using `call`.
 */
export function client(options: ClientOptions = {}) {
  return hc<AppType>(ORIGIN, {
    fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      const headers = new Headers(request.headers);
      for (const [name, value] of Object.entries(options.headers ?? {})) headers.set(name, value);
      if (request.method !== 'GET' && request.method !== 'HEAD' && !headers.has('origin')) headers.set('origin', ORIGIN);
      if (options.cookie) headers.set('cookie', options.cookie);
      headers.set('cf-connecting-ip', options.ip ?? '203.0.113.7');
      const ctx = createExecutionContext();
      const res = await worker.fetch(new Request(request, { headers }), { ...env, ...options.env }, ctx);
      await waitOnExecutionContext(ctx);
      return res;
    },
  });
}

/** The body of a route's OK answers, as the route declares it (as in web/lib/api.ts). */
type OkBody<R> = R extends ClientResponse<infer T, infer S, 'json'> ? (S extends SuccessStatusCode ? T : never) : never;

/** A typed client answer's JSON, typed as the route's OK body; any other answer throws with its status and text. */
export async function okJson<R extends ClientResponse<unknown, number, 'json'>>(res: R): Promise<OkBody<R>> {
  if (!res.ok) throw new Error(`expected an OK answer, got ${res.status}: ${await res.text()}`);
  return (await res.json()) as OkBody<R>;
}

/**
 * The field messages of a 400 answer. The validators add them, and the routes
 * types do not declare them, so a typed client's answer is read here as the plain JSON it is.
 */
export async function fieldMessages(res: { json(): Promise<unknown> }): Promise<Record<string, string[]>> {
  return ((await res.json()) as { fields: Record<string, string[]> }).fields;
}

/**
 * A query a searched admin list refuses, the field it names and that field's messages: one message,
 * or every message the field gets, in order, where the schema answers more than once.
 */
export type RefusedQuery = [query: Record<string, string> | string, field: string, messages: string | string[]];

const INVALID_DATE = 'Please enter a valid date (YYYY-MM-DD)';

/**
 * What every searched admin list refuses: their page, search and date range come from one query
 * schema (core/schemas/admin-list.ts), so each list is checked against all of these.
 */
const LIST_QUERY_REFUSALS: RefusedQuery[] = [
  ['page=0', 'page', 'Page must be at least 1'],
  ['page=-1', 'page', 'Page must be at least 1'],
  ['page=two', 'page', 'Page must be a whole number'],
  ['page=x', 'page', 'Page must be a whole number'],
  ['page=1.5', 'page', 'Page must be a whole number'],
  ['page=100001', 'page', 'Page must be at most 100000'],
  ['from=yesterday', 'from', INVALID_DATE],
  ['from=2026-02-30', 'from', INVALID_DATE],
  ['from=2026-13-01', 'from', INVALID_DATE],
  ['to=yesterday', 'to', INVALID_DATE],
  // Longer than a date and no date: both of the day's checks answer, with the same words.
  [{ to: "2025-01-01' OR 1=1" }, 'to', [INVALID_DATE, INVALID_DATE]],
  ['from=2026-03-11&to=2026-03-10', 'to', 'The start date must be on or before the end date'],
  [{ q: 'x'.repeat(201) }, 'q', 'Search must be at most 200 characters'],
  [{ q: '%'.repeat(201) }, 'q', 'Search must be at most 200 characters'],
];

/**
 * Sends a searched admin list (`path`, e.g. '/api/admin/subscribers/search') every query all the
 * lists refuse, then the list's own (`ownCases`: its statuses and any filter of its own), and
 * expects a 400 each time whose messages for the field are exactly the ones named. Raw calls: the
 * typed client would not send what its types refuse.
 */
export async function expectRefusedQueries(path: string, cookie: string, ownCases: RefusedQuery[]): Promise<void> {
  for (const [query, field, messages] of [...LIST_QUERY_REFUSALS, ...ownCases]) {
    const search = new URLSearchParams(query).toString();
    const res = await call(`${path}?${search}`, { cookie });
    expect(res.status, search).toBe(400);
    expect((await fieldMessages(res))[field], search).toEqual(typeof messages === 'string' ? [messages] : messages);
  }
}
