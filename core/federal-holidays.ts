/**
 * US federal holidays as the government observes them (5 U.S.C. 6103; the OPM's yearly list): a
 * fixed-date holiday on a Saturday is observed the Friday before, on a Sunday the Monday after.
 * The booking rule "close every federal holiday" (docs/product.md §6.4) closes these dates. Pure
 * calendar arithmetic on YYYY-MM-DD strings, no time zone involved.
 */

export interface FederalHoliday {
  /** The observed date, YYYY-MM-DD. */
  date: string;
  name: string;
}

const iso = (year: number, month: number, day: number) => new Date(Date.UTC(year, month - 1, day)).toISOString().slice(0, 10);

/** The n-th given weekday (0 = Sunday) of a month; n = -1 is the last one. */
function nthWeekday(year: number, month: number, weekday: number, n: number): string {
  if (n > 0) {
    const first = new Date(Date.UTC(year, month - 1, 1)).getUTCDay();
    return iso(year, month, 1 + ((weekday - first + 7) % 7) + (n - 1) * 7);
  }
  const lastDay = new Date(Date.UTC(year, month, 0));
  return iso(year, month, lastDay.getUTCDate() - ((lastDay.getUTCDay() - weekday + 7) % 7));
}

/** A fixed date moved to its observed weekday: Saturday -> Friday, Sunday -> Monday. */
function observed(year: number, month: number, day: number): string {
  const weekday = new Date(Date.UTC(year, month - 1, day)).getUTCDay();
  return iso(year, month, day + (weekday === 6 ? -1 : weekday === 0 ? 1 : 0));
}

/** The eleven observed federal holidays of a year, in date order. */
export function federalHolidays(year: number): FederalHoliday[] {
  return [
    // New Year's Day of the next year may be observed on 31 December of this one.
    { date: observed(year, 1, 1), name: "New Year's Day" },
    { date: nthWeekday(year, 1, 1, 3), name: 'Birthday of Martin Luther King, Jr.' },
    { date: nthWeekday(year, 2, 1, 3), name: "Washington's Birthday" },
    { date: nthWeekday(year, 5, 1, -1), name: 'Memorial Day' },
    { date: observed(year, 6, 19), name: 'Juneteenth National Independence Day' },
    { date: observed(year, 7, 4), name: 'Independence Day' },
    { date: nthWeekday(year, 9, 1, 1), name: 'Labor Day' },
    { date: nthWeekday(year, 10, 1, 2), name: 'Columbus Day' },
    { date: observed(year, 11, 11), name: 'Veterans Day' },
    { date: nthWeekday(year, 11, 4, 4), name: 'Thanksgiving Day' },
    { date: observed(year, 12, 25), name: 'Christmas Day' },
    { date: observed(year + 1, 1, 1), name: "New Year's Day" },
  ]
    .filter((holiday) => holiday.date.startsWith(`${year}-`))
    .sort((a, b) => a.date.localeCompare(b.date));
}

/** The federal holiday observed on a YYYY-MM-DD date, or null. */
export function federalHolidayOn(date: string): FederalHoliday | null {
  const year = Number(date.slice(0, 4));
  return federalHolidays(year).find((holiday) => holiday.date === date) ?? null;
}

/** Every observed federal holiday from `from` to `to` (YYYY-MM-DD, both included). */
export function federalHolidaysBetween(from: string, to: string): FederalHoliday[] {
  const holidays: FederalHoliday[] = [];
  for (let year = Number(from.slice(0, 4)); year <= Number(to.slice(0, 4)); year++) {
    holidays.push(...federalHolidays(year).filter((holiday) => holiday.date >= from && holiday.date <= to));
  }
  return holidays;
}
