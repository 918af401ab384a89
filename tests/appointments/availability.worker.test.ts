import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { bookingTimeSlots } from '#core/content/booking';
import { AVAILABILITY_INPUT_MESSAGES, AVAILABILITY_LIMITS, CLOSED_DAYS_MAX_SPAN_DAYS } from '#core/schemas/availability';
import { AVAILABILITY_MESSAGES } from '../../worker/services/appointments/availability';
import { weekdayOf } from '#core/firm-time';
import { slotWindow } from '../../worker/services/appointments/busy-intervals';
import { addDays } from '../harness/calendar-days';
import { call, client, okJson, signIn } from '../harness/worker/helpers';
import { callWithEnv, nextSaturday, nextWeekday, visitorIp } from '../harness/worker/submission-helpers';

const date = nextWeekday(7);
const WEEKDAY_NAMES = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;
const weekdayName = WEEKDAY_NAMES[weekdayOf(date)];
const booking = { name: 'Sam Client', email: 'sam@example.com', serviceType: 'Individual Tax Return', date, timeSlot: '10:00 AM' } as const;
const allSlots = [...bookingTimeSlots];
const fullWeek = { monday: allSlots, tuesday: allSlots, wednesday: allSlots, thursday: allSlots, friday: allSlots };

type Body = { message: string; fields?: Record<string, string[]> };
type Availability = { date: string; closed: boolean; reason: string | null; slots: { time: string; available: boolean }[] };
type AdminView = {
  weekdays: Record<string, string[]>;
  blockedDates: { date: string; reason: string | null; appointments: { id: number; name: string; timeSlot: string; status: string }[] }[];
};

const count = async (sql: string) => (await env.DB.prepare(sql).first<{ n: number }>())!.n;
const availability = async (day = date) => (await (await client().api.appointments.availability.$get({ query: { date: day } })).json()) as Availability;
// Raw call: some tests block with bodies the validator refuses, which the typed client would not compile.
const block = (cookie: string, body: unknown) => call('/api/admin/blocked-dates', { cookie, body });

