import type { InferRequestType, InferResponseType } from 'hono/client';
// Type-only: the typed client (web/lib/api.ts) loads when the visitor first picks a day.
import type { api } from '../../../lib/api';

/** One of a day's slots and whether it can still be booked (GET /api/appointments/availability). */
export type SlotAvailability = InferResponseType<typeof api.appointments.availability.$get, 200>['slots'][number];

/** What POST /api/appointments accepts: the booking schema's input (core/schemas/appointments.ts). */
export type BookingRequest = InferRequestType<typeof api.appointments.$post>['json'];

/**
 * GET the 7 slots of a day and which are still free. Read afresh whenever a day is (re)chosen and
 * after each booking attempt: someone else may book meanwhile. A non-OK answer is an ApiError. The
 * typed client loads with the first call (the page itself needs no request code to paint).
 */
export async function fetchAvailability(date: string) {
  const { api, okJson } = await import('../../../lib/api');
  return okJson(api.appointments.availability.$get({ query: { date } }));
}

/** The firm's closed days in a range and each weekday's slots (GET /api/appointments/closed-days). */
export type ClosedDays = InferResponseType<(typeof api.appointments)['closed-days']['$get'], 200>;

/**
 * GET what the month view greys out: the blocked dates from `from` to `to` (at most 62 days) and
 * the slots each weekday offers. Read when the calendar appears and when the visitor changes month.
 */
export async function fetchClosedDays(from: string, to: string): Promise<ClosedDays> {
  const { api, okJson } = await import('../../../lib/api');
  return okJson(api.appointments['closed-days'].$get({ query: { from, to } }));
}

/** POST /api/appointments: the booking's id, its day, slot and status, and the message for the visitor. */
export async function bookAppointment(request: BookingRequest) {
  const { api, okJson } = await import('../../../lib/api');
  return okJson(api.appointments.$post({ json: request }));
}

/**
 * The server answers these with a message written for the visitor; anything else gets the generic
 * text (docs/product.md §10).
 */
export async function bookingFailureText(error: unknown): Promise<string> {
  const fallback = 'Failed to schedule appointment. Please try again.';
  try {
    const { ApiError, errorMessage } = await import('../../../lib/api');
    const worded = error instanceof ApiError && (error.status === 400 || error.status === 409 || error.status === 429);
    return worded ? errorMessage(error, fallback) : fallback;
  } catch {
    return fallback;
  }
}
