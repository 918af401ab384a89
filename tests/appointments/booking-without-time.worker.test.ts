import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { BOOKING_HORIZON_DAYS, NO_PREFERRED_TIME } from '#core/content/booking';
import { firm } from '#core/content/firm';
import { BOOKING_MESSAGES, CONFIRM_MESSAGES, createAppointmentSchema } from '#core/schemas/appointments';
import { AVAILABILITY_MESSAGES } from '../../worker/services/appointments/availability';
import { OPEN_BOOKINGS_MESSAGE } from '../../worker/services/appointments/open-bookings';
import { call, client, cronTick, signIn } from '../harness/worker/helpers';
import { expectAtSlot, inviteOf, uidOf } from '../harness/worker/ical-helpers';
import { callWith, fakeMailChannels, mailChannelsEnv, type RecordedRequest } from '../harness/worker/mailchannels-fake';
import { bookingRequest, nextWeekday, visitorIp } from '../harness/worker/submission-helpers';

// Preferred Time is optional (docs/product.md §3): a request without a time holds no slot, the firm
// sees "No preferred time", and the admin picks a free slot when confirming it; only then does the
// visitor get the invite and the self-service links. And the booking horizon (a year ahead).

const date = nextWeekday(7);
const timeless = (overrides: Record<string, unknown> = {}) => bookingRequest(date, { timeSlot: undefined, ...overrides });

const textOf = (mail: RecordedRequest) => mail.body.content.find((c) => c.type === 'text/plain')!.value;
const to = (mail: RecordedRequest[], address: string) => mail.filter((r) => r.body.personalizations[0].to[0].email === address);

async function bookTimeless(overrides: Record<string, unknown> = {}, ip = visitorIp(1)) {
  // Raw call: `overrides` may make the body invalid, which the typed client would not compile.
  const res = await call('/api/appointments', { body: timeless(overrides), ip });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as { id: number; date: string; timeSlot: string | null; status: string };
}

const confirm = (id: number, cookie: string, body: Record<string, unknown> = {}) =>
  // Raw call: `body` may carry fields the validator refuses, which the typed client would not compile.
  call(`/api/admin/appointments/${id}`, { method: 'PATCH', body: { status: 'confirmed', ...body }, cookie });

const rowOf = (id: number) =>
  env.DB.prepare('SELECT status, time_slot, sequence, public_id FROM appointments WHERE id = ?').bind(id).first<{ status: string; time_slot: string | null; sequence: number; public_id: string }>();

