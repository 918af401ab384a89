import { and, eq, ne } from 'drizzle-orm';
import { Hono, type Context, type Next } from 'hono';
import { bookingTimeSlots } from '../../web/content/booking';
import { firm } from '../../web/content/firm';
import { getDb } from '../db/client';
import { appointments } from '../db/schema';
import type { AppEnv } from '../env';
import { validate } from '../middleware/validate';
import { appointmentSchema, availabilityQuerySchema, BOOKING_MESSAGES, createAppointmentSchema, slotHasPassed } from '../schemas/appointments';
import { clientIp, hashIp } from '../services/client-ip';
import { appointmentConfirmationEmail, appointmentNotificationEmail, sendAfterStoring } from '../services/submission-emails';
import { IP_WINDOW_SECONDS, storeSubmission } from '../services/submission-limits';

/** True for D1's error when the partial UNIQUE index over active bookings refuses a row. */
export function isSlotTaken(error: unknown): boolean {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    const message = e instanceof Error ? e.message : String(e);
    if (/UNIQUE constraint failed: appointments\.date, appointments\.time_slot/i.test(message)) return true;
  }
  return false;
}

/** The booking schema for this request's "now" in the firm's zone (firm.timeZone). */
const typedBookingValidator = validate('json', appointmentSchema);
const validateBooking = ((c: Context<AppEnv>, next: Next) =>
  validate('json', createAppointmentSchema(firm.timeZone))(c as never, next)) as unknown as typeof typedBookingValidator;

const bookingResponseMessage = "Thank you! Your appointment request has been received. We'll contact you shortly to confirm your appointment.";

/** The public booking API (docs/product.md §3). */
export const appointmentsApi = new Hono<AppEnv>()
  // The 7 slots of a day and whether each can still be booked.
  .get('/availability', validate('query', availabilityQuerySchema), async (c) => {
    const { date } = c.req.valid('query');
    const db = getDb(c.env.DB);
    const taken = await db
      .select({ timeSlot: appointments.timeSlot })
      .from(appointments)
      .where(and(eq(appointments.date, date), ne(appointments.status, 'cancelled')));
    const takenSlots = new Set(taken.map((row) => row.timeSlot));
    const now = new Date();
    return c.json(
      {
        date,
        slots: bookingTimeSlots.map((time) => ({ time, available: !takenSlots.has(time) && !slotHasPassed(date, time, firm.timeZone, now) })),
      },
      200,
    );
  })
  .post('/', validateBooking, async (c) => {
    const input = c.req.valid('json');
    const ipHash = await hashIp(clientIp(c), c.env.JWT_SECRET);
    let result;
    try {
      // The partial UNIQUE index appointments_active_slot_uq decides who gets a slot: the database
      // refuses the second active row for (date, timeSlot), however close together they arrive.
      result = await storeSubmission<typeof appointments.$inferSelect>(c.env, ipHash, (db) =>
        db
          .insert(appointments)
          .values({
            name: input.name,
            email: input.email,
            phone: input.phone || null,
            serviceType: input.serviceType,
            date: input.date,
            timeSlot: input.timeSlot,
            notes: input.notes || null,
            status: 'requested',
          })
          .returning(),
      );
    } catch (error) {
      if (isSlotTaken(error)) return c.json({ message: BOOKING_MESSAGES.taken }, 409);
      throw error;
    }
    if (!result.ok) return c.json({ message: result.message }, 429, { 'Retry-After': String(IP_WINDOW_SECONDS) });
    const stored = result.row;

    await sendAfterStoring(c.env, [appointmentConfirmationEmail(c.env, stored), appointmentNotificationEmail(stored)]);
    return c.json({ id: stored.id, message: bookingResponseMessage, date: stored.date, timeSlot: stored.timeSlot, status: stored.status }, 201);
  });
