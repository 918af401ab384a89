import { and, asc, eq, gte, lte, ne, sql } from 'drizzle-orm';
import type { BookingTimeSlot } from '#core/content/booking';
import { firm } from '#core/content/firm';
import { federalHolidaysBetween } from '#core/federal-holidays';
import { firmToday } from '#core/firm-time';
import type { Db } from '../../db/client';
import { appointments, blockedDates, bookingRules, weekdaySlots, type AppointmentStatus } from '../../db/schema';
import type { BookingRules } from '#core/content/booking';
import { type FirmWeekday, firmAvailability, firmWeekdays, ruleBounds } from './availability';
import { readBookingRules } from './booking-rules';
import { slotOrder } from './bookings';

// The firm's calendar as the admin edits it (docs/product.md §6.4): the weekly offer and the
// blocked dates, each blocked date with the bookings still on it; and the blocked dates of a range,
// which the booking calendar greys out (§3). What a visitor may book is availability.ts's rule.

type BookingOnBlockedDate = { id: number; name: string; timeSlot: string | null; status: AppointmentStatus };

/** The blocked dates from `from` to `to` (inclusive), oldest first. */
export async function blockedDatesBetween(db: Db, from: string, to: string): Promise<{ date: string; reason: string | null }[]> {
  return db
    .select({ date: blockedDates.date, reason: blockedDates.reason })
    .from(blockedDates)
    .where(and(gte(blockedDates.date, from), lte(blockedDates.date, to)))
    .orderBy(asc(blockedDates.date));
}

/**
 * The active (requested or confirmed) appointments on blocked dates (all of them, or one): blocking
 * a day keeps its bookings, and the admin sees them here to decide what to do (docs/product.md §6.4).
 * A join rather than a list of dates, so any number of blocked days stays one bounded statement.
 */
export async function bookingsOnBlockedDates(db: Db, onlyDate?: string): Promise<Map<string, BookingOnBlockedDate[]>> {
  const rows = await db
    .select({ id: appointments.id, name: appointments.name, date: appointments.date, timeSlot: appointments.timeSlot, status: appointments.status })
    .from(appointments)
    .innerJoin(blockedDates, eq(blockedDates.date, appointments.date))
    .where(and(ne(appointments.status, 'cancelled'), onlyDate ? eq(appointments.date, onlyDate) : undefined));
  // Slot labels ('9:00 AM', '10:00 AM') do not sort as text; order within a day by the slot list.
  rows.sort((a, b) => a.date.localeCompare(b.date) || slotOrder(a.timeSlot) - slotOrder(b.timeSlot) || a.id - b.id);
  const byDate = new Map<string, BookingOnBlockedDate[]>();
  for (const { date, ...booking } of rows) byDate.set(date, [...(byDate.get(date) ?? []), booking]);
  return byDate;
}

/**
 * The admin's view: the weekly offer, every blocked date with the bookings still on it, the booking
 * rules, and the federal holidays from today to the horizon (each closed by the switch can be reopened).
 */
export async function adminAvailabilityView(db: Db) {
  const { weekdays, blockedDates: blocked } = await firmAvailability(db);
  const bookings = await bookingsOnBlockedDates(db);
  const rules = await readBookingRules(db);
  const holidays = federalHolidaysBetween(firmToday(firm.timeZone), ruleBounds(rules).lastDay);
  return { weekdays, blockedDates: blocked.map((b) => ({ ...b, appointments: bookings.get(b.date) ?? [] })), rules, holidays };
}

/** Replaces the booking rules (one row). Reopened holidays already past are dropped, so the list never grows with the years. */
export async function saveBookingRules(db: Db, input: BookingRules): Promise<void> {
  const today = firmToday(firm.timeZone);
  const values = { ...input, reopenedHolidays: input.reopenedHolidays.filter((date) => date >= today), updatedAt: new Date() };
  await db.insert(bookingRules).values({ id: 1, ...values }).onConflictDoUpdate({ target: bookingRules.id, set: values });
}

export type AdminAvailability = Awaited<ReturnType<typeof adminAvailabilityView>>;

/** Replaces the whole weekly offer in one batch (one transaction): a reader never sees it half-written. */
export async function replaceWeeklyOffer(db: Db, weekdays: Record<FirmWeekday, readonly BookingTimeSlot[]>): Promise<void> {
  const rows = firmWeekdays.flatMap((name, index) => weekdays[name].map((timeSlot) => ({ weekday: index + 1, timeSlot })));
  const remove = db.delete(weekdaySlots);
  if (rows.length > 0) await db.batch([remove, db.insert(weekdaySlots).values(rows)]);
  else await remove;
}

/**
 * Blocks a date, idempotently: blocking a blocked day again keeps it blocked; a new reason replaces
 * the old one, none keeps it. Bookings already on that day are kept.
 */
export async function blockDate(db: Db, date: string, reason: string | null) {
  const [row] = await db
    .insert(blockedDates)
    .values({ date, reason })
    .onConflictDoUpdate({ target: blockedDates.date, set: { reason: sql`coalesce(excluded.reason, ${blockedDates.reason})` } })
    .returning({ date: blockedDates.date, reason: blockedDates.reason });
  return row;
}

/** Unblocks a date; a date that is not blocked is left as it is. */
export async function unblockDate(db: Db, date: string): Promise<void> {
  await db.delete(blockedDates).where(eq(blockedDates.date, date));
}
