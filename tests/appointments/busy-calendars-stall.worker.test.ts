import { env } from 'cloudflare:test';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { firm } from '#core/content/firm';
import { bookingTimeSlots } from '#core/content/booking';
import { addCalendarDays, firmToday, zonedInstant } from '#core/firm-time';
import { getDb } from '../../worker/db/client';
import { refreshBusyCalendar } from '../../worker/services/appointments/busy-calendars';
import { BUSY_CALENDAR_MESSAGES } from '../../worker/services/appointments/calendar-fetch';
import { isPublicHost } from '../../worker/services/appointments/public-address';
import { RULE_WINDOW_DAYS, recurrenceRuleProblem } from '../../worker/services/appointments/recurrence-guard';
import { OUTBOX_GRACE_MS } from '../../worker/services/email/outbox-sweep';
import ICAL from 'ical.js';
import { client, cronTick, okJson, signIn } from '../harness/worker/helpers';
import { nextWeekday } from '../harness/worker/submission-helpers';

// Busy calendars that cannot stall anything (docs/decisions/0019-recurrence-rules-that-cannot-stall.md):
// repeat rules ical.js 2.2.1 cannot walk, the cron's claim and order, and the hosts a calendar may
// be fetched from. Outbound fetches land in a fake at the fetch boundary; nothing reaches a network.

const SERVER = 'https://calendar.test';
const MINUTE = 60_000;

/** Every outbound fetch, recorded; calendar.test answers from `served`, anything else 404 (never the network). */
const fetched: string[] = [];
const served = new Map<string, (request: Request) => Response | Promise<Response>>();
function fakeNetwork() {
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    fetched.push(request.url);
    const handler = served.get(request.url);
    return handler ? handler(request) : new Response('Not found', { status: 404 });
  });
}
afterEach(() => {
  vi.unstubAllGlobals();
  served.clear();
  fetched.length = 0;
});

const compact = (date: string) => date.replaceAll('-', '');
const calendar = (events: string[][]) =>
  ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Test//EN', ...events.flat(), 'END:VCALENDAR'].join('\r\n') + '\r\n';
let uid = 0;
const vevent = (lines: string[]) => ['BEGIN:VEVENT', `UID:stall-${++uid}@test`, 'DTSTAMP:20260101T000000Z', ...lines, 'END:VEVENT'];
/** A one-hour event at 10:00 in New York on `date` (UTC times: 10:00 EST or EDT is 14:00 or 15:00 UTC; the firm zone is New York). */
const tenOClock = (date: string, extra: string[] = []) => vevent([`DTSTART;TZID=America/New_York:${compact(date)}T100000`, `DTEND;TZID=America/New_York:${compact(date)}T110000`, ...extra]);

// The four rules of the review. On ical.js 2.2.1 the first three never return from the iterator's
// next() (no date passes their filters as ical.js compares them: 30 February, 31 April, and a
// negative day, which it compares to the raw day of the month); the fourth occurs, on 29 February,
// but is looked for one second at a time: tens of millions of candidates, minutes of CPU.
const STALLING_RULES = [
  'FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30',
  'FREQ=HOURLY;BYMONTH=4;BYMONTHDAY=31',
  'FREQ=DAILY;BYMONTHDAY=-1',
  'FREQ=SECONDLY;BYMONTH=2;BYMONTHDAY=29',
];

/** A calendar with one event under `rule` (starting a week ago) and one plain event on `day` at 10:00. */
const stallingCalendar = (rule: string, day: string) => {
  const start = compact(addCalendarDays(firmToday(firm.timeZone), -7));
  return calendar([vevent([`DTSTART:${start}T090000Z`, `DTEND:${start}T093000Z`, `RRULE:${rule}`, 'SUMMARY:Never']), tenOClock(day)]);
};

type Availability = { slots: { time: string; available: boolean }[] };
const openSlots = async (date: string) =>
  ((await (await client().api.appointments.availability.$get({ query: { date } })).json()) as Availability).slots.filter((s) => s.available).map((s) => s.time);

async function addSubscribers(n: number) {
  await env.DB.batch(Array.from({ length: n }, (_, i) => env.DB.prepare("INSERT INTO newsletter_subscriptions (email, active) VALUES (?, 'true')").bind(`s${i}@example.com`)));
}

