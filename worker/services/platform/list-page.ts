import { LIST_PAGE_SIZE } from '#core/schemas/admin-list';
import { addCalendarDays, isCalendarDate, zonedInstant } from '#core/firm-time';

// What every searched admin list shares on the server (core/schemas/admin-list.ts): the LIKE
// pattern of the search text, the page's offset and the firm-day bounds of a date range.

/**
 * `q` as a LIKE pattern matching it anywhere, its own % and _ and \ taken literally: use it with
 * `ESCAPE '\'` (e.g. sql`${column} LIKE ${pattern} ESCAPE '\\'`). SQLite's LIKE ignores ASCII case.
 */
export function likePattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}

/** The OFFSET of a 1-based page of LIST_PAGE_SIZE rows. */
export function pageOffset(page: number): number {
  return (page - 1) * LIST_PAGE_SIZE;
}

/**
 * The instants a range of the firm's calendar days covers: from the start of `from` (inclusive) to
 * the start of the day after `to` (exclusive), in the firm's time zone; either end may be absent.
 */
export function firmDayRange(from: string | undefined, to: string | undefined, timeZone: string): { start?: Date; end?: Date } {
  return {
    start: from && isCalendarDate(from) ? zonedInstant(from, 0, timeZone) : undefined,
    end: to && isCalendarDate(to) ? zonedInstant(addCalendarDays(to, 1), 0, timeZone) : undefined,
  };
}
