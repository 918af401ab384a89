import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { BOOKING_RULE_DEFAULTS } from '#core/content/booking';
import { firm } from '#core/content/firm';
import { federalHolidaysBetween } from '#core/federal-holidays';
import { addCalendarDays, firmToday, weekdayOf } from '#core/firm-time';
import { BOOKING_MESSAGES, BOOKING_RULE_MESSAGES } from '#core/schemas/appointments';
import { BOOKING_RULE_INPUT_MESSAGES } from '#core/schemas/availability';
import { call, client, signIn } from '../harness/worker/helpers';
import { callWith, fakeMailChannels, mailChannelsEnv } from '../harness/worker/mailchannels-fake';
import { bookingRequest, nextWeekday, visitorIp } from '../harness/worker/submission-helpers';

// The booking rules the admin sets on /admin/availability (docs/product.md §6.4): minimum notice,
// booking horizon, and the switch closing every federal holiday (each reopenable). Availability,
// the calendar's closed days, the booking and the reschedule all apply them; a request outside them
// gets 400 with a clear message, nothing stored.

type Slots = { closed: boolean; reason: string | null; slots: { time: string; available: boolean }[] };
type ClosedDays = { blockedDates: { date: string; reason: string | null }[]; firstDay: string; lastDay: string };

const today = () => firmToday(firm.timeZone);
/** The first weekday on or after a date. */
const weekdayFrom = (date: string) => {
  let day = date;
  while ([0, 6].includes(weekdayOf(day))) day = addCalendarDays(day, 1);
  return day;
};

let ips = 0;
const book = (date: string, overrides: Record<string, unknown> = {}) =>
  client({ ip: visitorIp(100 + ips) }).api.appointments.$post({ json: bookingRequest(date, { email: `visitor${++ips}@example.com`, ...overrides }) });
const stored = async () => (await env.DB.prepare('SELECT count(*) AS n FROM appointments').first<{ n: number }>())!.n;
const availability = async (date: string) => (await (await client().api.appointments.availability.$get({ query: { date } })).json()) as Slots;
const closedDays = async (from: string, to: string) => (await (await client().api.appointments['closed-days'].$get({ query: { from, to } })).json()) as ClosedDays;

async function setRules(rules: Partial<typeof BOOKING_RULE_DEFAULTS>) {
  const res = await client({ cookie: await signIn() }).api.admin['booking-rules'].$put({ json: { ...BOOKING_RULE_DEFAULTS, ...rules } });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as { rules: typeof BOOKING_RULE_DEFAULTS; holidays: { date: string; name: string }[] };
}

async function expectRefused(res: { status: number; json(): Promise<unknown> }, message: string) {
  expect(res.status).toBe(400);
  expect(((await res.json()) as { message: string }).message).toBe(message);
}

describe('the booking rules: defaults', () => {
  it('change nothing: no notice, 365 days ahead, holidays open, and the admin sees them', async () => {
    const cookie = await signIn();
    const view = (await (await client({ cookie }).api.admin.availability.$get()).json()) as { rules: unknown; holidays: { date: string }[] };
    expect(view.rules).toEqual(BOOKING_RULE_DEFAULTS);
    expect(view.holidays.length).toBeGreaterThanOrEqual(10);
    const range = await closedDays(today(), addCalendarDays(today(), 40));
    expect(range.firstDay).toBe(today());
    expect(range.lastDay).toBe(addCalendarDays(today(), 365));
    expect(range.blockedDates).toEqual([]);
    // A federal holiday is bookable as before.
    const holiday = federalHolidaysBetween(addCalendarDays(today(), 2), addCalendarDays(today(), 365))[0].date;
    expect((await availability(holiday)).closed).toBe(false);
    expect((await book(holiday)).status).toBe(201);
    // The last day of the horizon is bookable, the day after refused with the old message.
    const last = addCalendarDays(today(), 365);
    if (![0, 6].includes(weekdayOf(last))) expect((await book(last)).status).toBe(201);
    await expectRefused(await book(weekdayFrom(addCalendarDays(today(), 366))), BOOKING_MESSAGES.tooFar);
  });
});

describe('the booking horizon', () => {
  it('closes every later day on every path, and a longer one opens days past a year', async () => {
    await setRules({ horizonDays: 30 });
    const inside = weekdayFrom(addCalendarDays(today(), 24));
    const outside = weekdayFrom(addCalendarDays(today(), 31));
    expect((await closedDays(today(), addCalendarDays(today(), 40))).lastDay).toBe(addCalendarDays(today(), 30));
    expect((await availability(outside)).slots.every((s) => !s.available)).toBe(true);
    expect((await availability(inside)).slots.some((s) => s.available)).toBe(true);
    await expectRefused(await book(outside), BOOKING_RULE_MESSAGES.tooFar(30));
    await expectRefused(await book(outside, { timeSlot: null }), BOOKING_RULE_MESSAGES.tooFar(30));
    expect(await stored()).toBe(0);

    await setRules({ horizonDays: 730 });
    const farOut = weekdayFrom(addCalendarDays(today(), 500));
    expect((await availability(farOut)).slots.some((s) => s.available)).toBe(true);
    expect((await book(farOut)).status).toBe(201);
    await expectRefused(await book(weekdayFrom(addCalendarDays(today(), 731))), BOOKING_RULE_MESSAGES.tooFar(730));
  });
});