describe('a booking without a preferred time', () => {
  it.each([
    ['left out', undefined],
    ['null', null],
    ['empty', ''],
  ])('is accepted with the time %s, and stored with no time', async (_label, timeSlot) => {
    // Raw call: the body is malformed on purpose, which the typed client would not compile.
    const res = await call('/api/appointments', { body: { ...timeless(), timeSlot } });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ date, timeSlot: null, status: 'requested' });
    expect(await env.DB.prepare('SELECT date, time_slot, status FROM appointments').first()).toEqual({ date, time_slot: null, status: 'requested' });
  });

  it('holds no slot: two on the same day both succeed, every slot stays offered, and a timed booking still conflicts as before', async () => {
    await bookTimeless({}, visitorIp(1));
    await bookTimeless({ name: 'Other Person', email: 'other@example.com' }, visitorIp(2));
    const availability = (await (await client().api.appointments.availability.$get({ query: { date } })).json()) as { slots: { time: string; available: boolean }[] };
    expect(availability.slots.every((s) => s.available)).toBe(true);

    const timed = bookingRequest(date, { email: 'timed@example.com', timeSlot: '10:00 AM' });
    expect((await client({ ip: visitorIp(3) }).api.appointments.$post({ json: timed })).status).toBe(201);
    const again = await client({ ip: visitorIp(4) }).api.appointments.$post({ json: { ...timed, email: 'late@example.com' } });
    expect(again.status).toBe(409);
    expect(((await again.json()) as { message: string }).message).toBe(BOOKING_MESSAGES.taken);
    expect((await env.DB.prepare('SELECT count(*) AS n FROM appointments').first<{ n: number }>())!.n).toBe(3);
  });

  it('counts as an open request: a third from one address is refused (429) and leaves no trace of its network', async () => {
    await bookTimeless({}, visitorIp(1));
    await bookTimeless({}, visitorIp(2));
    const submitters = () => env.DB.prepare('SELECT count(*) AS n FROM daily_submitters').first<{ n: number }>();
    const before = await submitters();
    const third = await client({ ip: visitorIp(3) }).api.appointments.$post({ json: timeless() });
    expect(third.status).toBe(429);
    expect(((await third.json()) as { message: string }).message).toBe(OPEN_BOOKINGS_MESSAGE);
    expect(await submitters()).toEqual(before);
    expect(await env.DB.prepare("SELECT count FROM daily_counters WHERE counter = 'booking'").first()).toEqual({ count: 2 });
    expect((await env.DB.prepare('SELECT count(*) AS n FROM appointments').first<{ n: number }>())!.n).toBe(2);
  });

  it('is refused on a day the firm has blocked, like a timed one', async () => {
    await env.DB.prepare("INSERT INTO blocked_dates (date, reason) VALUES (?, 'Staff training')").bind(date).run();
    const res = await client().api.appointments.$post({ json: timeless() });
    expect(res.status).toBe(409);
    expect(((await res.json()) as { message: string }).message).toBe(AVAILABILITY_MESSAGES.closed);
    expect((await env.DB.prepare('SELECT count(*) AS n FROM appointments').first<{ n: number }>())!.n).toBe(0);
  });

  it('still refuses a time outside the 7 slots', async () => {
    const res = await client().api.appointments.$post({ json: timeless({ timeSlot: '12:00 PM' }) });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ fields: { timeSlot: [BOOKING_MESSAGES.slot] } });
  });

  it('acknowledges the visitor with no invite and no links, saying the firm will confirm a time; the firm sees "No preferred time"', async () => {
    const mail = fakeMailChannels();
    const res = await callWith(mailChannelsEnv(), '/api/appointments', { body: timeless() });
    expect(res.status).toBe(201);
    const [ack] = to(mail, 'sam@example.com');
    expect(ack.body.attachments ?? []).toHaveLength(0);
    expect(textOf(ack)).toMatch(/We will confirm a time with you within 24 hours/);
    expect(textOf(ack)).not.toMatch(/Cancel: |Reschedule: |attached invite/);
    const [notification] = to(mail, firm.contact.email);
    expect(notification.body.subject).toContain(NO_PREFERRED_TIME);
    expect(textOf(notification)).toContain(`(${NO_PREFERRED_TIME})`);
    expect(textOf(notification)).not.toMatch(/ at \d/);
  });

  it('is listed to the admin with no time, before the timed ones of its day', async () => {
    await client({ ip: visitorIp(2) }).api.appointments.$post({ json: bookingRequest(date, { email: 'timed@example.com', timeSlot: '9:00 AM' }) });
    const { id } = await bookTimeless();
    const list = (await (await client({ cookie: await signIn() }).api.admin.appointments.$get()).json()) as { id: number; timeSlot: string | null }[];
    expect(list.map((a) => a.timeSlot)).toEqual([null, '9:00 AM']);
    expect(list[0].id).toBe(id);
  });

  it('gets no reminder while it has no time, and no tick fails on it', async () => {
    await bookTimeless({ email: 'notime@example.com' });
    const mail = fakeMailChannels();
    // Noon the day before: a timed appointment that day would be due.
    const scheduledTime = new Date(`${date}T12:00:00Z`).getTime() - 86_400_000 + 6 * 3_600_000;
    await cronTick(scheduledTime, mailChannelsEnv());
    expect(to(mail, 'notime@example.com')).toHaveLength(0);
    expect((await env.DB.prepare('SELECT count(*) AS n FROM appointment_reminders').first<{ n: number }>())!.n).toBe(0);
  });
});

