import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import worker from '../../../worker/index';
import { addDays, firmDay, weekdayFrom, weekdayOf } from '../calendar-days';
import { client, ORIGIN } from './helpers';

/**
 * Calls the real worker with some bindings changed (a lower daily cap, a different per-IP
 * allowance), the way a deployment with other [vars] would run.
 */
export async function callWithEnv(
  overrides: Partial<typeof env>,
  path: string,
  options: { body?: unknown; ip?: string; method?: string; headers?: Record<string, string> } = {},
): Promise<Response> {
  const method = options.method ?? (options.body !== undefined ? 'POST' : 'GET');
  const headers = new Headers({ ...options.headers, 'cf-connecting-ip': options.ip ?? '203.0.113.7' });
  if (options.body !== undefined) {
    headers.set('content-type', 'application/json');
    headers.set('origin', ORIGIN);
  }
  const ctx = createExecutionContext();
  const res = await worker.fetch(
    new Request(`${ORIGIN}${path}`, { method, headers, body: options.body !== undefined ? JSON.stringify(options.body) : undefined }),
    { ...env, ...overrides },
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return res;
}

/** What POST /api/appointments accepts, as its validator declares it (the typed client's input). */
export type BookingInput = Parameters<ReturnType<typeof client>['api']['appointments']['$post']>[0]['json'];

/** A visitor's valid booking request for `date` (Sam Client, 10:00 AM), typed for the typed client, with valid fields changed. */
export const validBooking = (date: string, overrides: Partial<BookingInput> = {}): BookingInput => ({
  name: 'Sam Client',
  email: 'sam@example.com',
  phone: '412-555-0199',
  serviceType: 'Individual Tax Return',
  date,
  timeSlot: '10:00 AM',
  notes: null,
  ...overrides,
});

/** validBooking with any field changed, also to something the validator refuses (for call()). */
export const bookingRequest = (date: string, overrides: Record<string, unknown> = {}) => ({ ...validBooking(date), ...overrides });

/** Distinct documentation-range addresses (RFC 5737), one per simulated visitor. */
export const visitorIp = (n: number) => `198.51.${Math.floor(n / 250)}.${(n % 250) + 1}`;

/** A weekday at least `daysAhead` days after today in the firm's time zone, as YYYY-MM-DD (calendar days: tests/harness/calendar-days.ts). */
export function nextWeekday(daysAhead = 7): string {
  return weekdayFrom(firmDay(daysAhead));
}

/** The first Saturday at least `daysAhead` days after today in the firm's time zone, as YYYY-MM-DD. */
export function nextSaturday(daysAhead = 1): string {
  const first = firmDay(daysAhead);
  return addDays(first, 6 - weekdayOf(first));
}