/** A draft scheduled for tomorrow at 09:30 firm time; returns the instant it is due. */
async function scheduledIssue(cookie: string): Promise<number> {
  const date = addCalendarDays(firmToday(firm.timeZone), 1);
  const res = await client({ cookie }).api.admin.newsletter.drafts.$post({ json: { subject: 'Due issue', content: '<p>Hello</p>' } });
  const { draft } = await okJson(res);
  await okJson(await client({ cookie }).api.admin.newsletter.drafts[':id'].schedule.$post({ param: { id: String(draft.id) }, json: { date, time: '09:30' } }));
  return zonedInstant(date, 9 * 60 + 30, firm.timeZone).getTime();
}

const sentIssues = async () => (await env.DB.prepare("SELECT subject, status FROM sent_newsletters WHERE trigger = 'scheduled'").all()).results;

describe('repeat rules that would stall ical.js', () => {
  it.each(STALLING_RULES)('%s: the calendar is read within 1 s, that event skipped, the others kept', async (rule) => {
    fakeNetwork();
    const day = nextWeekday(10);
    served.set(`${SERVER}/stall.ics`, () => new Response(stallingCalendar(rule, day), { headers: { 'content-type': 'text/calendar' } }));
    const cookie = await signIn();
    const started = Date.now();
    const res = await client({ cookie }).api.admin['busy-calendars'].$post({ json: { label: 'Stall', url: `${SERVER}/stall.ics` } });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ lastError: null, busyCount: 1 });
    expect(await openSlots(day)).toEqual(bookingTimeSlots.filter((slot) => slot !== '10:00 AM'));
  });

  it.each(STALLING_RULES)('%s: a cron tick with that calendar returns within 1 s and still sends the due scheduled issue', async (rule) => {
    fakeNetwork();
    await addSubscribers(2);
    const cookie = await signIn();
    const due = await scheduledIssue(cookie);
    served.set(`${SERVER}/stall.ics`, () => new Response(stallingCalendar(rule, nextWeekday(10)), { headers: { 'content-type': 'text/calendar' } }));
    await env.DB.prepare("INSERT INTO busy_calendars (label, url) VALUES ('Stall', ?)").bind(`${SERVER}/stall.ics`).run();
    const started = Date.now();
    await cronTick(due);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(await sentIssues()).toEqual([{ subject: 'Due issue', status: 'sent' }]);
    expect(fetched).toEqual([`${SERVER}/stall.ics`]);
    expect(await env.DB.prepare('SELECT last_error, last_success_at IS NOT NULL AS read FROM busy_calendars').first()).toEqual({ last_error: null, read: 1 });
  });

  it('the pure check refuses exactly the rules that can never occur, or cost too much, and passes ordinary ones', () => {
    const start = Math.floor(Date.UTC(2026, 0, 5) / 86_400_000);
    const check = (rule: string) => recurrenceRuleProblem(ICAL.Recur.fromString(rule), start, 50_000);
    for (const rule of ['FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30', 'FREQ=HOURLY;BYMONTH=4;BYMONTHDAY=31', 'FREQ=DAILY;BYMONTHDAY=-1', 'FREQ=DAILY;BYDAY=1MO', 'FREQ=MONTHLY;BYMONTH=6;BYMONTHDAY=31', 'FREQ=YEARLY;BYMONTH=4;BYMONTHDAY=31', 'FREQ=MONTHLY;BYMONTH=2;BYDAY=5MO;BYMONTHDAY=1', 'FREQ=DAILY;BYMONTHDAY=0']) {
      expect(check(rule), rule).toBe('never');
    }
    for (const rule of ['FREQ=SECONDLY;BYMONTH=2;BYMONTHDAY=29', 'FREQ=MINUTELY;BYMONTH=2;BYMONTHDAY=29', 'FREQ=SECONDLY;BYDAY=MO']) expect(check(rule), rule).toBe('too-costly');
    for (const rule of [
      'FREQ=WEEKLY;BYDAY=MO,WE,FR',
      'FREQ=DAILY;INTERVAL=2',
      'FREQ=MONTHLY;BYMONTHDAY=-1',
      'FREQ=MONTHLY;BYDAY=-1FR',
      'FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29',
      'FREQ=DAILY;BYMONTH=2;BYMONTHDAY=29',
      'FREQ=HOURLY;BYMONTH=2;BYMONTHDAY=29',
      'FREQ=MINUTELY;INTERVAL=30;BYHOUR=9,10,11,12,13,14,15,16;BYDAY=MO,TU,WE,TH,FR',
      'FREQ=YEARLY;BYDAY=20MO',
    ]) {
      expect(check(rule), rule).toBeNull();
    }
    // Any four years hold a 29 February: the window is what makes the check hold for every start.
    expect(RULE_WINDOW_DAYS).toBe(1461);
  });
});

