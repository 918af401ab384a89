import { and, eq, ne, sql } from 'drizzle-orm';
import { Hono } from 'hono';
import { bookingTimeSlots } from '#core/content/booking';
import { firm } from '#core/content/firm';
import { slot } from '../db/built-once';
import { getDb } from '../db/client';
import { appointments } from '../db/schema';
import { isUniqueViolation } from '../db/unique-violation';
import type { AppEnv } from '../env';
import { turnstile } from '../middleware/turnstile';
import { validate } from '../middleware/validate';
import { appointmentSchema, availabilityQuerySchema, BOOKING_MESSAGES, slotHasPassed } from '#core/schemas/appointments';
import { availabilityGate, bookingRuleRefusal, dayOffer, refusalStatus } from '../services/appointments/availability';
import { busyIntervalsBetween, overlapsAny, slotWindow } from '../services/appointments/busy-calendars';
import { zonedToUtc } from '../services/appointments/ics';
import { appointmentLinks, newAppointmentPublicId } from '../services/appointments/links';
import { networkHash } from '../services/limits/client-ip';
import { unverifiedMailAfterRow } from '../services/limits/daily-counters';
import { deliverAfterAnswer, rowIdMarker, type RowInBatch } from '../services/email/send-email';
import { appointmentConfirmationEmail, appointmentNotificationEmail, hasTime } from '../services/email/submission-emails';
import { OPEN_BOOKINGS_MESSAGE, openBookingsRecheck, storeSubmission } from '../services/limits/submission-limits';

/** True when the partial UNIQUE index over active bookings (appointments_active_slot_uq) refused a row. */
export const isSlotTaken = (error: unknown) => isUniqueViolation(error, [appointments.date, appointments.timeSlot]);

/**
 * The booking a batch is writing, found by the public id chosen before its insert: it stands while
 * the row exists, whatever ran since (the slot's unique index may have refused it, the open-bookings
 * recheck may have taken it back). `marker` stands for its numeric id in the firm's notification.
 */
const bookingInBatch = (publicId: string, marker: string): RowInBatch => ({
  marker,
  kind: 'appointment-by-public-id',
  id: sql`(SELECT ${appointments.id} FROM ${appointments} WHERE ${appointments.publicId} = ${slot('bookingPublicId')})`,
  stands: sql`EXISTS (SELECT 1 FROM ${appointments} WHERE ${appointments.publicId} = ${slot('bookingPublicId')})`,
  values: { bookingPublicId: publicId },
});

const bookingResponseMessage = "Thank you! Your appointment request has been received. We'll contact you shortly to confirm your appointment.";