describe('the admin confirms a request without a time by picking a free slot', () => {
  it('refuses a confirm without a slot (400, field message) and changes nothing', async () => {
    const { id } = await bookTimeless();
    const res = await confirm(id, await signIn());
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ message: CONFIRM_MESSAGES.slotNeeded, fields: { timeSlot: [CONFIRM_MESSAGES.slotNeeded] } });
    expect(await rowOf(id)).toMatchObject({ status: 'requested', time_slot: null, sequence: 0 });
  });

  it('refuses a slot outside the 7 with 400', async () => {
    const { id } = await bookTimeless();
    const res = await confirm(id, await signIn(), { timeSlot: '12:00 PM' });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ fields: { timeSlot: [BOOKING_MESSAGES.slot] } });
  });

  it('refuses a taken slot with 409 and a clear message, and one the weekday does not offer', async () => {
    await client({ ip: visitorIp(2) }).api.appointments.$post({ json: bookingRequest(date, { email: 'timed@example.com', timeSlot: '11:00 AM' }) });
    const { id } = await bookTimeless();
    const cookie = await signIn();
    const taken = await confirm(id, cookie, { timeSlot: '11:00 AM' });
    expect(taken.status).toBe(409);
    expect(((await taken.json()) as { message: string }).message).toBe(CONFIRM_MESSAGES.slotTaken);

    const weekday = ((new Date(`${date}T12:00:00Z`).getUTCDay() + 6) % 7) + 1;
    await env.DB.prepare("DELETE FROM weekday_slots WHERE weekday = ? AND time_slot = '4:00 PM'").bind(weekday).run();
    const notOffered = await confirm(id, cookie, { timeSlot: '4:00 PM' });
    expect(notOffered.status).toBe(409);
    expect(((await notOffered.json()) as { message: string }).message).toBe(AVAILABILITY_MESSAGES.notOffered);
    expect(await rowOf(id)).toMatchObject({ status: 'requested', time_slot: null, sequence: 0 });
  });

  it('holds the slot once confirmed and e-mails the visitor the invite (valid iCalendar) and both links', async () => {
    const { id } = await bookTimeless();
    const cookie = await signIn();
    const mail = fakeMailChannels();
    const res = await callWith(mailChannelsEnv(), `/api/admin/appointments/${id}`, { method: 'PATCH', body: { status: 'confirmed', timeSlot: '2:00 PM' }, cookie });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id, status: 'confirmed', timeSlot: '2:00 PM' });
    const row = (await rowOf(id))!;
    expect(row).toMatchObject({ status: 'confirmed', time_slot: '2:00 PM', sequence: 1 });

    const [confirmation] = to(mail, 'sam@example.com');
    const invite = inviteOf(confirmation);
    expect(invite).toMatchObject({ method: 'REQUEST', status: 'CONFIRMED', uid: uidOf(row.public_id), sequence: 1 });
    expectAtSlot(invite, date, '2:00 PM');
    const text = textOf(confirmation);
    expect(text).toContain('at 2:00 PM Eastern Time');
    const cancelToken = new URL(/^Cancel: (\S+)$/m.exec(text)![1]).searchParams.get('token')!;
    expect(/^Reschedule: \S+$/m.test(text)).toBe(true);
    expect(await (await client().api.appointments.manage.$get({ query: { token: cancelToken } })).json()).toMatchObject({ action: 'cancel', appointment: { timeSlot: '2:00 PM', status: 'confirmed' } });

    // The slot is held now: the public availability and a visitor's booking both see it.
    const availability = (await (await client().api.appointments.availability.$get({ query: { date } })).json()) as { slots: { time: string; available: boolean }[] };
    expect(availability.slots.find((s) => s.time === '2:00 PM')!.available).toBe(false);
    expect((await client({ ip: visitorIp(5) }).api.appointments.$post({ json: bookingRequest(date, { email: 'late@example.com', timeSlot: '2:00 PM' }) })).status).toBe(409);
  });

  it('cancelling one without a time tells the visitor without an invite', async () => {
    const { id } = await bookTimeless();
    const mail = fakeMailChannels();
    const res = await callWith(mailChannelsEnv(), `/api/admin/appointments/${id}`, { method: 'PATCH', body: { status: 'cancelled' }, cookie: await signIn() });
    expect(res.status).toBe(200);
    const [notice] = to(mail, 'sam@example.com');
    expect(notice.body.attachments ?? []).toHaveLength(0);
    expect(textOf(notice)).toContain('has been cancelled');
  });
});

