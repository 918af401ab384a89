import { and, eq, ne } from 'drizzle-orm';
import { Hono } from 'hono';
import { bookingTimeSlots } from '../../web/content/booking';
import { firm } from '../../web/content/firm';
import { getDb } from '../db/client';
import { appointments } from '../db/schema';
import { isUniqueViolation } from '../db/unique-violation';
import type { AppEnv } from '../env';
import { turnstile } from '../middleware/turnstile';
import { validate } from '../middleware/validate';
import { appointmentSchema, availabilityQuerySchema, BOOKING_MESSAGES, slotHasPassed } from '../schemas/appointments';
import { availabilityGate, dayOffer } from '../services/availability';
import { appointmentLinks } from '../services/appointment-links';
import { networkHash } from '../services/client-ip';
import { logUnverifiedUnderCap } from '../services/daily-counters';
import { deliverAfterAnswer, emailTransport } from '../services/email/send-email';
import { appointmentConfirmationEmail, appointmentNotificationEmail } from '../services/submission-emails';
import { OPEN_BOOKINGS_MESSAGE, openBookingsRecheck, storeSubmission } from '../services/submission-limits';

/** True when the partial UNIQUE index over active bookings (appointments_active_slot_uq) refused a row. */
export const isSlotTaken = (error: unknown) => isUniqueViolation(error, [appointments.date, appointments.timeSlot]);

const bookingResponseMessage = "Thank you! Your appointment request has been received. We'll contact you shortly to confirm your appointment.";

/** The public booking API (docs/product.md §3). */
export const appointmentsApi = new Hono<AppEnv>()
  // The 7 slots of a day and whether each can still be booked: not on a closed day (a weekend or a
  // date the firm blocked, with its reason), not a slot the weekday does not offer, not a taken or
  // started one (docs/product.md §3).
  .get('/availability', validate('query', availabilityQuerySchema), async (c) => {
    const { date } = c.req.valid('query');
    const db = getDb(c.env.DB);
    const [day, taken] = await Promise.all([
      dayOffer(db, date),
      db
        .select({ timeSlot: appointments.timeSlot })
        .from(appointments)
        .where(and(eq(appointments.date, date), ne(appointments.status, 'cancelled'))),
    ]);
    const takenSlots = new Set(taken.map((row) => row.timeSlot));
    const offered = new Set<string>(day.offered);
    const now = new Date();
    return c.json(
      {
        date,
        closed: day.closed,
        reason: day.reason,
        slots: bookingTimeSlots.map((time) => ({
          time,
          available: offered.has(time) && !takenSlots.has(time) && !slotHasPassed(date, time, firm.timeZone, now),
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
    // write's own transaction, before its claims (availabilityGate, issue 17).
    const gate = availabilityGate(input.date, input.timeSlot);
    if (gate.refusal !== null) return c.json({ message: gate.refusal }, 409);
    const ipHash = await networkHash(c);
    let result;
    try {
      // The partial UNIQUE index appointments_active_slot_uq decides who gets a slot: the database
      // refuses the second active row for (date, timeSlot), however close together they arrive.
      // The open-bookings recheck, in the same transaction, takes the row back when its address or
      // network now holds more unconfirmed requests than allowed (worker/services/submission-limits.ts).
      // When the batch succeeds, a taken slot is answered `taken` (409) without failing it; on the
      // step-by-step path the index's error is answered below.
      result = await storeSubmission(c.env, 'booking', ipHash, {
        table: appointments,
        values: {
          name: input.name,
          email: input.email,
          phone: input.phone || null,
          serviceType: input.serviceType,
          date: input.date,
          timeSlot: input.timeSlot,
          notes: input.notes || null,
          status: 'requested',
          networkHash: ipHash,
        },
        taken: BOOKING_MESSAGES.taken,
        gate,
        recheck: { statement: openBookingsRecheck(c.env, { email: input.email, networkHash: ipHash }), refusal: OPEN_BOOKINGS_MESSAGE },
      });
    } catch (error) {
      if (isSlotTaken(error)) return c.json({ message: BOOKING_MESSAGES.taken }, 409);
      throw error;
    }
    if (!result.ok) return c.json({ message: result.message }, result.status, result.retryAfter === null ? {} : { 'Retry-After': String(result.retryAfter) });
    const stored = result.row;

    // The firm is always told. The visitor's confirmation goes to an address nobody has verified
    // yet, so it counts under the day's cap on such mail (UNVERIFIED_MAIL_DAILY_CAP): past it the
    // booking stands and only that e-mail is skipped (logged). It carries the visitor's cancel and
    // reschedule links (routes/appointment-links.ts), signed over the new id, so both are logged
    // after the row's batch: the claim and the log rows in one more D1 call (logUnverifiedUnderCap),
    // before the answer; they are sent after it (deliverAfterAnswer).
    const confirmation = appointmentConfirmationEmail(c.env, stored, await appointmentLinks(c.env, stored));
    const transport = emailTransport(c.env);
    const logged = await logUnverifiedUnderCap(c.env, transport, confirmation, [appointmentNotificationEmail(stored)]);
    if (logged) deliverAfterAnswer(c.env, c.executionCtx, transport, logged);
    return c.json({ id: stored.id, message: bookingResponseMessage, date: stored.date, timeSlot: stored.timeSlot, status: stored.status }, 201);
  });
