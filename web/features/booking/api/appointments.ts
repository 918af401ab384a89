import type { AppointmentInput } from '../../../../worker/schemas/appointments';

export interface SlotAvailability {
  time: string;
  available: boolean;
}

export interface BookedAppointment {
  id: number;
  message: string;
  date: string;
  timeSlot: string;
  status: 'requested' | 'confirmed' | 'cancelled';
}

/**
 * GET the 7 slots of a day and which are still free. Read afresh whenever a day is (re)chosen and
 * after each booking attempt: someone else may book meanwhile. A plain fetch (docs/product.md §11:
 * cookies sent, a non-OK answer is an error), so the page needs no React Query.
 */
export async function fetchAvailability(date: string): Promise<{ date: string; slots: SlotAvailability[] }> {
  const res = await fetch(`/api/appointments/availability?date=${date}`, { credentials: 'include' });
  if (!res.ok) throw new Error(`${res.status}: ${(await res.text()) || res.statusText}`);
  return (await res.json()) as { date: string; slots: SlotAvailability[] };
}

/**
 * POST /api/appointments. The request helpers load with the first booking (their module also
 * holds the React Query client, which this page does not need).
 */
export async function bookAppointment(request: AppointmentInput): Promise<BookedAppointment> {
  const { apiRequest } = await import('../../../lib/query-client');
  return (await (await apiRequest('POST', '/api/appointments', request)).json()) as BookedAppointment;
}

/**
 * The server answers these with a message written for the visitor; anything else gets the generic
 * text (docs/product.md §10).
 */
export async function bookingFailureText(error: unknown): Promise<string> {
  const status = error instanceof Error ? Number(/^(\d{3}):/.exec(error.message)?.[1]) : NaN;
  const fallback = 'Failed to schedule appointment. Please try again.';
  if (status !== 400 && status !== 409 && status !== 429) return fallback;
  try {
    const { errorMessage } = await import('../../../lib/query-client');
    return errorMessage(error, fallback);
  } catch {
    return fallback;
  }
}
