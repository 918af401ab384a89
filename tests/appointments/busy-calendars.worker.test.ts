import { env } from 'cloudflare:test';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BOOKING_RULE_DEFAULTS, bookingTimeSlots } from '#core/content/booking';
import { BOOKING_MESSAGES } from '#core/schemas/appointments';
import { addCalendarDays, weekdayOf } from '#core/firm-time';
import { getDb } from '../../worker/db/client';
import { refreshBusyCalendar } from '../../worker/services/appointments/busy-calendars';
import { BUSY_CALENDAR_LIMITS, BUSY_CALENDAR_MESSAGES } from '../../worker/services/appointments/calendar-fetch';
import { vtimezoneFor } from '../../worker/services/appointments/ics';
import { call, client, cronTick, okJson, signIn } from '../harness/worker/helpers';
import { nextWeekday, validBooking, visitorIp } from '../harness/worker/submission-helpers';

// The firm's busy calendars (docs/product.md §6.4) against a fake calendar server at the fetch
// boundary: the worker's own fetching, parsing (ical.js) and availability run for real; its
// outbound fetches to https://calendar.test land here. No test reaches the internet.

const SERVER = 'https://calendar.test';

type Served = { status?: number; body?: string | ReadableStream; headers?: Record<string, string> } | 'hang';
const served = new Map<string, Served | ((n: number) => Served)>();
const hits = new Map<string, number>();

function fakeCalendarServer() {
  const realFetch = globalThis.fetch;
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    if (!request.url.startsWith(SERVER) && !request.url.startsWith('http://127.0.0.1:9')) return realFetch(input, init);
    const path = request.url.replace(/^https?:\/\/[^/]+/, '');
    const n = (hits.get(path) ?? 0) + 1;
    hits.set(path, n);
    // The worker must follow redirects itself, each hop re-checked.
    expect(request.redirect).toBe('manual');
    const entry = served.get(path);
    const answer = typeof entry === 'function' ? entry(n) : entry;
    if (!answer) return new Response('Not found', { status: 404 });
    if (answer === 'hang') {
      return new Promise<Response>((_, reject) => request.signal.addEventListener('abort', () => reject(request.signal.reason)));
    }
    return new Response(answer.body ?? '', { status: answer.status ?? 200, headers: { 'content-type': 'text/calendar', ...answer.headers } });
  });
}

afterEach(() => {
  vi.unstubAllGlobals();
  served.clear();
  hits.clear();
});

const LOS_ANGELES = [
  'BEGIN:VTIMEZONE',
  'TZID:America/Los_Angeles',
  'BEGIN:DAYLIGHT',
  'TZOFFSETFROM:-0800',
  'TZOFFSETTO:-0700',
  'TZNAME:PDT',
  'DTSTART:20070311T020000',
  'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU',
  'END:DAYLIGHT',
  'BEGIN:STANDARD',
  'TZOFFSETFROM:-0700',
  'TZOFFSETTO:-0800',
  'TZNAME:PST',
  'DTSTART:20071104T020000',
  'RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU',
  'END:STANDARD',
  'END:VTIMEZONE',
];

const compact = (date: string) => date.replaceAll('-', '');

/** An .ics as Google Calendar's secret address serves it: the zones it uses, then the events. */
const calendar = (events: string[][], zones: readonly (readonly string[])[] = [vtimezoneFor('America/New_York')!]) =>
  ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Google Inc//Google Calendar 70.9054//EN', ...zones.flat(), ...events.flat(), 'END:VCALENDAR'].join('\r\n') + '\r\n';

let uidCount = 0;
const vevent = (lines: string[], uid = `event-${++uidCount}@google.com`) => ['BEGIN:VEVENT', `UID:${uid}`, 'DTSTAMP:20261101T120000Z', ...lines, 'END:VEVENT'];

/** A timed event in New York from hh:mm for `minutes`. */
const nyEvent = (date: string, hhmm: string, minutes: number, extra: string[] = []) => {
  const start = new Date(`2000-01-01T${hhmm}:00Z`);
  const end = new Date(start.getTime() + minutes * 60_000);
  const t = (d: Date) => `${String(d.getUTCHours()).padStart(2, '0')}${String(d.getUTCMinutes()).padStart(2, '0')}00`;
  return vevent([`DTSTART;TZID=America/New_York:${compact(date)}T${t(start)}`, `DTEND;TZID=America/New_York:${compact(date)}T${t(end)}`, ...extra]);
};

