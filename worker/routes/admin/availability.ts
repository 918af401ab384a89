import { and, eq, ne, sql } from 'drizzle-orm';
import { Hono } from 'hono';
import { bookingTimeSlots } from '#core/content/booking';
import { getDb, type Db } from '../../db/client';
import { firm } from '#core/content/firm';
import { federalHolidaysBetween } from '#core/federal-holidays';
import { firmToday } from '#core/firm-time';
import { appointments, blockedDates, bookingRules, weekdaySlots, type AppointmentStatus } from '../../db/schema';
import type { AppEnv } from '../../env';
import { validate } from '../../middleware/validate';
import { blockedDateParamSchema, blockedDateSchema, bookingRulesSchema, weekdaySlotsSchema } from '#core/schemas/availability';
import { firmAvailability, firmWeekdays, readBookingRules, ruleBounds } from '../../services/appointments/availability';

// A request without a time (null) comes first in its day: it still needs the admin to pick one.
const slotOrder = (slot: string | null) => (slot === null ? -1 : (bookingTimeSlots as readonly string[]).indexOf(slot));

/**
 * The active (requested or confirmed) appointments on blocked dates (all of them, or one): blocking
 * a day keeps its bookings, and the admin sees them here to decide what to do (docs/product.md §6.4).
 * A join rather than a list of dates, so any number of blocked days stays one bounded statement.
 */
async function bookingsOnBlockedDates(db: Db, onlyDate?: string) {
  const rows = await db
    .select({ id: appointments.id, name: appointments.name, date: appointments.date, timeSlot: appointments.timeSlot, status: appointments.status })
    .from(appointments)
    .innerJoin(blockedDates, eq(blockedDates.date, appointments.date))
    .where(and(ne(appointments.status, 'cancelled'), onlyDate ? eq(appointments.date, onlyDate) : undefined));
  // Slot labels ('9:00 AM', '10:00 AM') do not sort as text; order within a day by the slot list.
  rows.sort((a, b) => a.date.localeCompare(b.date) || slotOrder(a.timeSlot) - slotOrder(b.timeSlot) || a.id - b.id);
  const byDate = new Map<string, { id: number; name: string; timeSlot: string | null; status: AppointmentStatus }[]>();
  for (const { date, ...booking } of rows) byDate.set(date, [...(byDate.get(date) ?? []), booking]);
  return byDate;
}

/**
 * The admin's view: the weekly offer, every blocked date with the bookings still on it, the booking
 * rules, and the federal holidays from today to the horizon (each closed by the switch can be reopened).
 */
async function availabilityView(db: Db) {
  const { weekdays, blockedDates: blocked } = await firmAvailability(db);
  const bookings = await bookingsOnBlockedDates(db);
  const rules = await readBookingRules(db);
  const holidays = federalHolidaysBetween(firmToday(firm.timeZone), ruleBounds(rules).lastDay);
  return { weekdays, blockedDates: blocked.map((b) => ({ ...b, appointments: bookings.get(b.date) ?? [] })), rules, holidays };
}

/** The firm's availability (docs/product.md §6.4), mounted under /api/admin (admin only). */
export const adminAvailability = new Hono<AppEnv>()
  .get('/availability', async (c) => c.json(await availabilityView(getDb(c.env.DB)), 200))
  // Replaces the whole weekly offer in one batch (one transaction): a reader never sees it half-written.
  .put('/availability', validate('json', weekdaySlotsSchema), async (c) => {
    const { weekdays } = c.req.valid('json');
    const db = getDb(c.env.DB);
    const rows = firmWeekdays.flatMap((name, index) => weekdays[name].map((timeSlot) => ({ weekday: index + 1, timeSlot })));
    const remove = db.delete(weekdaySlots);
    if (rows.length > 0) await db.batch([remove, db.insert(weekdaySlots).values(rows)]);
    else await remove;
    return c.json(await availabilityView(db), 200);
  })
  // The booking rules (docs/product.md §6.4): one row, replaced whole. Reopened holidays already
  // past are dropped, so the list never grows with the years.
  .put('/booking-rules', validate('json', bookingRulesSchema), async (c) => {
    const input = c.req.valid('json');
    const db = getDb(c.env.DB);
    const today = firmToday(firm.timeZone);
    const values = { ...input, reopenedHolidays: input.reopenedHolidays.filter((date) => date >= today), updatedAt: new Date() };
    await db
      .insert(bookingRules)
      .values({ id: 1, ...values })
      .onConflictDoUpdate({ target: bookingRules.id, set: values });
    return c.json(await availabilityView(db), 200);
  })
  // Idempotent: blocking a blocked day again answers 201 too; a new reason replaces the old one,
  // none keeps it. Bookings already on that day are kept.
  .post('/blocked-dates', validate('json', blockedDateSchema), async (c) => {
    const { date, reason } = c.req.valid('json');
    const db = getDb(c.env.DB);
    const [row] = await db
      .insert(blockedDates)
      .values({ date, reason })
      .onConflictDoUpdate({ target: blockedDates.date, set: { reason: sql`coalesce(excluded.reason, ${blockedDates.reason})` } })
      .returning({ date: blockedDates.date, reason: blockedDates.reason });
    const bookings = await bookingsOnBlockedDates(db, date);
    return c.json({ ...row, appointments: bookings.get(date) ?? [] }, 201);
  })
  // Idempotent too: unblocking a day that is not blocked is still 204.
  .delete('/blocked-dates/:date', validate('param', blockedDateParamSchema), async (c) => {
    const { date } = c.req.valid('param');
    await getDb(c.env.DB).delete(blockedDates).where(eq(blockedDates.date, date));
    return c.body(null, 204);
  });

export type AdminAvailability = Awaited<ReturnType<typeof availabilityView>>;