describe('admin availability endpoints', () => {
  it.each([
    ['GET', '/api/admin/availability', undefined],
    ['PUT', '/api/admin/availability', { weekdays: fullWeek }],
    ['POST', '/api/admin/blocked-dates', { date }],
    ['DELETE', `/api/admin/blocked-dates/${date}`, undefined],
  ])('answers 401 to %s %s without a session, and changes nothing', async (method, path, body) => {
    // Raw call: the path comes from a table of routes, which the typed client cannot address by string.
    const res = await call(path, { method, body });
    expect(res.status).toBe(401);
    expect(await count('SELECT count(*) AS n FROM blocked_dates')).toBe(0);
    expect(await count('SELECT count(*) AS n FROM weekday_slots')).toBe(35);
  });

  it('GET lists the seeded week (every slot, Monday to Friday) and no blocked dates', async () => {
    const res = await client({ cookie: await signIn() }).api.admin.availability.$get();
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ weekdays: fullWeek, blockedDates: [] });
  });

  it('PUT replaces the weekly offer; the GET and the public availability follow it', async () => {
    const cookie = await signIn();
    // A day closed all week, never the test date's own weekday (seven days ahead of a Friday is a Friday).
    const closed = weekdayName === 'friday' ? 'thursday' : 'friday';
    const weekdays = { ...fullWeek, monday: ['9:00 AM', '4:00 PM'], [weekdayName]: ['2:00 PM', '9:00 AM'], [closed]: [] };
    // Raw call: a computed weekday key widens the body's type past what the typed client accepts.
    const res = await call('/api/admin/availability', { method: 'PUT', cookie, body: { weekdays } });
    expect(res.status).toBe(200);
    const view = (await res.json()) as AdminView;
    // Stored and answered in the booking form's order, whatever order was sent.
    expect(view.weekdays[weekdayName]).toEqual(['9:00 AM', '2:00 PM']);
    expect(view.weekdays[closed]).toEqual([]);
    expect(((await (await client({ cookie }).api.admin.availability.$get()).json()) as AdminView).weekdays).toEqual(view.weekdays);
    expect(await count(`SELECT count(*) AS n FROM weekday_slots WHERE weekday = ${WEEKDAY_NAMES.indexOf(closed)}`)).toBe(0);

    const day = await availability();
    expect(day.closed).toBe(false);
    expect(day.slots.map((s) => s.time)).toEqual(allSlots);
    expect(day.slots.filter((s) => s.available).map((s) => s.time)).toEqual(['9:00 AM', '2:00 PM']);
  });

  it('PUT with every weekday empty closes the week', async () => {
    const cookie = await signIn();
    const none = { monday: [], tuesday: [], wednesday: [], thursday: [], friday: [] };
    expect((await client({ cookie }).api.admin.availability.$put({ json: { weekdays: none } })).status).toBe(200);
    expect(await count('SELECT count(*) AS n FROM weekday_slots')).toBe(0);
    expect((await availability()).slots.every((s) => !s.available)).toBe(true);
  });

  it.each([
    ['no weekdays', {}, 'weekdays', AVAILABILITY_INPUT_MESSAGES.weekday],
    ['a missing weekday', { weekdays: { ...fullWeek, friday: undefined } }, 'weekdays.friday', AVAILABILITY_INPUT_MESSAGES.weekday],
    ['a weekend day', { weekdays: { ...fullWeek, saturday: ['9:00 AM'] } }, 'weekdays', undefined],
    ['a slot outside the seven', { weekdays: { ...fullWeek, monday: ['12:00 PM'] } }, 'weekdays.monday.0', AVAILABILITY_INPUT_MESSAGES.slot],
    ['a slot twice', { weekdays: { ...fullWeek, monday: ['9:00 AM', '9:00 AM'] } }, 'weekdays.monday', AVAILABILITY_INPUT_MESSAGES.duplicate],
    ['slots that are not a list', { weekdays: { ...fullWeek, monday: '9:00 AM' } }, 'weekdays.monday', AVAILABILITY_INPUT_MESSAGES.weekday],
  ])('PUT answers 400 to %s with the field message, and keeps the offer', async (_label, body, field, message) => {
    // Raw call: the body is malformed on purpose, which the typed client would not compile.
    const res = await call('/api/admin/availability', { method: 'PUT', cookie: await signIn(), body });
    expect(res.status).toBe(400);
    const error = (await res.json()) as Body;
    expect(error.fields?.[field]).toBeDefined();
    if (message) expect(error.fields?.[field]).toContain(message);
    expect(await count('SELECT count(*) AS n FROM weekday_slots')).toBe(35);
  });

  it('POST blocks a date (201), idempotently: a second POST is 201 too, a new reason replaces the old, none keeps it', async () => {
    const cookie = await signIn();
    const first = await block(cookie, { date, reason: '  Staff training  ' });
    expect(first.status).toBe(201);
    expect(await first.json()).toEqual({ date, reason: 'Staff training', appointments: [] });
    const again = await block(cookie, { date });
    expect(again.status).toBe(201);
    expect(((await again.json()) as { reason: string }).reason).toBe('Staff training');
    expect((await block(cookie, { date, reason: 'Holiday' })).status).toBe(201);
    expect(await count('SELECT count(*) AS n FROM blocked_dates')).toBe(1);
    expect(((await (await client({ cookie }).api.admin.availability.$get()).json()) as AdminView).blockedDates).toEqual([
      { date, reason: 'Holiday', appointments: [] },
    ]);
  });

  it.each([
    ['no date', {}, 'date', AVAILABILITY_INPUT_MESSAGES.date],
    ['an impossible date', { date: '2027-02-30' }, 'date', AVAILABILITY_INPUT_MESSAGES.date],
    ['a date in another format', { date: '02/03/2027' }, 'date', AVAILABILITY_INPUT_MESSAGES.date],
    ['a reason that is not text', { date, reason: 42 }, 'reason', AVAILABILITY_INPUT_MESSAGES.reason],
    ['an overlong reason', { date, reason: 'r'.repeat(AVAILABILITY_LIMITS.reason + 1) }, 'reason', AVAILABILITY_INPUT_MESSAGES.reason],
  ])('POST answers 400 to %s with the field message, and blocks nothing', async (_label, body, field, message) => {
    const res = await block(await signIn(), body);
    expect(res.status).toBe(400);
    const error = (await res.json()) as Body;
    expect(error.message).toBe(message);
    expect(error.fields?.[field]).toContain(message);
    expect(await count('SELECT count(*) AS n FROM blocked_dates')).toBe(0);
  });

  it('DELETE unblocks (204, also for a day that is not blocked) and the day can be booked again', async () => {
    const cookie = await signIn();
    await block(cookie, { date });
    const res = await client({ cookie }).api.admin['blocked-dates'][':date'].$delete({ param: { date } });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    expect(await count('SELECT count(*) AS n FROM blocked_dates')).toBe(0);
    expect((await client({ cookie }).api.admin['blocked-dates'][':date'].$delete({ param: { date } })).status).toBe(204);
    expect((await availability()).closed).toBe(false);
    expect((await client().api.appointments.$post({ json: booking })).status).toBe(201);
  });

  it('DELETE answers 400 to a path that is not a date', async () => {
    const res = await client({ cookie: await signIn() }).api.admin['blocked-dates'][':date'].$delete({ param: { date: '2027-13-01' } });
    expect(res.status).toBe(400);
    expect(((await res.json()) as Body).fields?.date).toContain(AVAILABILITY_INPUT_MESSAGES.date);
  });

  it('blocking a day keeps its bookings and lists the active ones to the admin', async () => {
    // Raw calls: these read the new booking's id without narrowing the typed answer by its status.
    const kept = (await (await call('/api/appointments', { body: booking, ip: visitorIp(1) })).json()) as { id: number };
    const early = (await (await call('/api/appointments', { body: { ...booking, name: 'Early Bird', email: 'early@example.com', timeSlot: '9:00 AM' }, ip: visitorIp(2) })).json()) as {
      id: number;
    };
    const gone = (await (await call('/api/appointments', { body: { ...booking, name: 'Gone', email: 'gone@example.com', timeSlot: '3:00 PM' }, ip: visitorIp(3) })).json()) as {
      id: number;
    };
    await env.DB.prepare("UPDATE appointments SET status = 'cancelled' WHERE id = ?").bind(gone.id).run();
    await env.DB.prepare("UPDATE appointments SET status = 'confirmed' WHERE id = ?").bind(early.id).run();
    // Another day's booking is not listed.
    await client({ ip: visitorIp(4) }).api.appointments.$post({ json: { ...booking, date: nextWeekday(14) } });

    const cookie = await signIn();
    const res = await block(cookie, { date, reason: 'Office move' });
    expect(res.status).toBe(201);
    const expected = [
      { id: early.id, name: 'Early Bird', timeSlot: '9:00 AM', status: 'confirmed' },
      { id: kept.id, name: 'Sam Client', timeSlot: '10:00 AM', status: 'requested' },
    ];
    expect(((await res.json()) as AdminView['blockedDates'][number]).appointments).toEqual(expected);
    expect(((await (await client({ cookie }).api.admin.availability.$get()).json()) as AdminView).blockedDates).toEqual([
      { date, reason: 'Office move', appointments: expected },
    ]);
    expect(await count("SELECT count(*) AS n FROM appointments WHERE status <> 'cancelled'")).toBe(3);
  });
});

