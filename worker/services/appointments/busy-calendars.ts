import ICAL from 'ical.js';
import { and, asc, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import { firm } from '#core/content/firm';
import { addCalendarDays, firmToday } from '#core/firm-time';
import { lastBookableDay, slotStartMinutes } from '#core/schemas/appointments';
import type { BookingTimeSlot } from '#core/content/booking';
import type { Db } from '../../db/client';
import { busyCalendars, type BusyInterval } from '../../db/schema';
import type { Bindings } from '../../env';
import { readBookingRules } from './booking-rules';
import { zonedToUtc } from './ics';
import { isLoopbackHost, isPublicHost } from './public-address';
import { guardRecurrence, RecurrenceBudgetError, recurrenceRuleProblem } from './recurrence-guard';

// The firm's busy calendars (docs/product.md §6.4, docs/decisions/0014): the secret iCal addresses
// Google Calendar and Outlook give. Each is fetched (at once when added or refreshed, then by the
// cron at most every 15 minutes), its events expanded with ical.js (recurrence rules, EXDATE and
// RECURRENCE-ID overrides, the file's own VTIMEZONEs) into opaque intervals within the booking
// horizon, and stored as the last good copy; any slot overlapping one is not bookable, exactly like
// a taken slot. A failed fetch keeps the last good copy and records the error. No calendar can
// stall the worker (docs/decisions/0019-recurrence-rules-that-cannot-stall.md): repeat rules ical.js
// cannot walk are skipped before iterating, the expansion has a hard cap of steps and time, the cron
// claims a calendar before fetching it, and only public internet hosts are fetched.

export const BUSY_CALENDAR_LIMITS = {
  /** A year of a busy person's calendar is well under 1 MB; Workers hold the text in memory. */
  maxBytes: 2 * 1024 * 1024,
  timeoutMs: 10_000,
  maxRedirects: 3,
  /** The cron fetches each address at most this often. */
  refreshEveryMs: 15 * 60_000,
  /** Addresses per cron tick: each costs up to 1 + maxRedirects fetches and one D1 write. */
  perTick: 3,
  /** Occurrence steps per calendar: bounds the CPU a FREQ=MINUTELY rule could take. */
  maxSteps: 20_000,
  /**
   * Candidate dates ical.js may look at per calendar, all rules together (recurrence-guard.ts):
   * a step takes 1 to 15 µs, so the cap is well under a second; a year of a daily event is 365.
   * A single rule that would walk more than this between two occurrences is skipped up front.
   */
  maxRuleSteps: 50_000,
  /** Wall time of one calendar's expansion, where the clock runs during it (local development, tests). */
  maxExpandMs: 1_000,
  /** Stored intervals per calendar (after merging), the nearest first. */
  maxIntervals: 5_000,
} as const;

/** An appointment holds its hour: the slots are an hour apart (docs/product.md §3). */
export const APPOINTMENT_MINUTES = 60;

export const BUSY_CALENDAR_MESSAGES = {
  https: 'The calendar address must start with https://',
  redirectHttps: 'The calendar server redirected to an address that does not start with https://',
  tooManyRedirects: `The calendar server redirected more than ${BUSY_CALENDAR_LIMITS.maxRedirects} times`,
  tooLarge: `The calendar is larger than ${BUSY_CALENDAR_LIMITS.maxBytes / 1024 / 1024} MB`,
  timeout: `The calendar server did not answer within ${BUSY_CALENDAR_LIMITS.timeoutMs / 1000} seconds`,
  unreachable: 'The calendar server could not be reached',
  notICalendar: 'The address did not return an iCalendar (.ics) file',
  /** One message for every refused host, at any hop: it says nothing about what is on the network. */
  notPublic: 'The calendar address must be on the public internet',
  tooComplex: 'The calendar has repeating events too costly to expand; it was not read (check for events repeating every minute or second)',
} as const;

export class CalendarFetchError extends Error {}

const siteIsLocal = (siteUrl: string | undefined) => {
  try {
    return siteUrl !== undefined && isLoopbackHost(new URL(siteUrl).hostname);
  } catch {
    return false;
  }
};

/**
 * Whether this is local development, where this machine (localhost, 127.0.0.0/8, [::1]) may serve
 * a busy calendar, over plain http too: ALLOW_HTTP_CALENDARS (never in wrangler.jsonc), a SITE_URL on
 * this machine (what `npm start` and `npm run dev` set, scripts/dev.ts), or a request that itself
 * came to localhost. A production request never arrives with a localhost origin, and production's
 * SITE_URL is the firm's domain (wrangler.jsonc).
 */
export const isLocalDevelopment = (env: Pick<Bindings, 'ALLOW_HTTP_CALENDARS' | 'SITE_URL'>, requestUrl?: string) =>
  env.ALLOW_HTTP_CALENDARS === 'true' || siteIsLocal(env.SITE_URL) || (requestUrl !== undefined && isLoopbackHost(new URL(requestUrl).hostname));

/** webcal:// (what calendar apps hand out) is https. */
export const normalizeCalendarUrl = (text: string) => text.trim().replace(/^webcal:\/\//i, 'https://');

/**
 * Why this address may not be fetched, or null: https to a public host, or in local development
 * this machine over https or http. Checked on the typed address and again on every redirect.
 */
export function calendarUrlProblem(url: URL, localDevelopment: boolean): string | null {
  const local = localDevelopment && isLoopbackHost(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && local)) return BUSY_CALENDAR_MESSAGES.https;
  if (!local && !isPublicHost(url.hostname)) return BUSY_CALENDAR_MESSAGES.notPublic;
  return null;
}

/** The address as logs and the admin screen show it: scheme and host only (the path is the secret). */
export const redactedCalendarUrl = (url: string) => {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}/…`;
  } catch {
    return '(invalid address)';
  }
};

export type CalendarFetcher = (url: string, init: RequestInit) => Promise<Response>;

/** The body as text, refusing more than `maxBytes` while it streams in (a lying Content-Length included). */
async function cappedText(response: Response, maxBytes: number): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (declared > maxBytes) {
    await response.body?.cancel();
    throw new CalendarFetchError(BUSY_CALENDAR_MESSAGES.tooLarge);
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw new CalendarFetchError(BUSY_CALENDAR_MESSAGES.tooLarge);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

/**
 * Fetches an iCal address: redirects followed by hand (at most maxRedirects, each hop re-checked
 * against the https and public-host rules before it is fetched), one timeout for the whole
 * exchange, the body capped. Returns the text and how many fetches it took (the cron's subrequest count).
 */
export async function fetchCalendarText(
  address: string,
  options: { localDevelopment: boolean; fetcher?: CalendarFetcher; timeoutMs?: number },
): Promise<{ text: string; fetches: number }> {
  const fetcher = options.fetcher ?? ((url, init) => fetch(url, init));
  const signal = AbortSignal.timeout(options.timeoutMs ?? BUSY_CALENDAR_LIMITS.timeoutMs);
  let url = new URL(address);
  let fetches = 0;
  try {
    for (let hop = 0; ; hop++) {
      const problem = calendarUrlProblem(url, options.localDevelopment);
      if (problem) throw new CalendarFetchError(hop > 0 && problem === BUSY_CALENDAR_MESSAGES.https ? BUSY_CALENDAR_MESSAGES.redirectHttps : problem);
      fetches++;
      const response = await fetcher(url.href, { redirect: 'manual', signal, headers: { accept: 'text/calendar, */*;q=0.5' } });
      if ([301, 302, 303, 307, 308].includes(response.status)) {
        await response.body?.cancel();
        const location = response.headers.get('location');
        if (hop >= BUSY_CALENDAR_LIMITS.maxRedirects) throw new CalendarFetchError(BUSY_CALENDAR_MESSAGES.tooManyRedirects);
        if (!location) throw new CalendarFetchError(`The calendar server answered ${response.status} without an address`);
        url = new URL(location, url);
        continue;
      }
      if (!response.ok) {
        await response.body?.cancel();
        throw new CalendarFetchError(`The calendar server answered ${response.status}`);
      }
      return { text: await cappedText(response, BUSY_CALENDAR_LIMITS.maxBytes), fetches };
    }
  } catch (error) {
    if (error instanceof CalendarFetchError) throw Object.assign(error, { fetches });
    if (signal.aborted) throw Object.assign(new CalendarFetchError(BUSY_CALENDAR_MESSAGES.timeout), { fetches });
    throw Object.assign(new CalendarFetchError(BUSY_CALENDAR_MESSAGES.unreachable), { fetches });
  }
}

const knownZones = new Map<string, boolean>();
const isTimeZone = (zone: string) => {
  if (!knownZones.has(zone)) {
    let valid = true;
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: zone });
    } catch {
      valid = false;
    }
    knownZones.set(zone, valid);
  }
  return knownZones.get(zone)!;
};

const pad = (n: number) => String(n).padStart(2, '0');
const dayOf = (time: ICAL.Time) => `${time.year}-${pad(time.month)}-${pad(time.day)}`;

/**
 * The instant an iCalendar time means. A time in UTC or in a zone the file defines (VTIMEZONE) is
 * exact (ical.js applies the zone's rules, DST included). An all-day date is the firm's day. A
 * floating time, or a TZID the file does not define (some servers leave VTIMEZONEs out), is read
 * as that IANA zone's wall clock when it is one, else the firm's.
 */
function instantOf(time: ICAL.Time, tzid: string | null): number {
  if (time.isDate) return zonedToUtc(dayOf(time), 0, firm.timeZone).getTime();
  if (time.zone && time.zone !== ICAL.Timezone.localTimezone) return time.toUnixTime() * 1000;
  const zone = tzid && isTimeZone(tzid) ? tzid : firm.timeZone;
  return zonedToUtc(dayOf(time), time.hour * 60 + time.minute, zone).getTime() + time.second * 1000;
}

/** Free time: TRANSP:TRANSPARENT (Google's and Apple's "free"), Outlook's busy status FREE, or a cancelled event. */
function blocksTime(event: ICAL.Event): boolean {
  const component = event.component;
  const transp = String(component.getFirstPropertyValue('transp') ?? '').toUpperCase();
  const status = String(component.getFirstPropertyValue('status') ?? '').toUpperCase();
  const outlook = String(component.getFirstPropertyValue('x-microsoft-cdo-busystatus') ?? '').toUpperCase();
  return transp !== 'TRANSPARENT' && status !== 'CANCELLED' && outlook !== 'FREE';
}

/** Sorted, overlapping and touching intervals merged. */
function merged(intervals: BusyInterval[]): BusyInterval[] {
  intervals.sort((a, b) => a[0] - b[0]);
  const out: BusyInterval[] = [];
  for (const [start, end] of intervals) {
    const last = out.at(-1);
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else out.push([start, end]);
  }
  return out;
}

/**
 * The busy intervals of an iCalendar text that overlap [from, to) (epoch ms), clipped to it,
 * merged and sorted, and how many events were skipped: a repeat rule that never occurs as ical.js
 * reads it, or that would take it too long to walk (recurrence-guard.ts), or that ical.js refuses.
 * Throws CalendarFetchError when the text is not an iCalendar, or when its expansion passes the
 * calendar's cap of steps or time (then nothing of it is used: a partial copy would open slots the
 * firm is busy in).
 */
export function busyIntervalsOf(text: string, from: number, to: number): { busy: BusyInterval[]; skippedEvents: number } {
  let root: ICAL.Component;
  try {
    root = new ICAL.Component(ICAL.parse(text) as unknown[]);
  } catch {
    throw new CalendarFetchError(BUSY_CALENDAR_MESSAGES.notICalendar);
  }
  if (root.name !== 'vcalendar') throw new CalendarFetchError(BUSY_CALENDAR_MESSAGES.notICalendar);
  const vevents = root.getAllSubcomponents('vevent');
  // RECURRENCE-ID overrides belong to the series with their UID (RFC 5545 3.8.4.4).
  const overrides = new Map<string, ICAL.Component[]>();
  for (const vevent of vevents) {
    if (!vevent.hasProperty('recurrence-id')) continue;
    const uid = String(vevent.getFirstPropertyValue('uid'));
    overrides.set(uid, [...(overrides.get(uid) ?? []), vevent]);
  }
  const masterUids = new Set(vevents.filter((v) => !v.hasProperty('recurrence-id')).map((v) => String(v.getFirstPropertyValue('uid'))));
  const intervals: BusyInterval[] = [];
  const add = (start: ICAL.Time, end: ICAL.Time, item: ICAL.Event) => {
    if (!blocksTime(item)) return;
    const tzid = item.component.getFirstProperty('dtstart')?.getParameter('tzid') ?? null;
    const startMs = instantOf(start, typeof tzid === 'string' ? tzid : null);
    const endMs = instantOf(end, typeof tzid === 'string' ? tzid : null);
    if (endMs <= from || startMs >= to || endMs <= startMs) return;
    intervals.push([Math.max(startMs, from), Math.min(endMs, to)]);
  };
  let steps = 0;
  let skippedEvents = 0;
  // The rules are checked over four years from the horizon's first day (a day's margin for zones).
  const windowStart = Math.floor(from / 86_400_000) - 1;
  const rulesProblem = (vevent: ICAL.Component) =>
    vevent
      .getAllProperties('rrule')
      .some((property) => recurrenceRuleProblem(property.getFirstValue() as ICAL.Recur, windowStart, BUSY_CALENDAR_LIMITS.maxRuleSteps) !== null);
  const expandEvent = (vevent: ICAL.Component) => {
    const uid = String(vevent.getFirstPropertyValue('uid'));
    const isOverride = vevent.hasProperty('recurrence-id');
    // An override of a series the file does carry is expanded with it, below; one without is an event of its own.
    if (isOverride && masterUids.has(uid)) return;
    if (!vevent.hasProperty('dtstart')) return;
    const event = new ICAL.Event(vevent, { strictExceptions: true, exceptions: isOverride ? [] : (overrides.get(uid) ?? []) });
    if (isOverride || !event.isRecurring()) {
      add(event.startDate, event.endDate, event);
      return;
    }
    // Refused before iterating: ical.js would loop for ever, or for minutes (upstream kewisch/ical.js#1038).
    if (rulesProblem(vevent)) {
      skippedEvents++;
      return;
    }
    const iterator = event.iterator();
    for (let next = iterator.next(); next; next = iterator.next()) {
      if (++steps > BUSY_CALENDAR_LIMITS.maxSteps) break;
      // A day's margin: an override may move an occurrence, and a zone's offset is at most 14 hours.
      if (instantOf(next, null) > to + 86_400_000) break;
      const details = event.getOccurrenceDetails(next);
      add(details.startDate, details.endDate, details.item);
    }
  };
  try {
    guardRecurrence({ maxSteps: BUSY_CALENDAR_LIMITS.maxRuleSteps, maxMs: BUSY_CALENDAR_LIMITS.maxExpandMs }, () => {
      for (const vevent of vevents) {
        try {
          expandEvent(vevent);
        } catch (error) {
          if (error instanceof RecurrenceBudgetError) throw error;
          // One event ical.js cannot read (a rule it refuses, a broken date) costs that event, not the calendar.
          skippedEvents++;
        }
      }
    });
  } catch (error) {
    if (error instanceof RecurrenceBudgetError) throw new CalendarFetchError(BUSY_CALENDAR_MESSAGES.tooComplex);
    throw error;
  }
  return { busy: merged(intervals).slice(0, BUSY_CALENDAR_LIMITS.maxIntervals), skippedEvents };
}

/**
 * [from, to) of the booking horizon at `at`: from now to the end of the last bookable day under the
 * admin's horizon (booking rules, up to 730 days), in epoch ms.
 */
export function bookingHorizon(at: Date, horizonDays: number): [number, number] {
  const end = addCalendarDays(lastBookableDay(firmToday(firm.timeZone, at), horizonDays), 1);
  return [at.getTime(), zonedToUtc(end, 0, firm.timeZone).getTime()];
}

/** The instants [start, end) a slot of a firm day occupies, in epoch ms. */
export function slotWindow(date: string, slot: BookingTimeSlot): [number, number] {
  const start = zonedToUtc(date, slotStartMinutes(slot), firm.timeZone).getTime();
  return [start, start + APPOINTMENT_MINUTES * 60_000];
}

/**
 * SQL for "some busy interval overlaps [?start, ?end)", the parameters numbered as given. A null
 * start (a request without a time) overlaps nothing. Shared by the booking's gate and the checks.
 */
export const busyOverlapSql = (start: number, end: number) =>
  `(?${start} IS NOT NULL AND EXISTS (SELECT 1 FROM busy_calendars, json_each(busy_calendars.busy) AS b
     WHERE json_extract(b.value, '$[0]') < ?${end} AND json_extract(b.value, '$[1]') > ?${start}))`;

/** Drizzle's WHERE for "this busy calendar has an interval overlapping [start, end)" (rows of busy_calendars). */
export const busyOverlapping = (start: number, end: number) =>
  sql`EXISTS (SELECT 1 FROM json_each(${busyCalendars.busy}) AS b WHERE json_extract(b.value, '$[0]') < ${end} AND json_extract(b.value, '$[1]') > ${start})`;

/** The busy intervals of every busy calendar that overlap [from, to). */
export async function busyIntervalsBetween(db: Db, from: number, to: number): Promise<BusyInterval[]> {
  const rows = await db.all<{ start: number; end: number }>(
    sql`SELECT json_extract(b.value, '$[0]') AS start, json_extract(b.value, '$[1]') AS end
        FROM busy_calendars, json_each(busy_calendars.busy) AS b
        WHERE json_extract(b.value, '$[0]') < ${to} AND json_extract(b.value, '$[1]') > ${from}`,
  );
  return rows.map((row) => [row.start, row.end]);
}

export const overlapsAny = ([start, end]: [number, number], busy: BusyInterval[]) => busy.some(([s, e]) => s < end && e > start);

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
