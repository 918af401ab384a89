/**
 * Calendar arithmetic in the firm's time zone (firm.timeZone in core/content/firm.ts, passed in by
 * the callers): the daily cap, booking dates and the newsletter schedule all count days as the
 * office does, not as UTC does. Kept apart from the zod schemas so the booking page can compute
 * "today" without loading zod.
 */

export interface FirmDateParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  /** 0 = Sunday … 6 = Saturday */
  weekday: number;
}

/** A calendar day in milliseconds (a UTC day: retention cut-offs, day numbers; firm-zone days are counted above). */
export const DAY_MS = 86_400_000;

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/**
 * One formatter per zone and shape, made once: building an Intl.DateTimeFormat costs far more than
 * formatting with it, and every booking formats several dates.
 */
export function cachedFormat(cache: Map<string, Intl.DateTimeFormat>, timeZone: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  let format = cache.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { ...options, timeZone });
    cache.set(timeZone, format);
  }
  return format;
}

const longDateFormats = new Map<string, Intl.DateTimeFormat>();

/** "Monday, November 23, 2026" for a YYYY-MM-DD calendar day (no zone shift): e-mails, invites and the booking forms. */
export function longDate(isoDate: string): string {
  const [y, m, d] = isoDate.split('-').map(Number);
  return cachedFormat(longDateFormats, 'UTC', { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric' }).format(new Date(Date.UTC(y, m - 1, d)));
}

const partsFormats = new Map<string, Intl.DateTimeFormat>();
const labelFormats = new Map<string, Intl.DateTimeFormat>();

export function firmDateParts(timeZone: string, at: Date = new Date()): FirmDateParts {
  const parts = cachedFormat(partsFormats, timeZone, {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    weekday: 'short',
    hourCycle: 'h23',
  }).formatToParts(at);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return {
    year: Number(get('year')),
    month: Number(get('month')),
    day: Number(get('day')),
    hour: Number(get('hour')),
    minute: Number(get('minute')),
    weekday: WEEKDAYS.indexOf(get('weekday')),
  };
}

const zoneLabels = new Map<string, string>();

/** The zone's generic name for people ("Eastern Time" for America/New_York), else its IANA id. */
export function timeZoneLabel(timeZone: string): string {
  // The same for a zone all year: worked out once (every booking e-mail names it several times).
  const known = zoneLabels.get(timeZone);
  if (known) return known;
  const parts = cachedFormat(labelFormats, timeZone, { timeZoneName: 'longGeneric' }).formatToParts(new Date(0));
  const name = parts.find((p) => p.type === 'timeZoneName')?.value;
  // Zones without a generic name come back as an offset ("GMT+00:00"), which drifts with DST rules.
  const label = name && !/^GMT/.test(name) ? name : timeZone;
  zoneLabels.set(timeZone, label);
  return label;
}

/** Today's date in the firm's time zone as YYYY-MM-DD. */
export function firmToday(timeZone: string, at: Date = new Date()): string {
  const { year, month, day } = firmDateParts(timeZone, at);
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** 0 = Sunday … 6 = Saturday for a YYYY-MM-DD calendar date (no time zone involved). */
export function weekdayOf(isoDate: string): number {
  const [y, m, d] = isoDate.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d)).getUTCDay();
}

/** True when the text is a real calendar date written as YYYY-MM-DD. */
export function isCalendarDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const [y, m, d] = text.split('-').map(Number);
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/** The YYYY-MM-DD calendar date `days` days after another (no time zone involved). */
export function addCalendarDays(isoDate: string, days: number): string {
  const [y, m, d] = isoDate.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

const shortZoneFormats = new Map<string, Intl.DateTimeFormat>();
const zoneAbbreviations = new Map<string, string>();

/** The zone's short generic name ("ET" for America/New_York), else its long label. */
export function timeZoneAbbreviation(timeZone: string): string {
  const known = zoneAbbreviations.get(timeZone);
  if (known) return known;
  const name = cachedFormat(shortZoneFormats, timeZone, { timeZoneName: 'shortGeneric' })
    .formatToParts(new Date(0))
    .find((p) => p.type === 'timeZoneName')?.value;
  const label = name && !/^GMT/.test(name) ? name : timeZoneLabel(timeZone);
  zoneAbbreviations.set(timeZone, label);
  return label;
}

const zonedDateTimeFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * An instant on a zone's clock with the zone's label, "Dec 7, 2026, 2:05 PM ET": how the back
 * office and the e-mails write a moment (docs/product.md §6 and §7), whatever zone reads them.
 */
export function zonedDateTime(at: Date, timeZone: string): string {
  return `${cachedFormat(zonedDateTimeFormats, timeZone, { dateStyle: 'medium', timeStyle: 'short' }).format(at)} ${timeZoneAbbreviation(timeZone)}`;
}

/** The instant a wall-clock time (minutes after midnight) of a YYYY-MM-DD date is in a zone. */
export function zonedInstant(isoDate: string, minutes: number, timeZone: string): Date {
  const [y, m, d] = isoDate.split('-').map(Number);
  const wall = Date.UTC(y, m - 1, d, 0, minutes);
  // The zone's offset at a guess, then again at the corrected instant (right across a DST change).
  const offsetAt = (at: number) => {
    const p = firmDateParts(timeZone, new Date(at));
    return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute) - Math.floor(at / 60_000) * 60_000;
  };
  const first = wall - offsetAt(wall);
  return new Date(wall - offsetAt(first));
}

const localTimeFormats = new Map<string, Intl.DateTimeFormat>();
const localDayFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * A firm time as the visitor's clock reads it ("7:00 AM", or "Mon 11:00 PM" when it falls on
 * another day there), or null when the visitor's zone reads the same time on the same day.
 */
export function visitorClockTime(isoDate: string, minutes: number, firmZone: string, visitorZone: string): string | null {
  const at = zonedInstant(isoDate, minutes, firmZone);
  const time = cachedFormat(localTimeFormats, visitorZone, { hour: 'numeric', minute: '2-digit' }).format(at);
  const firmTime = cachedFormat(localTimeFormats, firmZone, { hour: 'numeric', minute: '2-digit' }).format(at);
  const day = cachedFormat(localDayFormats, visitorZone, { year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
  const firmDay = cachedFormat(localDayFormats, firmZone, { year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
  if (time === firmTime && day === firmDay) return null;
  if (day === firmDay) return time;
  return `${cachedFormat(new Map(), visitorZone, { weekday: 'short' }).format(at)} ${time}`;
}
