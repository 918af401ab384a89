import { asc, eq } from 'drizzle-orm';
import { BOOKING_RULE_DEFAULTS, bookingTimeSlots, type BookingRules, type BookingTimeSlot } from '#core/content/booking';
import { firm } from '#core/content/firm';
import { federalHolidayOn } from '#core/federal-holidays';
import type { Db } from '../../db/client';
import { blockedDates, busyCalendars, weekdaySlots, type BusyInterval } from '../../db/schema';
import { addCalendarDays, firmToday, weekdayOf } from '#core/firm-time';
import type { ClaimCondition } from '../limits/window-counters';
import { BOOKING_MESSAGES, BOOKING_RULE_MESSAGES, lastBookableDay, slotHasPassed } from '#core/schemas/appointments';
import { bookingRulesQuery, rulesOf } from './booking-rules';
import { busyOverlapping, busyOverlapSql, overlapsAny, slotWindow } from './busy-intervals';
import { zonedToUtc } from './ics';

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

/** The end of a firm day (the next midnight in the firm's zone), epoch ms. */
const dayEnd = (date: string) => zonedToUtc(date, 24 * 60, firm.timeZone).getTime();

/**
 * What the booking rules leave open from `now`: the first instant a slot may start (minimum
 * notice), the first day that can hold one (the firm day of that instant: a request without a
 * time needs a day that is not wholly inside the notice), and the last day (the horizon).
 */
export function ruleBounds(rules: BookingRules, now: Date = new Date()) {
  const earliest = now.getTime() + rules.minimumNoticeHours * 3_600_000;
  const today = firmToday(firm.timeZone, now);
  const firstDay = firmToday(firm.timeZone, new Date(earliest));
  return { earliest, firstDay: firstDay < today ? today : firstDay, lastDay: lastBookableDay(today, rules.horizonDays) };
}

/** True when the rules close a federal holiday on that date (the switch is on and the admin did not reopen it). */
export const holidayClosed = (rules: BookingRules, date: string) =>
  rules.closeFederalHolidays && federalHolidayOn(date) !== null && !rules.reopenedHolidays.includes(date);

/**
 * Why the booking rules refuse this date and slot (a message for a 400), or null. The same
 * judgement as the booking gate's SQL below: past the horizon, a federal holiday the rules close,
 * a slot starting inside the minimum notice (without a time: a day wholly inside it).
 */
export function bookingRuleRefusal(rules: BookingRules, date: string, timeSlot: string | null, now: Date = new Date()): string | null {
  const bounds = ruleBounds(rules, now);
  if (date > bounds.lastDay) return BOOKING_RULE_MESSAGES.tooFar(rules.horizonDays);
  if (holidayClosed(rules, date)) return BOOKING_RULE_MESSAGES.holiday;
  const cutoff = timeSlot === null ? dayEnd(date) - 1 : slotWindow(date, timeSlot as BookingTimeSlot)[0];
  if (cutoff < bounds.earliest) return noticeMessage(rules.minimumNoticeHours, timeSlot);
  return null;
}

/** Without any notice set, a slot or day inside it has simply passed (the schema's own words). */
const noticeMessage = (hours: number, timeSlot: string | null) =>
  hours > 0 ? BOOKING_RULE_MESSAGES.notice(hours) : timeSlot === null ? BOOKING_MESSAGES.past : BOOKING_MESSAGES.slotPassed;

const ruleMessages = new Set<string>([BOOKING_RULE_MESSAGES.holiday, BOOKING_MESSAGES.past, BOOKING_MESSAGES.slotPassed]);

/**
 * The status a refusal from this module is answered with: 400 for the booking rules (a request
 * outside what the firm allows), 409 for a closed day, a slot not offered or a taken one.
 */
export const refusalStatus = (message: string): 400 | 409 =>
  ruleMessages.has(message) || /^Appointments (can be booked up to|need at least) \d+ /.test(message) ? 400 : 409;

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

/**
 * What one day offers: closed (with the reason) when blocked, a weekend or a federal holiday the
 * rules close, else its slots; with the booking rules, which the caller applies to each slot.
 */
