import { asc, eq } from 'drizzle-orm';
import { bookingTimeSlots, type BookingTimeSlot } from '#core/content/booking';
import type { Db } from '../../db/client';
import { blockedDates, busyCalendars, weekdaySlots } from '../../db/schema';
import { weekdayOf } from '#core/firm-time';
import type { ClaimCondition } from '../limits/window-counters';
import { BOOKING_MESSAGES } from '#core/schemas/appointments';
import { busyOverlapping, busyOverlapSql, slotWindow } from './busy-calendars';

// The firm's availability: which of the seven slot labels each weekday offers (weekday_slots) and
// the days it is closed (blocked_dates). Booking, rescheduling and the public availability answer
// all ask this module, so one rule decides what a visitor may book. A slot overlapping the firm's
// busy calendars (./busy-calendars.ts) is refused like a taken one.

/** Monday to Friday, in order; index + 1 is the ISO weekday stored in weekday_slots. */
export const firmWeekdays = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'] as const;
export type FirmWeekday = (typeof firmWeekdays)[number];

export const AVAILABILITY_MESSAGES = {
  closed: 'Sorry, we are closed on that day. Please choose another day.',
  notOffered: 'Sorry, that time is not offered on that day. Please choose another time.',
} as const;

/** ISO weekday (1 = Monday ... 7 = Sunday) of a YYYY-MM-DD date. */
const isoWeekdayOf = (date: string) => ((weekdayOf(date) + 6) % 7) + 1;

/** Slots in the order of the booking form, whatever order the rows came in. */
const inFormOrder = (slots: Iterable<string>) => {
  const set = new Set(slots);
  return bookingTimeSlots.filter((slot) => set.has(slot));
};

/** The whole availability: every weekday's slots and every blocked date (oldest first). */
export async function firmAvailability(db: Db): Promise<{
  weekdays: Record<FirmWeekday, BookingTimeSlot[]>;
  blockedDates: { date: string; reason: string | null }[];
}> {
  const [slotRows, blockedRows] = await db.batch([
    db.select().from(weekdaySlots),
    db.select({ date: blockedDates.date, reason: blockedDates.reason }).from(blockedDates).orderBy(asc(blockedDates.date)),
  ]);
  const weekdays = Object.fromEntries(
    firmWeekdays.map((name, index) => [name, inFormOrder(slotRows.filter((row) => row.weekday === index + 1).map((row) => row.timeSlot))]),
  ) as Record<FirmWeekday, BookingTimeSlot[]>;
  return { weekdays, blockedDates: blockedRows };
}

/** What one day offers: closed (with the reason) when blocked or a weekend, else its slots. */
export async function dayOffer(db: Db, date: string): Promise<{ closed: boolean; reason: string | null; offered: BookingTimeSlot[] }> {
  const weekday = isoWeekdayOf(date);
  if (weekday > 5) return { closed: true, reason: null, offered: [] };
  const [blocked, slotRows] = await db.batch([
    db.select({ reason: blockedDates.reason }).from(blockedDates).where(eq(blockedDates.date, date)),
    db.select({ timeSlot: weekdaySlots.timeSlot }).from(weekdaySlots).where(eq(weekdaySlots.weekday, weekday)),
  ]);
  if (blocked.length > 0) return { closed: true, reason: blocked[0].reason, offered: [] };
  return { closed: false, reason: null, offered: inFormOrder(slotRows.map((row) => row.timeSlot)) };
}

/**
 * Why this date and slot cannot be booked under the firm's availability (a message for a 409), or
 * null when it can. A request without a time (null) needs an open day that offers some slot. A slot
 * the firm's busy calendars cover gets the taken-slot message. Taken slots and the clock are judged
 * elsewhere (the UNIQUE index, the schema).
 */