describe('GET /api/appointments/availability under the firm’s availability', () => {
  it('says an open day is not closed, with no reason', async () => {
    const day = await availability();
    expect(day).toMatchObject({ date, closed: false, reason: null });
    expect(day.slots.every((s) => s.available)).toBe(true);
  });

  it('marks a blocked day closed with its reason, every slot unavailable', async () => {
    await block(await signIn(), { date, reason: 'Firm holiday' });
    const day = await availability();
    expect(day).toMatchObject({ date, closed: true, reason: 'Firm holiday' });
    expect(day.slots.map((s) => s.time)).toEqual(allSlots);
    expect(day.slots.some((s) => s.available)).toBe(false);
    // A blocked day without a reason is closed, with reason null.
    const other = nextWeekday(14);
    await block(await signIn(), { date: other });
    expect(await availability(other)).toMatchObject({ closed: true, reason: null });
  });

  it('marks a weekend day closed', async () => {
    const day = await availability(nextSaturday(2));
    expect(day.closed).toBe(true);
    expect(day.slots.some((s) => s.available)).toBe(false);
  });
});

describe('POST /api/appointments under the firm’s availability', () => {
  async function expectRefused(body: Parameters<ReturnType<typeof client>['api']['appointments']['$post']>[0]['json'], message: string) {
    const res = await client().api.appointments.$post({ json: body });
    expect(res.status).toBe(409);
    expect(((await res.json()) as Body).message).toBe(message);
    expect(await count('SELECT count(*) AS n FROM appointments')).toBe(0);
    // Neither the daily cap nor the visitor's per-IP allowance was claimed.
    expect(await count('SELECT count(*) AS n FROM daily_counters')).toBe(0);
    expect(await count('SELECT count(*) AS n FROM submission_windows')).toBe(0);
    expect(await count('SELECT count(*) AS n FROM daily_submitters')).toBe(0);
    expect(await count('SELECT count(*) AS n FROM email_log')).toBe(0);
  }

  it('refuses a blocked date with 409 and the closed message, storing and claiming nothing', async () => {
    await block(await signIn(), { date, reason: 'Closed' });
    await expectRefused(booking, AVAILABILITY_MESSAGES.closed);
  });

  it('refuses a slot the weekday does not offer with 409, storing and claiming nothing', async () => {
    const cookie = await signIn();
    const weekdays = { ...fullWeek, [weekdayName]: ['9:00 AM'] };
    expect((await client({ cookie }).api.admin.availability.$put({ json: { weekdays } })).status).toBe(200);
    await expectRefused(booking, AVAILABILITY_MESSAGES.notOffered);
    // The slot it does offer can be booked.
    expect((await client().api.appointments.$post({ json: { ...booking, timeSlot: '9:00 AM' } })).status).toBe(201);
  });

  it('uses none of a one-submission allowance on refusals: the next valid booking still goes through', async () => {
    await block(await signIn(), { date });
    const tight = { SUBMISSIONS_PER_IP_PER_WINDOW: '1', DAILY_BOOKING_CAP: '1' };
    for (let i = 0; i < 3; i++) expect((await callWithEnv(tight, '/api/appointments', { body: booking })).status).toBe(409);
    expect((await callWithEnv(tight, '/api/appointments', { body: { ...booking, date: nextWeekday(14) } })).status).toBe(201);
  });
});

