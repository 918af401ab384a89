import { bookingTimeSlots } from '#core/content/booking';
import { firm } from '#core/content/firm';
import { federalHolidaysBetween } from '#core/federal-holidays';
import type { Db } from '../../db/client';
import { dayOffer, firmAvailability, fullDaysBetween, holidayClosed, ruleBounds, slotStillBookable } from './availability';
import { readBookingRules } from './booking-rules';
import { takenSlots, takenSlotsBetween } from './bookings';
import { busyIntervalsBetween } from './busy-intervals';
import { blockedDatesBetween } from './calendar';
import { zonedToUtc } from './ics';

// What the booking form's calendar shows a visitor (docs/product.md §3): a day's slots, and a
// range's closed and full days. Both only read; the booking itself re-checks everything
// (availabilityRefusal, availabilityGate).

/** [from, to) of the firm days from..to (inclusive) in epoch ms: the busy time a range of days needs. */
const firmDaysSpan = (from: string, to: string): [number, number] => [zonedToUtc(from, 0, firm.timeZone).getTime(), zonedToUtc(to, 24 * 60, firm.timeZone).getTime()];

/**
 * The 7 slots of a day and whether each can still be booked: not on a closed day (a weekend or a
 * date the firm blocked, with its reason), not a slot the weekday does not offer, not a taken or
 * started one, not one a busy calendar of the firm covers, not outside the booking rules (horizon,
 * minimum notice, federal holidays: docs/product.md §3, §6.4). A request without a time takes no
 * slot. The admin's confirm dialog offers the same free slots.
 */
export async function dayAvailability(db: Db, date: string, at?: Date) {
  const [day, taken, busy] = await Promise.all([dayOffer(db, date), takenSlots(db, date), busyIntervalsBetween(db, ...firmDaysSpan(date, date))]);
  const offered = new Set<string>(day.offered);
  // The clock read after the reads, as the slots are judged now.
  const now = at ?? new Date();
  return {
    date,
    closed: day.closed,
    reason: day.reason,
    slots: bookingTimeSlots.map((time) => ({ time, available: offered.has(time) && slotStillBookable(day.rules, date, time, taken, busy, now) })),
  };
}

/**
 * What the month view greys out: the blocked dates in a range (with the federal holidays the
 * booking rules close, named), the slots each weekday offers (a weekday offering none is closed;
 * the time list shows only the chosen weekday's slots), the first and last days the booking rules
 * leave open (minimum notice, horizon, §6.4), and the full days: open, but every slot taken by a
 * booking or the firm's busy time (fullDaysBetween).
 */
export async function closedDaysBetween(db: Db, from: string, to: string, at?: Date) {
  // Five reads at once (about as long as one): the offer, the rules, the blocked dates, and for the
  // full days the range's bookings and busy time.
  const [{ weekdays }, rules, blocked, taken, busy] = await Promise.all([
    firmAvailability(db),
    readBookingRules(db),
    blockedDatesBetween(db, from, to),
    takenSlotsBetween(db, from, to),
    busyIntervalsBetween(db, ...firmDaysSpan(from, to)),
  ]);
  const holidays = federalHolidaysBetween(from, to)
    .filter((holiday) => holidayClosed(rules, holiday.date) && !blocked.some((b) => b.date === holiday.date))
    .map((holiday) => ({ date: holiday.date, reason: holiday.name }));
  const now = at ?? new Date();
  const { firstDay, lastDay } = ruleBounds(rules, now);
  const fullDays = fullDaysBetween(from, to, { weekdays, closedDates: new Set(blocked.map((b) => b.date)), rules, taken, busy, now });
  return { from, to, blockedDates: [...blocked, ...holidays].sort((a, b) => a.date.localeCompare(b.date)), weekdays, firstDay, lastDay, fullDays };
}
