import { Hono, type MiddlewareHandler } from 'hono';
import { bookingTimeSlots } from '#core/content/booking';
import { firm } from '#core/content/firm';
import { getDb } from '../db/client';
import { appointments } from '../db/schema';
import type { AppEnv } from '../env';
import { turnstile } from '../middleware/turnstile';
import { validate } from '../middleware/validate';
import { availabilityQuerySchema, BOOKING_MESSAGES, createAppointmentSchema } from '#core/schemas/appointments';
import { availabilityGate, dayOffer, refusalStatus, slotStillBookable } from '../services/appointments/availability';
import { isSlotTaken, takenSlots } from '../services/appointments/bookings';
import { busyIntervalsBetween } from '../services/appointments/busy-calendars';
import { zonedToUtc } from '../services/appointments/ics';
import { appointmentLinks, newAppointmentPublicId } from '../services/appointments/links';
import { networkHash } from '../middleware/client-network';
import { deliverAfterAnswer } from '../services/email/send-email';
import { appointmentConfirmationEmail, appointmentNotificationEmail, hasTime } from '../services/email/submission-emails';
import { publishedContent } from '../services/content/published';
import { openBookingsMessage, openBookingsRecheck, storeSubmission } from '../services/limits/submission-limits';

// Any one-line service name passes the schema; the route checks it against the published list.
const bookingRequestSchema = createAppointmentSchema(undefined, undefined, undefined, null);

/** A service the firm no longer (or never) published is refused like a missing one: 400 on the field. */
const publishedServiceType: MiddlewareHandler<AppEnv, '/', { out: { json: { serviceType: string } } }> = async (c, next) => {
  const { booking } = await publishedContent(c.env);
  if (!booking.serviceTypes.includes(c.req.valid('json').serviceType)) {
    return c.json({ message: BOOKING_MESSAGES.service, fields: { serviceType: [BOOKING_MESSAGES.service] } }, 400);
  }
  await next();
};

const bookingResponseMessage = "Thank you! Your appointment request has been received. We'll contact you shortly to confirm your appointment.";

/** The public booking API (docs/product.md §3). */
export const appointmentsApi = new Hono<AppEnv>()
  // The 7 slots of a day and whether each can still be booked: not on a closed day (a weekend or a
  // date the firm blocked, with its reason), not a slot the weekday does not offer, not a taken or
  // started one, not one a busy calendar of the firm covers, not outside the booking rules (horizon, minimum
  // notice, federal holidays: docs/product.md §3, §6.4). A request without a time takes
  // no slot. The admin's confirm dialog offers the same free slots.
  .get('/availability', validate('query', availabilityQuerySchema), async (c) => {
    const { date } = c.req.valid('query');
    const db = getDb(c.env.DB);
    const [day, taken, busy] = await Promise.all([
      dayOffer(db, date),
      takenSlots(db, date),
      busyIntervalsBetween(db, zonedToUtc(date, 0, firm.timeZone).getTime(), zonedToUtc(date, 24 * 60, firm.timeZone).getTime()),
    ]);
    const offered = new Set<string>(day.offered);
    const now = new Date();
    return c.json(
      {
        date,
        closed: day.closed,
        reason: day.reason,
        slots: bookingTimeSlots.map((time) => ({ time, available: offered.has(time) && slotStillBookable(day.rules, date, time, taken, busy, now) })),
      },
      200,
    );
  })
  // The schema reads the clock on each parse, so one validator judges every request by its own "now".
  // The service must be one the firm publishes (docs/decisions/0013-content-as-a-versioned-document.md).
  // Turnstile (when configured) after both, so a refused field does not spend the single-use token.
  .post('/', validate('json', bookingRequestSchema), publishedServiceType, turnstile(), async (c) => {
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
    // Both e-mails are built before the row exists, and stored as they are: the visitor's cancel and
    // reschedule links (routes/appointment-links.ts) and the invite's UID name it by its public id,
    // chosen here (which stands for its id too, appointmentRef); the firm's notification by what the
    // admin's appointment list shows (service, day, time, name), not by an id the list does not show.
    // A request without a time gets neither invite nor links: they come when the admin confirms a time.
    const booking = { ...values, id: values.publicId, sequence: 0 };
    const { firm: firmFacts } = await publishedContent(c.env);
    // The links name the booking by its public id alone (appointmentRef).
    const links = hasTime(booking) ? await appointmentLinks(c.env, booking) : undefined;
    let result;
    try {
      // The partial UNIQUE index appointments_active_slot_uq decides who gets a slot: the database
      // refuses the second active row for (date, timeSlot), however close together they arrive.
      // A null timeSlot never collides (SQLite's UNIQUE treats NULLs as distinct): no slot held.
      // The open-bookings recheck, in the same transaction, takes the row back when its address or
      // network now holds more unconfirmed requests than allowed (worker/services/limits/submission-limits.ts).
      // A taken slot is answered `taken` (409) without failing the batch.
      // The e-mails are queued in the same transaction, after the recheck, only while the row
      // stands: the firm's notification always, the visitor's confirmation under the day's cap on
      // booking confirmations to addresses nobody has verified (BOOKING_CONFIRMATION_DAILY_CAP, its
      // own, so newsletter sign-ups cannot use it up; past it the booking stands and
      // only that e-mail is skipped, reported). One D1 call before the answer.
      result = await storeSubmission(c.env, 'booking', ipHash, {
        table: appointments,
        values,
        key: { column: appointments.publicId, value: values.publicId },
        taken: BOOKING_MESSAGES.taken,
        gate,
        recheck: { statement: openBookingsRecheck(c.env, { email: input.email, networkHash: ipHash }), refusal: openBookingsMessage(firmFacts.contact.phone) },
        emails: {
          always: [appointmentNotificationEmail(firmFacts, booking)],
          unverified: appointmentConfirmationEmail(c.env, firmFacts, booking, links),
        },
        phone: firmFacts.contact.phone,
      });
    } catch (error) {
      if (isSlotTaken(error)) return c.json({ message: BOOKING_MESSAGES.taken }, 409);
      throw error;
    }
    // A refusal of the booking rules (horizon, notice, holiday) is the request's fault: 400.
    if (!result.ok) return c.json({ message: result.message }, result.status === 409 ? refusalStatus(result.message) : result.status, result.retryAfter === null ? {} : { 'Retry-After': String(result.retryAfter) });
    // Queued before the answer, sent after it.
    if (result.mail) deliverAfterAnswer(c.env, c.executionCtx, result.mail.transport, result.mail.logged);
    // The stored booking as the answer names it, with the status column's type.
    const stored: Pick<typeof appointments.$inferSelect, 'date' | 'timeSlot' | 'status'> = values;
    return c.json({ id: result.id, message: bookingResponseMessage, date: stored.date, timeSlot: stored.timeSlot, status: stored.status }, 201);
  });