type Availability = { slots: { time: string; available: boolean }[] };
const openSlots = async (date: string) =>
  ((await (await client().api.appointments.availability.$get({ query: { date } })).json()) as Availability).slots.filter((s) => s.available).map((s) => s.time);
const allBut = (...closed: string[]) => bookingTimeSlots.filter((slot) => !closed.includes(slot));

type View = { id: number; label: string; address: string; busyCount: number; lastSuccessAt: string | null; lastError: string | null; lastErrorAt: string | null };

async function addCalendar(cookie: string, path: string, label = 'Dana (Google)') {
  const res = await client({ cookie }).api.admin['busy-calendars'].$post({ json: { label, url: `${SERVER}${path}` } });
  return { status: res.status, body: (await res.json()) as View & { message?: string; fields?: Record<string, string[]> } };
}

/** The Monday of the week before the next daylight-saving change in New York (within the horizon). */
function mondayBeforeNextDstChange(): { before: string; after: string } {
  const today = nextWeekday(1);
  for (let year = Number(today.slice(0, 4)); ; year++) {
    const sundays = (month: number) => {
      const days: string[] = [];
      for (let d = 1; d <= 14; d++) {
        const date = `${year}-${String(month).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
        if (weekdayOf(date) === 0) days.push(date);
      }
      return days;
    };
    // Second Sunday of March, first Sunday of November (US rules since 2007).
    for (const change of [sundays(3)[1], sundays(11)[0]]) {
      const before = addCalendarDays(change, -6);
      if (before > today) return { before, after: addCalendarDays(change, 1) };
    }
  }
}

describe('admin busy calendar endpoints', () => {
  it.each([
    ['GET', '/api/admin/busy-calendars', undefined],
    ['POST', '/api/admin/busy-calendars', { label: 'x', url: `${SERVER}/a.ics` }],
    ['POST', '/api/admin/busy-calendars/1/refresh', undefined],
    ['DELETE', '/api/admin/busy-calendars/1', undefined],
  ])('answer 401 to %s %s without a session, and store nothing', async (method, path, body) => {
    fakeCalendarServer();
    // Raw call: the path comes from a table of routes, which the typed client cannot address by string.
    const res = await call(path, { method, body });
    expect(res.status).toBe(401);
    expect(await env.DB.prepare('SELECT count(*) AS n FROM busy_calendars').first('n')).toBe(0);
    expect(hits.size).toBe(0);
  });

  it('refuses a label or address that is missing or not an iCal address, with field messages', async () => {
    const cookie = await signIn();
    const missing = await client({ cookie }).api.admin['busy-calendars'].$post({ json: { label: ' ', url: 'not a url' } });
    expect(missing.status).toBe(400);
    const body = (await missing.json()) as { fields: Record<string, string[]> };
    expect(Object.keys(body.fields).sort()).toEqual(['label', 'url']);
  });

  it('refuses plain http to anything but this machine: 400, nothing stored, nothing fetched', async () => {
    fakeCalendarServer();
    const cookie = await signIn();
    const res = await client({ cookie }).api.admin['busy-calendars'].$post({ json: { label: 'Plain', url: 'http://calendar.test/a.ics' } });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { fields: Record<string, string[]> }).fields.url).toEqual([BUSY_CALENDAR_MESSAGES.https]);
    expect(await env.DB.prepare('SELECT count(*) AS n FROM busy_calendars').first('n')).toBe(0);
    expect(hits.size).toBe(0);
    // And http to localhost only where local development allows it (never in production).
    const row = { id: 1, url: 'http://127.0.0.1:9/a.ics' };
    await env.DB.prepare("INSERT INTO busy_calendars (id, label, url) VALUES (1, 'Local', ?)").bind(row.url).run();
    expect(await refreshBusyCalendar(env, getDb(env.DB), row, { localDevelopment: false })).toMatchObject({ ok: false });
    expect(await env.DB.prepare('SELECT last_error FROM busy_calendars').first('last_error')).toBe(BUSY_CALENDAR_MESSAGES.https);
    expect(hits.size).toBe(0);
  });

  it('fetches a new address at once, lists it without the secret path, and Remove reopens its slots', async () => {
    fakeCalendarServer();
    const date = nextWeekday(10);
    served.set('/private-abc123/basic.ics', { body: calendar([nyEvent(date, '10:30', 60)]) });
    const cookie = await signIn();
    const added = await addCalendar(cookie, '/private-abc123/basic.ics');
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ label: 'Dana (Google)', address: 'https://calendar.test/…', busyCount: 1, lastError: null, lastSuccessAt: expect.any(String) });
    expect(hits.get('/private-abc123/basic.ics')).toBe(1);
    // 10:30 to 11:30 overlaps the 10:00 and the 11:00 slot, exactly those.
    expect(await openSlots(date)).toEqual(allBut('10:00 AM', '11:00 AM'));
    const list = await (await client({ cookie }).api.admin['busy-calendars'].$get()).text();
    expect(list).not.toContain('private-abc123');
    expect((await client({ cookie }).api.admin['busy-calendars'][':id'].$delete({ param: { id: String(added.body.id) } })).status).toBe(204);
    expect(await openSlots(date)).toEqual([...bookingTimeSlots]);
  });
});

describe('busy events close exactly the slots they overlap', () => {
  it('a weekly recurring event with an EXDATE and a RECURRENCE-ID override', async () => {
    fakeCalendarServer();
    const first = nextWeekday(8);
    const week = (n: number) => addCalendarDays(first, 7 * n);
    const uid = 'weekly-standup@google.com';
    served.set('/weekly.ics', {
      body: calendar([
        vevent(
          [
            `DTSTART;TZID=America/New_York:${compact(first)}T100000`,
            `DTEND;TZID=America/New_York:${compact(first)}T103000`,
            'RRULE:FREQ=WEEKLY;COUNT=4',
            `EXDATE;TZID=America/New_York:${compact(week(1))}T100000`,
            'SUMMARY:Standup',
          ],
          uid,
        ),
        // The third week's standup moved to 2 PM.
        vevent([`RECURRENCE-ID;TZID=America/New_York:${compact(week(2))}T100000`, `DTSTART;TZID=America/New_York:${compact(week(2))}T140000`, `DTEND;TZID=America/New_York:${compact(week(2))}T143000`], uid),
      ]),
    });
    expect((await addCalendar(await signIn(), '/weekly.ics')).status).toBe(201);
    expect(await openSlots(week(0))).toEqual(allBut('10:00 AM'));
    expect(await openSlots(week(1))).toEqual([...bookingTimeSlots]);
    expect(await openSlots(week(2))).toEqual(allBut('2:00 PM'));
    expect(await openSlots(week(3))).toEqual(allBut('10:00 AM'));
    expect(await openSlots(week(4))).toEqual([...bookingTimeSlots]);
  });

  it('an all-day event closes the whole firm day and not the next', async () => {
    fakeCalendarServer();
    const day = nextWeekday(9);
    const next = addCalendarDays(day, 1);
    served.set('/all-day.ics', { body: calendar([vevent([`DTSTART;VALUE=DATE:${compact(day)}`, `DTEND;VALUE=DATE:${compact(next)}`, 'SUMMARY:Dentist'])]) });
    expect((await addCalendar(await signIn(), '/all-day.ics')).status).toBe(201);
    expect(await openSlots(day)).toEqual([]);
    if (weekdayOf(next) !== 0 && weekdayOf(next) !== 6) expect(await openSlots(next)).toEqual([...bookingTimeSlots]);
  });

  it('an event in another zone (TZID America/Los_Angeles) closes the firm’s slot at the same instant', async () => {
    fakeCalendarServer();
    const day = nextWeekday(11);
    // 8:00 to 9:00 in Los Angeles is 11:00 to 12:00 in New York.
    served.set('/la.ics', {
      body: calendar(
        [vevent([`DTSTART;TZID=America/Los_Angeles:${compact(day)}T080000`, `DTEND;TZID=America/Los_Angeles:${compact(day)}T090000`])],
        [vtimezoneFor('America/New_York')!, LOS_ANGELES],
      ),
    });
    expect((await addCalendar(await signIn(), '/la.ics')).status).toBe(201);
    expect(await openSlots(day)).toEqual(allBut('11:00 AM'));
  });

  it('a weekly event across a daylight-saving change keeps its wall-clock hour', async () => {
    fakeCalendarServer();
    const { before, after } = mondayBeforeNextDstChange();
    served.set('/dst.ics', {
      body: calendar([vevent([`DTSTART;TZID=America/New_York:${compact(before)}T090000`, `DTEND;TZID=America/New_York:${compact(before)}T100000`, 'RRULE:FREQ=WEEKLY;COUNT=2'])]),
    });
    expect((await addCalendar(await signIn(), '/dst.ics')).status).toBe(201);
    expect(await openSlots(before)).toEqual(allBut('9:00 AM'));
    expect(await openSlots(after)).toEqual(allBut('9:00 AM'));
  });

  it('reads as far ahead as the booking horizon the admin set, not a fixed year', async () => {
    fakeCalendarServer();
    const cookie = await signIn();
    const rules = await client({ cookie }).api.admin['booking-rules'].$put({ json: { ...BOOKING_RULE_DEFAULTS, horizonDays: 730 } });
    expect(rules.status).toBe(200);
    const far = nextWeekday(600);
    served.set('/far.ics', { body: calendar([nyEvent(far, '11:00', 60)]) });
    expect((await addCalendar(cookie, '/far.ics')).status).toBe(201);
    expect(await openSlots(far)).toEqual(allBut('11:00 AM'));
  });

  it('a free (TRANSP:TRANSPARENT) or cancelled event blocks nothing', async () => {
    fakeCalendarServer();
    const day = nextWeekday(12);
    served.set('/free.ics', {
      body: calendar([nyEvent(day, '15:00', 60, ['TRANSP:TRANSPARENT']), nyEvent(day, '09:00', 60, ['STATUS:CANCELLED']), nyEvent(day, '13:00', 30, ['TRANSP:OPAQUE'])]),
    });
    expect((await addCalendar(await signIn(), '/free.ics')).status).toBe(201);
    expect(await openSlots(day)).toEqual(allBut('1:00 PM'));
  });

  it('the booking POST answers 409 with the taken-slot message for a busy slot, and stores nothing', async () => {
    fakeCalendarServer();
    const day = nextWeekday(13);
    served.set('/busy.ics', { body: calendar([nyEvent(day, '10:15', 30)]) });
    expect((await addCalendar(await signIn(), '/busy.ics')).status).toBe(201);
    const refused = await client({ ip: visitorIp(1) }).api.appointments.$post({ json: validBooking(day, { timeSlot: '10:00 AM' }) });
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { message: string }).message).toBe(BOOKING_MESSAGES.taken);
    expect(await env.DB.prepare('SELECT count(*) AS n FROM appointments').first('n')).toBe(0);
    // The hour after is free; a request without a time holds no slot and is not refused.
    expect((await client({ ip: visitorIp(2) }).api.appointments.$post({ json: validBooking(day, { timeSlot: '11:00 AM' }) })).status).toBe(201);
    const noTime = await client({ ip: visitorIp(3) }).api.appointments.$post({ json: validBooking(day, { timeSlot: null, email: 'b@example.com' }) });
    expect(noTime.status).toBe(201);
    // The admin cannot confirm that request at the busy hour either (the same rule, availabilityRefusal).
    const { id } = await okJson(noTime);
    const confirm = await client({ cookie: await signIn() }).api.admin.appointments[':id'].$patch({ param: { id: String(id) }, json: { status: 'confirmed', timeSlot: '10:00 AM' } });
    expect(confirm.status).toBe(409);
    expect(((await confirm.json()) as { message: string }).message).toBe(BOOKING_MESSAGES.taken);
  });
});

describe('fetching', () => {
  it('a failed refresh keeps the last good copy and records the error; the next success clears it', async () => {
    fakeCalendarServer();
    const day = nextWeekday(10);
    let failing = false;
    served.set('/flaky.ics', () => (failing ? { status: 503, body: 'down' } : { body: calendar([nyEvent(day, '09:00', 60)]) }));
    const cookie = await signIn();
    const { body: added } = await addCalendar(cookie, '/flaky.ics');
    failing = true;
    const failed = (await (await client({ cookie }).api.admin['busy-calendars'][':id'].refresh.$post({ param: { id: String(added.id) } })).json()) as View;
    expect(failed).toMatchObject({ lastError: 'The calendar server answered 503', lastErrorAt: expect.any(String), lastSuccessAt: added.lastSuccessAt, busyCount: 1 });
    expect(await openSlots(day)).toEqual(allBut('9:00 AM'));
    failing = false;
    const recovered = (await (await client({ cookie }).api.admin['busy-calendars'][':id'].refresh.$post({ param: { id: String(added.id) } })).json()) as View;
    expect(recovered).toMatchObject({ lastError: null, lastErrorAt: null });
    expect(recovered.lastSuccessAt! > added.lastSuccessAt!).toBe(true);
  });

  it('an address that does not answer within the timeout is an error, the copy kept', async () => {
    fakeCalendarServer();
    served.set('/slow.ics', 'hang');
    await env.DB.prepare("INSERT INTO busy_calendars (id, label, url, busy) VALUES (1, 'Slow', ?, '[[1,2]]')").bind(`${SERVER}/slow.ics`).run();
    const result = await refreshBusyCalendar({ ...env, CALENDAR_FETCH_TIMEOUT_MS: '200' }, getDb(env.DB), { id: 1, url: `${SERVER}/slow.ics` });
    expect(result.ok).toBe(false);
    expect(await env.DB.prepare('SELECT last_error, busy FROM busy_calendars').first()).toEqual({ last_error: BUSY_CALENDAR_MESSAGES.timeout, busy: '[[1,2]]' });
  });

  it('a body over the size cap is refused while it streams (whatever Content-Length says)', async () => {
    fakeCalendarServer();
    const chunk = new TextEncoder().encode('X'.repeat(64 * 1024));
    let sent = 0;
    served.set('/huge.ics', () => ({
      body: new ReadableStream({
        pull(controller) {
          if (sent > BUSY_CALENDAR_LIMITS.maxBytes + chunk.byteLength) controller.close();
          else {
            sent += chunk.byteLength;
            controller.enqueue(chunk);
          }
        },
      }),
    }));
    served.set('/declared.ics', { body: 'BEGIN:VCALENDAR', headers: { 'content-length': String(BUSY_CALENDAR_LIMITS.maxBytes + 1) } });
    const cookie = await signIn();
    expect((await addCalendar(cookie, '/huge.ics')).body).toMatchObject({ lastError: BUSY_CALENDAR_MESSAGES.tooLarge, lastSuccessAt: null, busyCount: 0 });
    expect(sent).toBeLessThanOrEqual(BUSY_CALENDAR_LIMITS.maxBytes + 2 * chunk.byteLength);
    expect((await addCalendar(cookie, '/declared.ics')).body).toMatchObject({ lastError: BUSY_CALENDAR_MESSAGES.tooLarge });
  });

  it('follows at most three redirects, each re-checked: a fourth, or one to plain http, is refused', async () => {
    fakeCalendarServer();
    const day = nextWeekday(10);
    served.set('/cal.ics', { body: calendar([nyEvent(day, '16:00', 60)]) });
    for (let i = 1; i <= 4; i++) served.set(`/r${i}`, { status: i % 2 ? 302 : 301, headers: { location: i === 4 ? '/cal.ics' : `${SERVER}/r${i + 1}` } });
    served.set('/to-http', { status: 307, headers: { location: 'http://calendar.test/cal.ics' } });
    const cookie = await signIn();
    expect((await addCalendar(cookie, '/r2')).body).toMatchObject({ lastError: null, busyCount: 1 });
    expect((await addCalendar(cookie, '/r1')).body).toMatchObject({ lastError: BUSY_CALENDAR_MESSAGES.tooManyRedirects, busyCount: 0 });
    expect((await addCalendar(cookie, '/to-http')).body).toMatchObject({ lastError: BUSY_CALENDAR_MESSAGES.redirectHttps });
    expect(await openSlots(day)).toEqual(allBut('4:00 PM'));
  });

  it('something that is not an iCalendar is an error, not an empty calendar', async () => {
    fakeCalendarServer();
    served.set('/login.html', { body: '<!doctype html><title>Sign in</title>' });
    expect((await addCalendar(await signIn(), '/login.html')).body).toMatchObject({ lastError: BUSY_CALENDAR_MESSAGES.notICalendar, lastSuccessAt: null });
  });

  it('the cron fetches each address at most every 15 minutes', async () => {
    fakeCalendarServer();
    const day = nextWeekday(10);
    served.set('/cron.ics', { body: calendar([nyEvent(day, '09:00', 60)]) });
    await env.DB.prepare("INSERT INTO busy_calendars (label, url) VALUES ('Cron', ?)").bind(`${SERVER}/cron.ics`).run();
    const start = Date.now();
    await cronTick(start);
    expect(hits.get('/cron.ics')).toBe(1);
    expect(await openSlots(day)).toEqual(allBut('9:00 AM'));
    await cronTick(start + 14 * 60_000);
    expect(hits.get('/cron.ics')).toBe(1);
    await cronTick(start + 15 * 60_000 + 1);
    expect(hits.get('/cron.ics')).toBe(2);
  });
});
