/**
 * Calendar arithmetic in the firm's time zone (FIRM_TIME_ZONE, America/New_York): the daily cap,
 * booking dates and the newsletter schedule all count days as the office does, not as UTC does.
 */

/**
 * The firm's zone; the worker passes env.FIRM_TIME_ZONE (the same value, from wrangler.toml). Kept
 * here, not beside the zod schemas, so the booking page can compute "today" without loading zod.
 */
export const FIRM_TIME_ZONE = 'America/New_York';

export interface FirmDateParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  /** 0 = Sunday … 6 = Saturday */
  weekday: number;
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

export function firmDateParts(timeZone: string, at: Date = new Date()): FirmDateParts {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
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