export async function dayOffer(db: Db, date: string): Promise<{ closed: boolean; reason: string | null; offered: BookingTimeSlot[]; rules: BookingRules }> {
  const weekday = isoWeekdayOf(date);
  const [blocked, slotRows, ruleRows] = await db.batch([
    db.select({ reason: blockedDates.reason }).from(blockedDates).where(eq(blockedDates.date, date)),
    db.select({ timeSlot: weekdaySlots.timeSlot }).from(weekdaySlots).where(eq(weekdaySlots.weekday, weekday)),
    bookingRulesQuery(db),
  ]);
  const rules = rulesOf(ruleRows);
  if (weekday > 5) return { closed: true, reason: null, offered: [], rules };
  if (blocked.length > 0) return { closed: true, reason: blocked[0].reason, offered: [], rules };
  if (holidayClosed(rules, date)) return { closed: true, reason: federalHolidayOn(date)!.name, offered: [], rules };
  return { closed: false, reason: null, offered: inFormOrder(slotRows.map((row) => row.timeSlot)), rules };
}

/**
 * Whether one slot the day offers can still be booked by a visitor: the booking rules allow it, no
 * active booking holds it, it has not started, no busy time of the firm's calendars covers it. The
 * one judgement of GET /api/appointments/availability (each slot) and of the month's full days.
 */
export function slotStillBookable(rules: BookingRules, date: string, slot: BookingTimeSlot, taken: ReadonlySet<string>, busy: BusyInterval[], now: Date): boolean {
  return bookingRuleRefusal(rules, date, slot, now) === null && !taken.has(slot) && !slotHasPassed(date, slot, firm.timeZone, now) && !overlapsAny(slotWindow(date, slot), busy);
}

/**
 * The days from `from` to `to` that are open and offer slots but have none left (docs/product.md §3
 * "Fully booked"): every offered slot taken, covered by busy time, started or inside the notice.
 * Only days the booking rules leave open count (the others are closed already). `taken` and `busy`
 * cover the range (takenSlotsBetween, busyIntervalsBetween): two reads for the month on show.
 */
export function fullDaysBetween(
  from: string,
  to: string,
  { weekdays, closedDates, rules, taken, busy, now = new Date() }: {
    weekdays: Record<FirmWeekday, readonly BookingTimeSlot[]>;
    closedDates: ReadonlySet<string>;
    rules: BookingRules;
    taken: ReadonlyMap<string, ReadonlySet<string>>;
    busy: BusyInterval[];
    now?: Date;
  },
): string[] {
  const { firstDay, lastDay } = ruleBounds(rules, now);
  const full: string[] = [];
  const none = new Set<string>();
  for (let date = from > firstDay ? from : firstDay; date <= to && date <= lastDay; date = addCalendarDays(date, 1)) {
    const weekday = isoWeekdayOf(date);
    if (weekday > 5 || closedDates.has(date) || holidayClosed(rules, date)) continue;
    const offered = weekdays[firmWeekdays[weekday - 1]];
    if (offered.length === 0) continue;
    if (!offered.some((slot) => slotStillBookable(rules, date, slot, taken.get(date) ?? none, busy, now))) full.push(date);
  }
  return full;
}

/**
 * Why this date and slot cannot be booked under the firm's availability (a message, answered with
 * refusalStatus: 400 for the booking rules, 409 otherwise), or null when it can. The booking rules
 * apply to visitors (booking, rescheduling), not to the admin confirming a request (`rules: false`).
 * A request without a time (null) needs an open day that offers some slot. A slot the firm's busy
 * calendars cover gets the taken-slot message. Taken slots and the clock are judged elsewhere (the
 * UNIQUE index, the schema).
 */