export async function availabilityRefusal(db: Db, date: string, timeSlot: string | null): Promise<string | null> {
  const weekday = isoWeekdayOf(date);
  if (weekday > 5) return AVAILABILITY_MESSAGES.closed;
  // One batch (one D1 call), as dayOffer: the day's block, its slots, and a busy calendar over the slot.
  const [start, end] = timeSlot === null ? [0, 0] : slotWindow(date, timeSlot as BookingTimeSlot);
  const [blocked, slotRows, busy] = await db.batch([
    db.select({ reason: blockedDates.reason }).from(blockedDates).where(eq(blockedDates.date, date)),
    db.select({ timeSlot: weekdaySlots.timeSlot }).from(weekdaySlots).where(eq(weekdaySlots.weekday, weekday)),
    db.select({ id: busyCalendars.id }).from(busyCalendars).where(busyOverlapping(start, end)).limit(1),
  ]);
  const offered = slotRows.map((row) => row.timeSlot);
  if (blocked.length > 0 || (timeSlot === null && offered.length === 0)) return AVAILABILITY_MESSAGES.closed;
  if (timeSlot === null) return null;
  if (!offered.includes(timeSlot)) return AVAILABILITY_MESSAGES.notOffered;
  return busy.length > 0 ? BOOKING_MESSAGES.taken : null;
}

/**
 * availabilityRefusal inside the booking's own write batch (worker/services/limits/submission-limits.ts),
 * so it costs no D1 call of its own: `facts` reads what decides the answer's message,
 * and the first claim is made only under `admits`, in the same transaction, so a closed day or a
 * slot the weekday does not offer still claims nothing and stores nothing. A weekend is refused
 * here without the database (`refusal` set, nothing else).
 */
export function availabilityGate(date: string, timeSlot: string | null): AvailabilityGate {
  const weekday = isoWeekdayOf(date);
  if (weekday > 5) return { refusal: AVAILABILITY_MESSAGES.closed };
  // The day's three facts, with their parameters (date, weekday, slot, the slot's start and end
  // instants) numbered from ?n: the facts SELECT and the claim's condition ask exactly the same
  // questions. Without a time (slot null), "offered" means the weekday offers some slot, and no
  // busy calendar can cover it.
  const facts = (n: number) => ({
    closed: `EXISTS (SELECT 1 FROM blocked_dates WHERE date = ?${n})`,
    offered: `EXISTS (SELECT 1 FROM weekday_slots WHERE weekday = ?${n + 1} AND (?${n + 2} IS NULL OR time_slot = ?${n + 2}))`,
    busy: busyOverlapSql(n + 3, n + 4),
  });
  const [start, end] = timeSlot === null ? [null, null] : slotWindow(date, timeSlot as BookingTimeSlot);
  const params = [date, weekday, timeSlot, start, end];
  const asked = facts(1);
  // The claim binds its own three first (worker/services/limits/window-counters.ts).
  const admitted = facts(4);
  return {
    refusal: null,
    facts: (d1) => d1.prepare(`SELECT ${asked.closed} AS closed, ${asked.offered} AS offered, ${asked.busy} AS busy`).bind(...params),
    admits: { sql: `NOT ${admitted.closed} AND ${admitted.offered} AND NOT ${admitted.busy}`, params },
    refusalOf: (facts) =>
      facts.closed || (!facts.offered && timeSlot === null)
        ? AVAILABILITY_MESSAGES.closed
        : !facts.offered
          ? AVAILABILITY_MESSAGES.notOffered
          : facts.busy
            ? BOOKING_MESSAGES.taken
            : null,
  };
}

export type AvailabilityGate =
  | { refusal: string }
  | {
      refusal: null;
      /** The SELECT of the day's facts (closed, offered, busy), first in the batch. */
      facts: (d1: D1Database) => D1PreparedStatement;
      /** The condition the first claim is made under: the day is open, offers the slot, and no busy calendar covers it. */
      admits: ClaimCondition;
      /** The answer's message from the facts row, or null when the slot can be booked. */
      refusalOf: (facts: { closed: number; offered: number; busy: number }) => string | null;
    };
