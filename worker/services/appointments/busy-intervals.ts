import ICAL from 'ical.js';
import { sql } from 'drizzle-orm';
import { firm } from '#core/content/firm';
import { addCalendarDays, firmToday } from '#core/firm-time';
import { lastBookableDay, slotStartMinutes } from '#core/schemas/appointments';
import type { BookingTimeSlot } from '#core/content/booking';
import type { Db } from '../../db/client';
import { busyCalendars, type BusyInterval } from '../../db/schema';
import { pad, zonedToUtc } from './ics';
import { BUSY_CALENDAR_LIMITS, BUSY_CALENDAR_MESSAGES, CalendarFetchError } from './calendar-fetch';
import { guardRecurrence, RecurrenceBudgetError, recurrenceRuleProblem } from './recurrence-guard';

// A busy calendar's iCalendar text as busy time (./busy-calendars.ts): its events expanded with
// ical.js into merged intervals within the booking horizon, under the caps of
// docs/decisions/0019-recurrence-rules-that-cannot-stall.md, and the queries that tell whether a
// slot overlaps the stored busy time.

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

/** An appointment holds its hour: the slots are an hour apart (docs/product.md §3). */
export const APPOINTMENT_MINUTES = 60;

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