export async function availabilityRefusal(db: Db, date: string, timeSlot: string | null, { rules: applyRules = true, now = new Date() } = {}): Promise<string | null> {
  const weekday = isoWeekdayOf(date);
  if (weekday > 5) return AVAILABILITY_MESSAGES.closed;
  // One batch (one D1 call), as dayOffer: the day's block, its slots, a busy calendar over the slot, the rules.
  const [start, end] = timeSlot === null ? [0, 0] : slotWindow(date, timeSlot as BookingTimeSlot);
  const [blocked, slotRows, busy, ruleRows] = await db.batch([
    db.select({ reason: blockedDates.reason }).from(blockedDates).where(eq(blockedDates.date, date)),
    db.select({ timeSlot: weekdaySlots.timeSlot }).from(weekdaySlots).where(eq(weekdaySlots.weekday, weekday)),
    db.select({ id: busyCalendars.id }).from(busyCalendars).where(busyOverlapping(start, end)).limit(1),
    bookingRulesQuery(db),
  ]);
  const ruleRefusal = applyRules ? bookingRuleRefusal(rulesOf(ruleRows), date, timeSlot, now) : null;
  if (ruleRefusal) return ruleRefusal;
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
export function availabilityGate(date: string, timeSlot: string | null, now: Date = new Date()): AvailabilityGate {
  const weekday = isoWeekdayOf(date);
  if (weekday > 5) return { refusal: AVAILABILITY_MESSAGES.closed };
  // The day's facts, with their parameters (date, weekday, slot, the slot's start and end instants,
  // now, the instant the notice is measured to, the firm's today, whether the date is a federal
  // holiday) numbered from ?n: the facts SELECT and the claim's condition ask exactly the same
  // questions. Without a time (slot null), "offered" means the weekday offers some slot, no busy
  // calendar can cover it, and the notice is measured to the end of the day. The booking rules are
  // read from their row inside the same statements (no row: the defaults), as bookingRuleRefusal.
  const rule = (column: string, fallback: number) => `COALESCE((SELECT ${column} FROM booking_rules WHERE id = 1), ${fallback})`;
  const notice = rule('minimum_notice_hours', BOOKING_RULE_DEFAULTS.minimumNoticeHours);
  const horizon = rule('horizon_days', BOOKING_RULE_DEFAULTS.horizonDays);
  const facts = (n: number) => ({
    closed: `EXISTS (SELECT 1 FROM blocked_dates WHERE date = ?${n})`,
    offered: `EXISTS (SELECT 1 FROM weekday_slots WHERE weekday = ?${n + 1} AND (?${n + 2} IS NULL OR time_slot = ?${n + 2}))`,
    busy: busyOverlapSql(n + 3, n + 4),
    tooFar: `(?${n} > date(?${n + 7}, '+' || ${horizon} || ' days'))`,
    holiday: `(?${n + 8} AND ${rule('close_federal_holidays', 0)} AND NOT EXISTS (SELECT 1 FROM booking_rules, json_each(booking_rules.reopened_holidays) AS r WHERE booking_rules.id = 1 AND r.value = ?${n}))`,
    tooSoon: `(?${n + 6} < ?${n + 5} + ${notice} * 3600000)`,
  });
  const [start, end] = timeSlot === null ? [null, null] : slotWindow(date, timeSlot as BookingTimeSlot);
  const cutoff = start ?? dayEnd(date) - 1;
  const params = [date, weekday, timeSlot, start, end, now.getTime(), cutoff, firmToday(firm.timeZone, now), federalHolidayOn(date) ? 1 : 0];
  const asked = facts(1);
  // The claim binds its own three first (worker/services/limits/window-counters.ts).
  const admitted = facts(4);
  return {
    refusal: null,
    facts: (d1) =>
      d1
        .prepare(
          `SELECT ${asked.closed} AS closed, ${asked.offered} AS offered, ${asked.busy} AS busy, ${asked.tooFar} AS tooFar, ${asked.holiday} AS holiday, ${asked.tooSoon} AS tooSoon, ${notice} AS noticeHours, ${horizon} AS horizonDays`,
        )
        .bind(...params),
    admits: {
      sql: `NOT ${admitted.tooFar} AND NOT ${admitted.holiday} AND NOT ${admitted.tooSoon} AND NOT ${admitted.closed} AND ${admitted.offered} AND NOT ${admitted.busy}`,
      params,
    },
    refusalOf: (facts) =>
      facts.tooFar
        ? BOOKING_RULE_MESSAGES.tooFar(facts.horizonDays)
        : facts.holiday
          ? BOOKING_RULE_MESSAGES.holiday
          : facts.tooSoon
            ? noticeMessage(facts.noticeHours, timeSlot)
            : facts.closed || (!facts.offered && timeSlot === null)
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
      /** The SELECT of the day's facts (closed, offered, busy, and the booking rules'), first in the batch. */
      facts: (d1: D1Database) => D1PreparedStatement;
      /** The condition the first claim is made under: the rules allow it, the day is open, offers the slot, and no busy calendar covers it. */
      admits: ClaimCondition;
      /** The answer's message from the facts row, or null when the slot can be booked. */
      refusalOf: (facts: { closed: number; offered: number; busy: number; tooFar: number; holiday: number; tooSoon: number; noticeHours: number; horizonDays: number }) => string | null;
    };