describe('GET /api/appointments/closed-days', () => {
  it('lists the blocked dates in the range and what each weekday offers', async () => {
    const cookie = await signIn();
    const later = nextWeekday(14);
    const outside = nextWeekday(40);
    for (const day of [date, later, outside]) await block(cookie, { date: day, reason: `r ${day}` });
    const none = { ...fullWeek, wednesday: [], friday: [] };
    await client({ cookie }).api.admin.availability.$put({ json: { weekdays: none } });

    const res = await client().api.appointments['closed-days'].$get({ query: { from: date, to: nextWeekday(30) } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      from: date,
      to: nextWeekday(30),
      blockedDates: [
        { date, reason: `r ${date}` },
        { date: later, reason: `r ${later}` },
      ],
      weekdays: none,
    });
  });

  // Issue 49: a day whose every slot is taken (bookings and/or the firm's busy time) stayed clickable.
  it('lists as full the open days with no slot left: bookings, busy time or both; a cancelled booking frees its slot', async () => {
    const cookie = await signIn();
    // Three days of one weekday, a week apart, each a day the server keeps open (no closed holiday among them).
    let first = nextWeekday(10);
    const open = async (day: string) => !(await availability(day)).closed;
    while (!((await open(first)) && (await open(addDays(first, 7))) && (await open(addDays(first, 14))))) first = addDays(first, 7);
    const [byBookings, byBusy, mixed] = [first, addDays(first, 7), addDays(first, 14)];
    const weekday = WEEKDAY_NAMES[weekdayOf(first)];
    // That weekday offers two slots; the others stay as they are.
    await client({ cookie }).api.admin.availability.$put({ json: { weekdays: { ...fullWeek, [weekday]: ['9:00 AM', '2:00 PM'] } } });
    const book = (day: string, slot: string, status = 'requested') =>
      env.DB.prepare("INSERT INTO appointments (name, email, service_type, date, time_slot, status) VALUES ('Full Day', 'full@example.com', 'Tax Planning', ?, ?, ?)").bind(day, slot, status).run();
    const busy = (...windows: [string, '9:00 AM' | '2:00 PM'][]) =>
      env.DB.prepare("INSERT INTO busy_calendars (label, url, busy) VALUES ('Partner calendar', 'https://calendar.example.com/busy.ics', ?)")
        .bind(JSON.stringify(windows.map(([day, slot]) => slotWindow(day, slot))))
        .run();
    await book(byBookings, '9:00 AM');
    await book(byBookings, '2:00 PM');
    await busy([byBusy, '9:00 AM'], [byBusy, '2:00 PM'], [mixed, '2:00 PM']);
    await book(mixed, '9:00 AM', 'cancelled');

    const fullDays = async () => {
      return (await okJson(await client().api.appointments['closed-days'].$get({ query: { from: first, to: addDays(first, 20) } }))).fullDays;
    };
    // The mixed day's 9:00 booking was cancelled: 9:00 is free again.
    expect(await fullDays()).toEqual([byBookings, byBusy]);
    // Taken again: by a booking at 9:00 and busy time at 2:00, it is full too.
    await book(mixed, '9:00 AM', 'confirmed');
    expect(await fullDays()).toEqual([byBookings, byBusy, mixed]);
    // The day's own availability says the same: no slot left.
    expect((await availability(mixed)).slots.filter((s) => s.available)).toEqual([]);
    // A blocked day is closed, not full; the list holds only days in the range.
    await block(cookie, { date: byBookings, reason: 'Office move' });
    expect(await fullDays()).toEqual([byBusy, mixed]);
    const narrow = await okJson(await client().api.appointments['closed-days'].$get({ query: { from: mixed, to: mixed } }));
    expect(narrow.fullDays).toEqual([mixed]);
  });

  it.each([
    ['no range', ''],
    ['a bad date', '?from=2027-01-01&to=2027-02-30'],
    ['to before from', '?from=2027-02-01&to=2027-01-01'],
    ['too long a span', `?from=2027-01-01&to=2027-06-01`],
  ])('answers 400 to %s', async (_label, query) => {
    // Raw call: the query string as written is what is under test.
    const res = await call(`/api/appointments/closed-days${query}`);
    expect(res.status).toBe(400);
    expect(((await res.json()) as Body).message).toBeTruthy();
  });

  it(`accepts a span of exactly ${CLOSED_DAYS_MAX_SPAN_DAYS} days`, async () => {
    expect((await client().api.appointments['closed-days'].$get({ query: { from: '2027-01-01', to: '2027-03-04' } })).status).toBe(200);
  });
});
