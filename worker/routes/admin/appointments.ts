import { asc, desc, eq, gte, lt, sql } from 'drizzle-orm';
import { Hono } from 'hono';
import { bookingTimeSlots } from '#core/content/booking';
import { firm } from '#core/content/firm';
import { getDb } from '../../db/client';
import { appointments } from '../../db/schema';
import type { AppEnv } from '../../env';
import { validate } from '../../middleware/validate';
import { appointmentStatusSchema, BOOKING_MESSAGES, CONFIRM_MESSAGES, idParamSchema, slotHasPassed } from '#core/schemas/appointments';
import { appointmentLinks } from '../../services/appointments/links';
import { availabilityRefusal } from '../../services/appointments/availability';
import { firmToday } from '#core/firm-time';
import { appointmentStatusEmail, hasTime, sendAfterStoring } from '../../services/email/submission-emails';
import { isSlotTaken } from '../appointments';

type AppointmentRow = typeof appointments.$inferSelect;

/** The admin list's shape (docs/product.md §11). */
export const toAppointment = (row: AppointmentRow) => ({
  id: row.id,
  name: row.name,
  email: row.email,
  phone: row.phone,
  serviceType: row.serviceType,
  date: row.date,
  timeSlot: row.timeSlot,
  notes: row.notes,
  status: row.status,
  createdAt: row.createdAt.toISOString(),
});

// A request without a time (null) comes first in its day: it still needs the admin to pick one.
const slotOrder = (slot: string | null) => (slot === null ? -1 : (bookingTimeSlots as readonly string[]).indexOf(slot));
// Past appointments shown below the upcoming ones.
const PAST_LIMIT = 500;

/** Appointments for the admin: upcoming first (soonest first), then past (most recent first). */
export const adminAppointments = new Hono<AppEnv>()
  .get('/', async (c) => {
    const db = getDb(c.env.DB);
    const today = firmToday(firm.timeZone);
    const [upcoming, past] = await Promise.all([
      db.select().from(appointments).where(gte(appointments.date, today)).orderBy(asc(appointments.date), asc(appointments.id)),
      db.select().from(appointments).where(lt(appointments.date, today)).orderBy(desc(appointments.date), desc(appointments.id)).limit(PAST_LIMIT),
    ]);
    // Slot labels ('9:00 AM', '10:00 AM') do not sort as text; order within a day by the slot list.
    upcoming.sort((a, b) => a.date.localeCompare(b.date) || slotOrder(a.timeSlot) - slotOrder(b.timeSlot) || a.id - b.id);
    past.sort((a, b) => b.date.localeCompare(a.date) || slotOrder(b.timeSlot) - slotOrder(a.timeSlot) || b.id - a.id);
    return c.json([...upcoming, ...past].map(toAppointment), 200);
  })
  .patch('/:id', validate('param', idParamSchema), validate('json', appointmentStatusSchema), async (c) => {
    const { id } = c.req.valid('param');
    const { status, timeSlot: picked } = c.req.valid('json');
    const db = getDb(c.env.DB);
    const current = await db.query.appointments.findFirst({ where: eq(appointments.id, id) });
    if (!current) return c.json({ message: 'Appointment not found' }, 404);
    // A request without a time is confirmed with the free slot the admin picked (docs/product.md
    // §3): only then does it hold a slot, and only then does the visitor get the invite and links.
    const picking = status === 'confirmed' && current.timeSlot === null;
    if (picking && !picked) return c.json({ message: CONFIRM_MESSAGES.slotNeeded, fields: { timeSlot: [CONFIRM_MESSAGES.slotNeeded] } }, 400);
    if (status === 'confirmed' && picked && current.timeSlot !== null && picked !== current.timeSlot) return c.json({ message: CONFIRM_MESSAGES.hasTime }, 409);
    if (current.status === status) return c.json(toAppointment(current), 200);
    if (picking) {
      if (slotHasPassed(current.date, picked!, firm.timeZone)) return c.json({ message: BOOKING_MESSAGES.slotPassed }, 409);
      // The booking rules are for visitors: the admin may confirm inside the notice or on a holiday.
      const refusal = await availabilityRefusal(db, current.date, picked!, { rules: false });
      if (refusal) return c.json({ message: refusal }, 409);
    }

    let updated: AppointmentRow | undefined;
    try {
      // Every change bumps the invite's SEQUENCE (and so voids the visitor's older links). The
      // picked slot is taken in the same statement: the UNIQUE index refuses it if someone has it.
      [updated] = await db
        .update(appointments)
        .set({ status, ...(picking ? { timeSlot: picked } : {}), sequence: sql`${appointments.sequence} + 1`, updatedAt: new Date() })
        .where(eq(appointments.id, id))
        .returning();
    } catch (error) {
      if (isSlotTaken(error)) {
        // The picked slot, or (re-confirming a cancelled request) its own slot, booked by someone else meanwhile.
        const message = picking ? CONFIRM_MESSAGES.slotTaken : 'That time has been booked by someone else since this request was cancelled.';
        return c.json({ message }, 409);
      }
      throw error;
    }
    if (!updated) return c.json({ message: 'Appointment not found' }, 404);
    // Confirmed: a REQUEST with fresh cancel/reschedule links; cancelled: a CANCEL that removes the
    // event (a request that never had a time had no event: a plain notice).
    const links = updated.status === 'cancelled' || !hasTime(updated) ? undefined : await appointmentLinks(c.env, updated);
    await sendAfterStoring(c.env, [appointmentStatusEmail(c.env, updated, links)]);
    return c.json(toAppointment(updated), 200);
  });
