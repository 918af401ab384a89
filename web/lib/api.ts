import { hc, type ClientResponse } from 'hono/client';
import type { SuccessStatusCode } from 'hono/utils/http-status';
// Type-only: the worker's code never reaches the browser bundle (docs/decisions/0008-typed-api-contract.md).
import type { AppType } from '../../worker/index';

/**
 * The worker's JSON API as a typed client (Hono RPC): `api.contact.$post({ json })` sends what the
 * route's validator accepts and resolves to what the route answers, so a renamed field fails
 * `npm run check`, not a visitor. Every call sends cookies (docs/product.md §11); the client is a
 * small Proxy over fetch, loaded by the public pages only when they send something.
 */
export const api = hc<AppType>('/', { init: { credentials: 'include' } }).api;

/**
 * docs/product.md §11: an answer that is not OK. Its message is the status code, a colon and the
 * body text, e.g. `429: {"message":"..."}` (the status text when the body is empty); `body` is that
 * text parsed as JSON when it is JSON, the text itself otherwise.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    readonly status: number,
    /** The body text, or the status text when the body was empty. */
    readonly text: string,
    readonly body: unknown,
  ) {
    super(`${status}: ${text}`);
  }

  static async from(res: { status: number; statusText: string; text(): Promise<string> }): Promise<ApiError> {
    const raw = await res.text();
    let body: unknown = raw;
    try {
      body = JSON.parse(raw);
    } catch {
      // a plain-text (or empty) body
    }
    return new ApiError(res.status, raw || res.statusText, body);
  }

  /** The server's own words for a person: the `message` of a JSON error body (worker/index.ts onError, the validators). */
  get serverMessage(): string | undefined {
    const message = typeof this.body === 'object' && this.body !== null ? (this.body as { message?: unknown }).message : undefined;
    return typeof message === 'string' && message ? message : undefined;
  }
}

/** The body of a route's OK answers (its 2xx `c.json(body, status)` calls), as the route declares it. */
export type OkBody<R> = R extends ClientResponse<infer T, infer S, 'json'> ? (S extends SuccessStatusCode ? T : never) : never;

/**
 * Awaits a call and returns its OK answer's JSON, typed from the route; any other answer throws
 * an ApiError.
 *
 * @example
 * const { slots } = await okJson(api.appointments.availability.$get({ query: { date } }))
 */
export async function okJson<R extends ClientResponse<unknown, number, 'json'>>(call: Promise<R>): Promise<OkBody<R>> {
  const res = await call;
  if (!res.ok) throw await ApiError.from(res);
  return (await res.json()) as OkBody<R>;
}

/** True for an answer that says the admin session is missing or over. */
export const isUnauthorized = (error: unknown) => error instanceof ApiError && error.status === 401;

/**
 * The text to show a person for a failed call (docs/product.md §10): the server's `message` when
 * it sent one, else the answer's body text; a failure before any answer (offline) shows its own
 * message; `fallback` when there is nothing to say.
 */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError) return error.serverMessage ?? (error.text || fallback);
  return error instanceof Error && error.message ? error.message : fallback;
}