describe('the booking horizon', () => {
  const addDays = (iso: string, days: number) => new Date(Date.parse(`${iso}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
  // An explicit zone and clock: Monday 23 November 2026, noon in New York.
  // The booking form passes the horizon it was told; the server judges it with the other booking rules.
  const schema = createAppointmentSchema('America/New_York', () => new Date('2026-11-23T17:00:00Z'), BOOKING_HORIZON_DAYS);
  const base = { name: 'A', email: 'a@example.com', serviceType: 'Payroll Services' };

  it('takes the last day of the horizon and refuses the day after with a clear field message', () => {
    const last = addDays('2026-11-23', BOOKING_HORIZON_DAYS);
    expect(last).toBe('2027-11-23');
    expect(schema.safeParse({ ...base, date: last }).success).toBe(true);
    const after = schema.safeParse({ ...base, date: '2027-11-24' });
    expect(after.error?.issues[0]).toMatchObject({ path: ['date'], message: BOOKING_MESSAGES.tooFar });
  });

  it('answers 400 with the horizon message to a booking past the horizon, and to 9999-12-31, storing nothing', async () => {
    for (const far of ['9999-12-31', '2099-06-01']) {
      const res = await client().api.appointments.$post({ json: bookingRequest(far) });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ message: BOOKING_MESSAGES.tooFar });
    }
    expect((await env.DB.prepare('SELECT count(*) AS n FROM appointments').first<{ n: number }>())!.n).toBe(0);
  });

  it('offers no slot past the horizon in the availability answer', async () => {
    const body = (await (await client().api.appointments.availability.$get({ query: { date: '2099-06-01' } })).json()) as { slots: { available: boolean }[] };
    expect(body.slots.length).toBe(7);
    expect(body.slots.every((s) => !s.available)).toBe(true);
  });
});

describe('migration 0010 (time_slot nullable)', () => {
  it('keeps every appointment and every reminder already sent when it rebuilds the table', async () => {
    const migration = env.TEST_MIGRATIONS.find((m) => m.name.includes('optional_time_slot'));
    expect(migration, 'migrations/0010_optional_time_slot.sql').toBeDefined();
    await env.DB.prepare(
      "INSERT INTO appointments (id, name, email, service_type, date, time_slot, status, sequence, public_id) VALUES (7, 'Rae', 'r@example.com', 'Payroll Services', '2026-03-02', '9:00 AM', 'confirmed', 2, 'AAAAAAAAAAAAAAAAAAAAAA'), (9, 'Lee', 'l@example.com', 'Payroll Services', '2026-03-03', '1:00 PM', 'requested', 0, NULL)",
    ).run();
    await env.DB.prepare("INSERT INTO appointment_reminders (appointment_id, date, time_slot) VALUES (7, '2026-03-02', '9:00 AM')").run();
    const before = await env.DB.prepare('SELECT * FROM appointments ORDER BY id').all();

    // Run the rebuild again over rows (the schema it leaves is the one it starts from).
    await env.DB.batch(migration!.queries.map((q) => env.DB.prepare(q)));

    expect((await env.DB.prepare('SELECT * FROM appointments ORDER BY id').all()).results).toEqual(before.results);
    expect((await env.DB.prepare('SELECT appointment_id, date, time_slot FROM appointment_reminders').all()).results).toEqual([
      { appointment_id: 7, date: '2026-03-02', time_slot: '9:00 AM' },
    ]);
    // The indexes are back: the slot's uniqueness and the open-request lookups.
    const indexes = (await env.DB.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'appointments' AND name NOT LIKE 'sqlite_%' ORDER BY name").all<{ name: string }>()).results.map((r) => r.name);
    expect(indexes).toEqual([
      'appointments_active_slot_uq',
      'appointments_created_at_idx',
      'appointments_date_idx',
      'appointments_network_hash_idx',
      'appointments_open_email_idx',
      'appointments_open_network_idx',
      'appointments_public_id_uq',
    ]);
    const plan = await env.DB.prepare("EXPLAIN QUERY PLAN SELECT 1 FROM appointments WHERE lower(email) = 'r@example.com' AND status = 'requested' AND date >= '2026-01-01'").all<{ detail: string }>();
    expect(plan.results.map((r) => r.detail).join(' ')).toContain('appointments_open_email_idx');
  });
});
