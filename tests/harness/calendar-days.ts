import { firm } from '#core/content/firm';
import { firmToday } from '#core/firm-time';

// The calendar arithmetic the date-picking tests share, pure and unit-tested over every month
// layout (tests/appointments/calendar-days.web.test.ts). Days are the firm's calendar days
// (New York), as YYYY-MM-DD strings: a test never adds 24 hours to a time (a day of the DST change
// has 23 or 25), never assumes today + n is in this month or year, and never finds a day by its
// place in the month grid (docs/operations.md "Tests on every day of the year").

/** `day` plus `n` calendar days (n may be negative), across months, years and DST changes alike. */
export function addDays(day: string, n: number): string {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + n)).toISOString().slice(0, 10);
}

/** The firm's calendar day `offsetDays` after its today (read from the clock now), as YYYY-MM-DD. */
export const firmDay = (offsetDays: number, now: Date = new Date()) => addDays(firmToday(firm.timeZone, now), offsetDays);

/** The weekday (0 = Sunday) of a YYYY-MM-DD day. */
export const weekdayOf = (day: string) => new Date(`${day}T12:00:00Z`).getUTCDay();

/** Monday to Friday. Not "bookable": a federal holiday or a blocked date is a weekday too (ask the API). */
export const isWeekday = (day: string) => ![0, 6].includes(weekdayOf(day));

/** `day` itself when it is a weekday, else the Monday after it. */
export const weekdayFrom = (day: string) => addDays(day, weekdayOf(day) === 6 ? 2 : weekdayOf(day) === 0 ? 1 : 0);

/** How many times a visitor presses "Next month" to go from the month of `from` to the month of `to`. */
export function monthsBetween(from: string, to: string): number {
  const [fy, fm] = from.split('-').map(Number);
  const [ty, tm] = to.split('-').map(Number);
  return (ty - fy) * 12 + (tm - fm);
}

/**
 * The CSS selector of the booking calendar's cell for `day` as a day of the month on show: the
 * grid also renders the neighbouring months' days (outside days, some of them hidden), so a day is
 * found by its date within its own month, never by its position.
 */
export const dayCell = (day: string) => `td[data-day="${day}"]:not([data-outside])`;
