import { and, asc, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { busyCalendars } from '../../db/schema';
import type { Bindings } from '../../env';
import { readBookingRules } from './booking-rules';
import { BUSY_CALENDAR_LIMITS, BUSY_CALENDAR_MESSAGES, CalendarFetchError, type CalendarFetcher, fetchCalendarText, isLocalDevelopment, redactedCalendarUrl } from './calendar-fetch';
import { bookingHorizon, busyIntervalsOf } from './busy-intervals';

// The firm's busy calendars (docs/product.md §6.4, docs/decisions/0014): the secret iCal addresses
// Google Calendar and Outlook give. Each is fetched (at once when added or refreshed, then by the
// cron at most every 15 minutes), its events expanded with ical.js (recurrence rules, EXDATE and
// RECURRENCE-ID overrides, the file's own VTIMEZONEs) into opaque intervals within the booking
// horizon, and stored as the last good copy; any slot overlapping one is not bookable, exactly like
// a taken slot. A failed fetch keeps the last good copy and records the error. No calendar can
// stall the worker (docs/decisions/0019-recurrence-rules-that-cannot-stall.md): repeat rules ical.js
// cannot walk are skipped before iterating, the expansion has a hard cap of steps and time, the cron
// claims a calendar before fetching it, and only public internet hosts are fetched.

export type BusyCalendarRow = typeof busyCalendars.$inferSelect;

/**
 * Fetches one busy calendar now and stores the outcome: the new intervals and the time of success,
 * or the error and its time with the last good intervals kept. The fetch is claimed first
 * (last_fetch_at written before the address is fetched, unless the cron's claim already did), so a
 * calendar whose reading never ends still waits its 15 minutes like any failing one. Returns the
 * fetches made.
 */
export async function refreshBusyCalendar(
  env: Bindings,
  db: Db,
  row: Pick<BusyCalendarRow, 'id' | 'url'>,
  options: { at?: Date; localDevelopment?: boolean; fetcher?: CalendarFetcher; horizonDays?: number; claimed?: boolean } = {},
): Promise<{ ok: boolean; fetches: number }> {
  const at = options.at ?? new Date();
  try {
    if (!options.claimed) await db.update(busyCalendars).set({ lastFetchAt: at }).where(eq(busyCalendars.id, row.id));
    const [from, to] = bookingHorizon(at, options.horizonDays ?? (await readBookingRules(db)).horizonDays);
    const { text, fetches } = await fetchCalendarText(row.url, {
      localDevelopment: options.localDevelopment ?? isLocalDevelopment(env),
      fetcher: options.fetcher,
      timeoutMs: env.CALENDAR_FETCH_TIMEOUT_MS ? Number(env.CALENDAR_FETCH_TIMEOUT_MS) : undefined,
    });
    const { busy, skippedEvents } = busyIntervalsOf(text, from, to);
    // The admin screen shows the calendar as read; the log says which calendar had events left out.
    if (skippedEvents) console.warn('Busy calendar events skipped', JSON.stringify({ id: row.id, host: redactedCalendarUrl(row.url), skippedEvents }));
    await db
      .update(busyCalendars)
      .set({ busy, lastFetchAt: at, lastSuccessAt: at, lastError: null, lastErrorAt: null })
      .where(eq(busyCalendars.id, row.id));
    return { ok: true, fetches };
  } catch (error) {
    const message = error instanceof CalendarFetchError ? error.message : BUSY_CALENDAR_MESSAGES.notICalendar;
    const fetches = (error as { fetches?: number }).fetches ?? 1;
    // The address is a secret: the log names the calendar by id and host only.
    console.warn('Busy calendar refresh failed', JSON.stringify({ id: row.id, host: redactedCalendarUrl(row.url), error: message }));
    await db.update(busyCalendars).set({ lastFetchAt: at, lastError: message, lastErrorAt: at }).where(eq(busyCalendars.id, row.id));
    return { ok: false, fetches };
  }
}

/** The most subrequests one calendar can cost the cron: its fetches (1 + redirects) and its one D1 write. */
export const SUBREQUESTS_PER_BUSY_CALENDAR = 1 + BUSY_CALENDAR_LIMITS.maxRedirects + 1;
/** The pass's own D1 calls besides the calendars': the claim and the booking horizon's read. */
export const BUSY_CALENDAR_PASS_CALLS = 2;

/**
 * The cron's part: the busy calendars not fetched for 15 minutes, oldest first, at most perTick of
 * them and no more than `subrequestBudget` allows. They are claimed in one UPDATE before any is
 * fetched (last_fetch_at set to this tick), so a calendar that fails, or whose reading dies with
 * the invocation, is not first in the queue again at the next tick: it waits its interval. Returns
 * how many were claimed and the subrequests spent (fetches and D1 calls).
 */
export async function refreshDueBusyCalendars(
  env: Bindings,
  db: Db,
  at: Date,
  subrequestBudget = BUSY_CALENDAR_PASS_CALLS + BUSY_CALENDAR_LIMITS.perTick * SUBREQUESTS_PER_BUSY_CALENDAR,
): Promise<{ due: number; refreshed: number; subrequests: number }> {
  const room = Math.min(BUSY_CALENDAR_LIMITS.perTick, Math.floor((subrequestBudget - BUSY_CALENDAR_PASS_CALLS) / SUBREQUESTS_PER_BUSY_CALENDAR));
  if (room < 1) return { due: 0, refreshed: 0, subrequests: 0 };
  const dueBefore = new Date(at.getTime() - BUSY_CALENDAR_LIMITS.refreshEveryMs);
  const isDue = or(isNull(busyCalendars.lastFetchAt), lt(busyCalendars.lastFetchAt, dueBefore));
  const oldest = db
    .select({ id: busyCalendars.id })
    .from(busyCalendars)
    .where(isDue)
    .orderBy(sql`${busyCalendars.lastFetchAt} IS NOT NULL`, asc(busyCalendars.lastFetchAt), asc(busyCalendars.id))
    .limit(room);
  // One statement: a concurrent tick's claim either came first (the rows are no longer due) or waits.
  const due = await db
    .update(busyCalendars)
    .set({ lastFetchAt: at })
    .where(and(inArray(busyCalendars.id, oldest), isDue))
    .returning({ id: busyCalendars.id, url: busyCalendars.url });
  let subrequests = 1;
  let refreshed = 0;
  if (due.length === 0) return { due: 0, refreshed, subrequests };
  // The horizon, read once for the tick's calendars.
  const { horizonDays } = await readBookingRules(db);
  subrequests += 1;
  for (const row of due.sort((a, b) => a.id - b.id)) {
    const result = await refreshBusyCalendar(env, db, row, { at, horizonDays, claimed: true });
    subrequests += result.fetches + 1;
    if (result.ok) refreshed++;
  }
  return { due: due.length, refreshed, subrequests };
}

/** The admin's list of busy calendars, oldest first. */
export const listBusyCalendars = (db: Db) => db.select().from(busyCalendars).orderBy(asc(busyCalendars.id));

/** One busy calendar, or undefined. */
export const findBusyCalendar = async (db: Db, id: number) => (await db.select().from(busyCalendars).where(eq(busyCalendars.id, id)))[0];

/** Stores a new busy calendar (its first read comes after) and returns its id. */
export async function addBusyCalendar(db: Db, calendar: { label: string; url: string }): Promise<number> {
  const [row] = await db.insert(busyCalendars).values(calendar).returning({ id: busyCalendars.id });
  return row.id;
}

/** Removes a busy calendar: its busy times stop closing slots at once. Removing a removed one is no error. */
export async function removeBusyCalendar(db: Db, id: number): Promise<void> {
  await db.delete(busyCalendars).where(eq(busyCalendars.id, id));
}
