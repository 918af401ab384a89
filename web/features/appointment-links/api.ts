import type { InferResponseType } from 'hono/client';
import type { BookingTimeSlot } from '#core/content/booking';
import { api, ApiError, errorMessage, okJson } from '../../lib/api';

// The visitor's self-service links (worker/routes/appointment-links.ts): the pages read the
// appointment with the token from the e-mailed link, and act only when the visitor presses a button.

/** What GET /api/appointments/manage answers for a valid link. */
export type ManagedLink = InferResponseType<typeof api.appointments.manage.$get, 200>;
export type ManagedAppointment = ManagedLink['appointment'];

export const fetchManagedAppointment = (token: string) => okJson(api.appointments.manage.$get({ query: { token } }));

export const cancelAppointment = (token: string) => okJson(api.appointments.manage.cancel.$post({ json: { token } }));

export const rescheduleAppointment = (token: string, date: string, timeSlot: BookingTimeSlot) =>
  okJson(api.appointments.manage.reschedule.$post({ json: { token, date, timeSlot } }));

/** The server's words for a refused link or request (400, 409, 410); a generic line otherwise. */
export function linkFailureText(error: unknown, fallback: string): string {
  const worded = error instanceof ApiError && [400, 409, 410].includes(error.status);
  return worded ? errorMessage(error, fallback) : fallback;
}