describe('the cron and the busy calendars', () => {
  it('claims a calendar before fetching it, so one whose reading dies waits its interval like a failing one', async () => {
    fakeNetwork();
    const at = Date.now();
    const claimSeen: unknown[] = [];
    served.set(`${SERVER}/claimed.ics`, async () => {
      claimSeen.push(await env.DB.prepare('SELECT last_fetch_at FROM busy_calendars').first('last_fetch_at'));
      return new Response('down', { status: 503 });
    });
    await env.DB.prepare("INSERT INTO busy_calendars (label, url) VALUES ('Claimed', ?)").bind(`${SERVER}/claimed.ics`).run();
    await cronTick(at);
    // While the calendar was being fetched (and so before it was parsed) its fetch was already on record.
    expect(claimSeen).toHaveLength(1);
    expect(claimSeen[0]).not.toBeNull();
    await cronTick(at + 14 * MINUTE);
    expect(fetched).toHaveLength(1);
    await cronTick(at + 15 * MINUTE + 1000);
    expect(fetched).toHaveLength(2);
  });

  it('reads the busy calendars after the outbox sweep and the newsletter have had their turn', async () => {
    fakeNetwork();
    await addSubscribers(1);
    const cookie = await signIn();
    const due = await scheduledIssue(cookie);
    const old = due - OUTBOX_GRACE_MS - MINUTE;
    await env.DB.prepare(
      "INSERT INTO email_log (\"to\", subject, kind, status, transport, text_body, created_at, updated_at) VALUES ('visitor@example.com', 'Queued', 'contact-notification', 'queued', 'outbox', 'Body', ?1, ?1)",
    )
      .bind(old)
      .run();
    const seen: unknown[] = [];
    served.set(`${SERVER}/last.ics`, async () => {
      seen.push({
        outbox: await env.DB.prepare("SELECT status FROM email_log WHERE \"to\" = 'visitor@example.com'").first('status'),
        issues: (await sentIssues()).length,
      });
      return new Response(calendar([tenOClock(nextWeekday(10))]), { headers: { 'content-type': 'text/calendar' } });
    });
    await env.DB.prepare("INSERT INTO busy_calendars (label, url) VALUES ('Last', ?)").bind(`${SERVER}/last.ics`).run();
    await cronTick(due);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ issues: 1 });
    expect((seen[0] as { outbox: string }).outbox).not.toBe('queued');
  });
});