describe('the minimum notice', () => {
  it('greys the days inside it, and refuses a booking or a reschedule there with 400', async () => {
    // Booked first, under no notice: the reschedule link is then used under a 30-day notice.
    const mail = fakeMailChannels();
    const first = await callWith(mailChannelsEnv(), '/api/appointments', { body: bookingRequest(nextWeekday(40), { email: 'mover@example.com' }) });
    expect(first.status).toBe(201);
    const text = mail.find((r) => r.body.personalizations[0].to[0].email === 'mover@example.com')!.body.content.find((c) => c.type === 'text/plain')!.value;
    const token = new URL(/^Reschedule: (\S+)$/m.exec(text)![1]).searchParams.get('token')!;

    await setRules({ minimumNoticeHours: 720 });
    const soon = nextWeekday(7);
    const range = await closedDays(today(), addCalendarDays(today(), 40));
    expect(range.firstDay > addCalendarDays(today(), 29)).toBe(true);
    expect((await availability(soon)).slots.every((s) => !s.available)).toBe(true);
    await expectRefused(await book(soon), BOOKING_RULE_MESSAGES.notice(720));
    await expectRefused(await book(soon, { timeSlot: null }), BOOKING_RULE_MESSAGES.notice(720));
    expect(await stored()).toBe(1);
    const moved = await client({ ip: visitorIp(240) }).api.appointments.manage.reschedule.$post({ json: { token, date: soon, timeSlot: '2:00 PM' } });
    await expectRefused(moved, BOOKING_RULE_MESSAGES.notice(720));
    expect(await env.DB.prepare('SELECT date FROM appointments').first<{ date: string }>()).toEqual({ date: nextWeekday(40) });
    // Past the notice, the same visitor can book.
    expect((await book(nextWeekday(35))).status).toBe(201);
  });
});

describe('federal holidays', () => {
  it('closes them all when switched on, names them, and opens one the admin reopens', async () => {
    const [holiday, next] = federalHolidaysBetween(addCalendarDays(today(), 2), addCalendarDays(today(), 365)).map((h) => h.date);
    await setRules({ closeFederalHolidays: true });
    const day = await availability(holiday);
    expect(day.closed).toBe(true);
    expect(day.reason).toBeTruthy();
    expect(day.slots.every((s) => !s.available)).toBe(true);
    expect((await closedDays(holiday, holiday)).blockedDates).toEqual([{ date: holiday, reason: day.reason }]);
    await expectRefused(await book(holiday), BOOKING_RULE_MESSAGES.holiday);
    await expectRefused(await book(next, { timeSlot: null }), BOOKING_RULE_MESSAGES.holiday);
    expect(await stored()).toBe(0);

    const view = await setRules({ closeFederalHolidays: true, reopenedHolidays: [holiday] });
    expect(view.rules.reopenedHolidays).toEqual([holiday]);
    expect((await availability(holiday)).closed).toBe(false);
    expect((await closedDays(holiday, holiday)).blockedDates).toEqual([]);
    expect((await book(holiday)).status).toBe(201);
    await expectRefused(await book(next), BOOKING_RULE_MESSAGES.holiday);
  });
});

describe('PUT /api/admin/booking-rules', () => {
  it.each([
    [{ minimumNoticeHours: 721 }, 'minimumNoticeHours', BOOKING_RULE_INPUT_MESSAGES.notice],
    [{ minimumNoticeHours: -1 }, 'minimumNoticeHours', BOOKING_RULE_INPUT_MESSAGES.notice],
    [{ minimumNoticeHours: 1.5 }, 'minimumNoticeHours', BOOKING_RULE_INPUT_MESSAGES.notice],
    [{ horizonDays: 0 }, 'horizonDays', BOOKING_RULE_INPUT_MESSAGES.horizon],
    [{ horizonDays: 731 }, 'horizonDays', BOOKING_RULE_INPUT_MESSAGES.horizon],
    [{ closeFederalHolidays: 'yes' }, 'closeFederalHolidays', BOOKING_RULE_INPUT_MESSAGES.switch],
    [{ reopenedHolidays: ['2026-12-28'] }, 'reopenedHolidays', BOOKING_RULE_INPUT_MESSAGES.reopened],
  ])('refuses %j with a field message and keeps the rules', async (change, field, message) => {
    const cookie = await signIn();
    // Raw call: the body is malformed on purpose, which the typed client would not compile.
    const res = await call('/api/admin/booking-rules', { method: 'PUT', body: { ...BOOKING_RULE_DEFAULTS, ...change }, cookie });
    expect(res.status).toBe(400);
    const { fields } = (await res.json()) as { fields: Record<string, string[]> };
    // A list item's field is named with its index (reopenedHolidays.0).
    expect(Object.entries(fields).find(([name]) => name.split('.')[0] === field)?.[1]).toContain(message);
    expect(await env.DB.prepare('SELECT count(*) AS n FROM booking_rules').first()).toEqual({ n: 0 });
  });

  it('is for the admin only', async () => {
    expect((await client().api.admin['booking-rules'].$put({ json: BOOKING_RULE_DEFAULTS })).status).toBe(401);
  });
});
