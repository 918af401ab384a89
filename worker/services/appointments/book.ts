import { BOOKING_MESSAGES, type AppointmentRequest } from '#core/schemas/appointments';
import { appointments } from '../../db/schema';
import type { Bindings } from '../../env';
import { publishedContent } from '../content';
import { type AfterAnswer, enqueue } from '../email/enqueue';
import { storeSubmission } from '../limits/submission-limits';
import { availabilityGate, refusalStatus } from './availability';
import { isSlotTaken } from './bookings';
import { appointmentConfirmationEmail, appointmentNotificationEmail } from './emails';
import { hasTime } from './invite';
import { appointmentLinks, newAppointmentPublicId } from './links';
import { openBookingsMessage, openBookingsRecheck } from './open-bookings';

/** The stored booking as the answer names it, with the status column's type. */
type StoredBooking = Pick<typeof appointments.$inferSelect, 'date' | 'timeSlot' | 'status'>;

export type BookResult =
  | { ok: true; id: number; booking: StoredBooking }
  /** 400 for a refusal of the booking rules (horizon, notice, holiday: the request's fault), 409 for the day or slot, 429 for a limit. */
  | { ok: false; status: 400 | 409 | 429; message: string; retryAfter: number | null };

/**
 * A visitor's booking (POST /api/appointments, docs/product.md §3), its fields validated by the
 * route (the service one the firm publishes). A closed day or a slot the weekday does not offer is
 * refused before the abuse limits are claimed: nothing is stored, and neither the daily cap nor the
 * visitor's allowance is used. A weekend is told here; a blocked date or a slot the weekday does
 * not offer is judged in the write's own transaction, before its claims (availabilityGate).
 * `networkHash` is the visitor's network (worker/services/limits/client-ip.ts); the e-mails are
 * queued before the answer and sent after it (`afterAnswer`).
 */
export async function book(env: Bindings, input: AppointmentRequest, networkHash: string, afterAnswer: AfterAnswer): Promise<BookResult> {
  const gate = availabilityGate(input.date, input.timeSlot);
  if (gate.refusal !== null) return { ok: false, status: 409, message: gate.refusal, retryAfter: null };
  const values = {
    name: input.name,
    email: input.email,
    phone: input.phone || null,
    serviceType: input.serviceType,
    date: input.date,
    timeSlot: input.timeSlot,
    notes: input.notes || null,
    status: 'requested' as const,
    networkHash,
    publicId: newAppointmentPublicId(),
  };
  // Both e-mails are built before the row exists, and stored as they are: the visitor's cancel and
  // reschedule links (routes/appointment-links.ts) and the invite's UID name it by its public id,
  // chosen here (which stands for its id too, appointmentRef); the firm's notification by what the
  // admin's appointment list shows (service, day, time, name), not by an id the list does not show.
  // A request without a time gets neither invite nor links: they come when the admin confirms a time.
  const booking = { ...values, id: values.publicId, sequence: 0 };
  const { firm } = await publishedContent(env);
  // The links name the booking by its public id alone (appointmentRef).
  const links = hasTime(booking) ? await appointmentLinks(env, booking) : undefined;
  let result;
  try {
    // The partial UNIQUE index appointments_active_slot_uq decides who gets a slot: the database
    // refuses the second active row for (date, timeSlot), however close together they arrive.
    // A null timeSlot never collides (SQLite's UNIQUE treats NULLs as distinct): no slot held.
    // The open-bookings recheck, in the same transaction, takes the row back when its address or
    // network now holds more unconfirmed requests than allowed (./open-bookings.ts).
    // A taken slot is answered `taken` (409) without failing the batch.
    // The e-mails are queued in the same transaction, after the recheck, only while the row
    // stands: the firm's notification always, the visitor's confirmation under the day's cap on
    // booking confirmations to addresses nobody has verified (BOOKING_CONFIRMATION_DAILY_CAP, its
    // own, so newsletter sign-ups cannot use it up; past it the booking stands and
    // only that e-mail is skipped, reported). One D1 call before the answer.
    result = await storeSubmission(env, 'booking', networkHash, {
      table: appointments,
      values,
      key: { column: appointments.publicId, value: values.publicId },
      taken: BOOKING_MESSAGES.taken,
      gate,
      recheck: { statement: openBookingsRecheck(env, { email: input.email, networkHash }), refusal: openBookingsMessage(firm.contact.phone) },
      emails: {
        always: [appointmentNotificationEmail(firm, booking)],
        unverified: appointmentConfirmationEmail(env, firm, booking, links),
      },
      phone: firm.contact.phone,
    });
  } catch (error) {
    if (isSlotTaken(error)) return { ok: false, status: 409, message: BOOKING_MESSAGES.taken, retryAfter: null };
    throw error;
  }
  // A refusal of the booking rules (horizon, notice, holiday) is the request's fault: 400.
  if (!result.ok) return { ...result, status: result.status === 409 ? refusalStatus(result.message) : result.status };
  // Queued before the answer, sent after it.
  if (result.mail) await enqueue({ env, after: afterAnswer }, result.mail);
  const stored: StoredBooking = values;
  return { ok: true, id: result.id, booking: { date: stored.date, timeSlot: stored.timeSlot, status: stored.status } };
}