describe('addresses that are not the public internet', () => {
  const REFUSED = [
    'https://10.0.0.5/cal.ics',
    'https://192.168.1.1/cal.ics',
    'https://169.254.169.254/latest/meta-data/',
    'https://100.64.0.1/cal.ics',
    'https://0.0.0.0/cal.ics',
    'https://3232235777/cal.ics', // 192.168.1.1 in decimal
    'https://0xa9.0xfe.0xa9.0xfe/cal.ics', // 169.254.169.254 in hex
    'https://10.1/cal.ics', // 10.0.0.1, short form
    'https://0251.0376.0251.0376/cal.ics', // 169.254.169.254 in octal
    'https://[::ffff:169.254.169.254]/cal.ics', // IPv4-mapped
    'https://[::ffff:a00:1]/cal.ics',
    'https://[fd12:3456::1]/cal.ics',
    'https://[fe80::1]/cal.ics',
    'https://[::]/cal.ics',
    'https://metadata.google.internal/computeMetadata/v1/',
    'https://metadata/cal.ics',
    'https://printer.local/cal.ics',
    'https://router.home.arpa/cal.ics',
    'https://10.0.0.5.nip.io/cal.ics',
    'https://app-192-168-0-1.sslip.io/cal.ics',
  ];

  it.each(REFUSED)('%s is refused with the one generic message, nothing stored or fetched', async (url) => {
    fakeNetwork();
    const res = await client({ cookie: await signIn() }).api.admin['busy-calendars'].$post({ json: { label: 'Inside', url } });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { fields: Record<string, string[]> }).fields.url).toEqual([BUSY_CALENDAR_MESSAGES.notPublic]);
    expect(await env.DB.prepare('SELECT count(*) AS n FROM busy_calendars').first('n')).toBe(0);
    expect(fetched).toEqual([]);
  });

  it('a redirect to a private or metadata address is refused before that hop is fetched', async () => {
    fakeNetwork();
    const targets = ['https://169.254.169.254/latest/meta-data/', 'https://[::ffff:7f00:1]/', 'https://localhost/cal.ics', 'http://127.0.0.1:9/cal.ics'];
    targets.forEach((location, i) => served.set(`${SERVER}/hop${i}`, () => new Response(null, { status: 302, headers: { location } })));
    const db = getDb(env.DB);
    for (const [i, target] of targets.entries()) {
      await env.DB.prepare('INSERT INTO busy_calendars (id, label, url) VALUES (?, ?, ?)').bind(i + 1, 'Hop', `${SERVER}/hop${i}`).run();
      // As production: neither the request nor SITE_URL is on this machine.
      expect(await refreshBusyCalendar(env, db, { id: i + 1, url: `${SERVER}/hop${i}` })).toMatchObject({ ok: false });
      const message = target.startsWith('http:') ? BUSY_CALENDAR_MESSAGES.redirectHttps : BUSY_CALENDAR_MESSAGES.notPublic;
      expect(await env.DB.prepare('SELECT last_error FROM busy_calendars WHERE id = ?').bind(i + 1).first('last_error')).toBe(message);
    }
    expect(fetched).toEqual(targets.map((_, i) => `${SERVER}/hop${i}`));
  });

  it('this machine only in local development: the cron in production refuses https://localhost, the local stack reads it', async () => {
    fakeNetwork();
    const day = nextWeekday(10);
    served.set('https://localhost/cal.ics', () => new Response(calendar([tenOClock(day)]), { headers: { 'content-type': 'text/calendar' } }));
    await env.DB.prepare("INSERT INTO busy_calendars (label, url) VALUES ('Local', 'https://localhost/cal.ics')").run();
    const at = Date.now();
    await cronTick(at); // wrangler.jsonc's SITE_URL: the firm's domain, production
    expect(fetched).toEqual([]);
    expect(await env.DB.prepare('SELECT last_error FROM busy_calendars').first('last_error')).toBe(BUSY_CALENDAR_MESSAGES.notPublic);
    await cronTick(at + 16 * MINUTE, { ...env, SITE_URL: 'http://localhost:8787' }); // what `npm start` sets
    expect(fetched).toEqual(['https://localhost/cal.ics']);
    expect(await env.DB.prepare('SELECT last_error, last_success_at IS NOT NULL AS read FROM busy_calendars').first()).toEqual({ last_error: null, read: 1 });
  });

  it('isPublicHost reads hostnames as the URL parser gives them, loopback in every form refused', () => {
    const host = (url: string) => new URL(url).hostname;
    const loopback = ['https://localhost/x', 'https://LOCALHOST./x', 'https://api.localhost/x', 'https://127.0.0.1/x', 'https://2130706433/x', 'https://0x7f.1/x', 'https://127.1/x', 'https://[::1]/x', 'https://[::ffff:127.0.0.1]/x', 'https://[0:0:0:0:0:ffff:7f00:1]/x'];
    for (const url of [...REFUSED, ...loopback]) expect(isPublicHost(host(url)), url).toBe(false);
    for (const url of ['https://calendar.google.com/x', 'https://outlook.office365.com/x', 'https://p01-caldav.icloud.com/x', 'https://8.8.8.8/x', 'https://[2606:4700::1111]/x', 'https://calendar.test/x']) {
      expect(isPublicHost(host(url)), url).toBe(true);
    }
  });
});