/** The public booking API (docs/product.md §3). */
export const appointmentsApi = new Hono<AppEnv>()
  // The 7 slots of a day and whether each can still be booked: not on a closed day (a weekend or a
  // date the firm blocked, with its reason), not a slot the weekday does not offer, not a taken or
  // started one, not one the firm's busy calendars cover, not outside the booking rules (horizon,
  // minimum notice, federal holidays: docs/product.md §3, §6.4). A request without a time takes no slot. The admin's confirm dialog offers
  // the same free slots.
  .get('/availability', validate('query', availabilityQuerySchema), async (c) => {
    const { date } = c.req.valid('query');
    const db = getDb(c.env.DB);
    const [day, taken, busy] = await Promise.all([
      dayOffer(db, date),
      db
        .select({ timeSlot: appointments.timeSlot })
        .from(appointments)
        .where(and(eq(appointments.date, date), ne(appointments.status, 'cancelled'))),
      busyIntervalsBetween(db, zonedToUtc(date, 0, firm.timeZone).getTime(), zonedToUtc(date, 24 * 60, firm.timeZone).getTime()),
    ]);
    const takenSlots = new Set(taken.map((row) => row.timeSlot).filter((slot) => slot !== null));
    const offered = new Set<string>(day.offered);
    const now = new Date();
    return c.json(
      {
        date,
        closed: day.closed,
        reason: day.reason,
        slots: bookingTimeSlots.map((time) => ({
          time,
          available:
            bookingRuleRefusal(day.rules, date, time, now) === null &&
            offered.has(time) && !takenSlots.has(time) && !slotHasPassed(date, time, firm.timeZone, now) && !overlapsAny(slotWindow(date, time), busy),
        })),
      },
      200,
    );
  })
  // appointmentSchema reads the clock on each parse, so one validator judges every request by its own "now".
  // Turnstile (when configured) after the validator, so a refused field does not spend the single-use token.
  .post('/', validate('json', appointmentSchema), turnstile(), async (c) => {
    const input = c.req.valid('json');
    // A closed day or a slot the weekday does not offer is refused before the abuse limits are
    // claimed: nothing is stored, and neither the daily cap nor the visitor's allowance is used. A
    // weekend is told here; a blocked date or a slot the weekday does not offer is judged in the
    // write's own transaction, before its claims (availabilityGate).
    const gate = availabilityGate(input.date, input.timeSlot);
    if (gate.refusal !== null) return c.json({ message: gate.refusal }, 409);
    const ipHash = await networkHash(c);
    const values = {
      name: input.name,
      email: input.email,
      phone: input.phone || null,
      serviceType: input.serviceType,
      date: input.date,
      timeSlot: input.timeSlot,
      notes: input.notes || null,
      status: 'requested' as const,
      networkHash: ipHash,
      publicId: newAppointmentPublicId(),
    };
    // Both e-mails are built before the row exists: the visitor's cancel and reschedule links
    // (routes/appointment-links.ts) and the invite's UID name it by its public id, and the firm's
    // notification names its numeric id by a stand-in that the batch replaces in SQL. A request
    // without a time gets neither invite nor links: they come when the admin confirms a time.
    const marker = rowIdMarker();
    const booking = { ...values, id: marker, sequence: 0 };
    const links = hasTime(booking) ? await appointmentLinks(c.env, booking) : undefined;
    const confirmation = appointmentConfirmationEmail(c.env, booking, links);
    const notification = appointmentNotificationEmail(booking);
    let result;
    try {
      // The partial UNIQUE index appointments_active_slot_uq decides who gets a slot: the database
      // refuses the second active row for (date, timeSlot), however close together they arrive.
      // A null timeSlot never collides (SQLite's UNIQUE treats NULLs as distinct): no slot held.
      // The open-bookings recheck, in the same transaction, takes the row back when its address or
      // network now holds more unconfirmed requests than allowed (worker/services/limits/submission-limits.ts).
      // When the batch succeeds, a taken slot is answered `taken` (409) without failing it; on the
      // step-by-step path the index's error is answered below.
      // The e-mails are logged in the same transaction, after the recheck, only while the row
      // stands: the firm's notification always, the visitor's confirmation under the day's cap on
      // booking confirmations to addresses nobody has verified (BOOKING_CONFIRMATION_DAILY_CAP, its
      // own, so newsletter sign-ups cannot use it up; past it the booking stands and
      // only that e-mail is skipped, reported). One D1 call before the answer.
      result = await storeSubmission(c.env, 'booking', ipHash, {
        table: appointments,
        values,
        taken: BOOKING_MESSAGES.taken,
        gate,
        recheck: { statement: openBookingsRecheck(c.env, { email: input.email, networkHash: ipHash }), refusal: OPEN_BOOKINGS_MESSAGE },
        mailAfterRow: (db, transport) => unverifiedMailAfterRow(c.env, db, transport, confirmation, [notification], bookingInBatch(values.publicId, marker)),
      });
    } catch (error) {
      if (isSlotTaken(error)) return c.json({ message: BOOKING_MESSAGES.taken }, 409);
      throw error;
    }
    // A refusal of the booking rules (horizon, notice, holiday) is the request's fault: 400.
    if (!result.ok) return c.json({ message: result.message }, result.status === 409 ? refusalStatus(result.message) : result.status, result.retryAfter === null ? {} : { 'Retry-After': String(result.retryAfter) });
    const stored = result.row;
    // Logged before the answer, sent after it.
    if (result.mail) deliverAfterAnswer(c.env, c.executionCtx, result.mail.transport, result.mail.logged);
    return c.json({ id: stored.id, message: bookingResponseMessage, date: stored.date, timeSlot: stored.timeSlot, status: stored.status }, 201);
  });
