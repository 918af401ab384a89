import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { firm } from '#core/content/firm';
import { firmToday } from '#core/firm-time';
import { call, client, okJson, signIn } from '../harness/worker/helpers';
import { nextWeekday, visitorIp } from '../harness/worker/submission-helpers';

const contact = (n: number) => ({ name: `Visitor ${n}`, email: `v${n}@example.com`, message: `Question number ${n} about taxes.` });

describe('GET /api/admin/contact-messages', () => {
  it('is closed without a session', async () => {
    expect((await client().api.admin['contact-messages'].$get()).status).toBe(401);
    expect((await client().api.admin['contact-messages'][':id'].$patch({ param: { id: '1' }, json: { read: true } })).status).toBe(401);
  });

  it('lists every message newest first in the contract shape', async () => {
    for (let i = 1; i <= 3; i++) await client({ ip: visitorIp(i) }).api.contact.$post({ json: { ...contact(i), phone: i === 2 ? '724-555-0100' : undefined } });
    const res = await client({ cookie: await signIn() }).api.admin['contact-messages'].$get();
    expect(res.status).toBe(200);
    const list = (await res.json()) as Record<string, unknown>[];
    expect(list.map((m) => m.name)).toEqual(['Visitor 3', 'Visitor 2', 'Visitor 1']);
    expect(list[1]).toEqual({
      id: expect.any(Number),
      name: 'Visitor 2',
      email: 'v2@example.com',
      phone: '724-555-0100',
      message: 'Question number 2 about taxes.',
      createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      readAt: null,
      archivedAt: null,
      lastRepliedAt: null,
    });
    expect(list[0].phone).toBeNull();
  });

  it('marks a message read and unread', async () => {
    await client().api.contact.$post({ json: contact(1) });
    const cookie = await signIn();
    const [message] = (await (await client({ cookie }).api.admin['contact-messages'].$get()).json()) as { id: number }[];
    const read = await client({ cookie }).api.admin['contact-messages'][':id'].$patch({ param: { id: String(message.id) }, json: { read: true } });
    expect(read.status).toBe(200);
    expect((await okJson(read)).readAt).toMatch(/Z$/);
    const unread = await client({ cookie }).api.admin['contact-messages'][':id'].$patch({ param: { id: String(message.id) }, json: { read: false } });
    expect((await okJson(unread)).readAt).toBeNull();
  });

  it('answers 404 for an unknown message and 400 for a bad id or body', async () => {
    const cookie = await signIn();
    expect((await client({ cookie }).api.admin['contact-messages'][':id'].$patch({ param: { id: '999' }, json: { read: true } })).status).toBe(404);
    expect((await client({ cookie }).api.admin['contact-messages'][':id'].$patch({ json: { read: true }, param: { id: 'abc' } })).status).toBe(400);
    expect((await client({ cookie }).api.admin['contact-messages'][':id'].$patch({ json: { read: true }, param: { id: '0' } })).status).toBe(400);
    // Raw call: the body is malformed on purpose, which the typed client would not compile.
    expect((await call('/api/admin/contact-messages/1', { method: 'PATCH', body: { read: 'yes' }, cookie })).status).toBe(400);
  });
});

describe('GET /api/admin/rate-limit-stats', () => {
  it('is closed without a session and starts at zero', async () => {
    expect((await client().api.admin['rate-limit-stats'].$get()).status).toBe(401);
    expect(await (await client({ cookie: await signIn() }).api.admin['rate-limit-stats'].$get()).json()).toEqual({
      globalCount: 0,
      globalCap: 160,
      ipCount: 0,
      contact: { count: 0, cap: 80 },
      booking: { count: 0, cap: 80 },
    });
  });

  it('counts only today (firm time zone)', async () => {
    await env.DB.prepare("INSERT INTO daily_counters (day, counter, count) VALUES ('2020-01-01', 'contact', 50)").run();
    await env.DB.prepare("INSERT INTO daily_submitters (day, ip_hash) VALUES ('2020-01-01', 'abc')").run();
    await client({ ip: visitorIp(1) }).api.contact.$post({ json: contact(1) });
    const stats = await (await client({ cookie: await signIn() }).api.admin['rate-limit-stats'].$get()).json();
    expect(stats).toMatchObject({ globalCount: 1, ipCount: 1, contact: { count: 1 }, booking: { count: 0 } });
    expect(await env.DB.prepare("SELECT count FROM daily_counters WHERE counter = 'contact' AND day = ?").bind(firmToday(firm.timeZone)).first()).toEqual({ count: 1 });
  });
});

describe('admin appointments', () => {
  const soon = nextWeekday(3);
  const later = nextWeekday(10);
  const booking = { name: 'Sam', email: 'sam@example.com', serviceType: 'Payroll Services' } as const;

  async function seed() {
    // Another address: one address may hold only two open requests (OPEN_BOOKINGS_PER_EMAIL).
    await client({ ip: visitorIp(1) }).api.appointments.$post({ json: { ...booking, email: 'sam.later@example.com', date: later, timeSlot: '9:00 AM' } });
    await client({ ip: visitorIp(2) }).api.appointments.$post({ json: { ...booking, date: soon, timeSlot: '10:00 AM' } });
    await client({ ip: visitorIp(3) }).api.appointments.$post({ json: { ...booking, date: soon, timeSlot: '9:00 AM' } });
    // Past requests cannot be made through the API; they are simply older rows.
    await env.DB.prepare(
      "INSERT INTO appointments (name, email, service_type, date, time_slot) VALUES ('Old', 'o@example.com', 'Payroll Services', '2025-03-03', '9:00 AM'), ('Older', 'o@example.com', 'Payroll Services', '2025-01-06', '4:00 PM')",
    ).run();
  }

  it('is closed without a session', async () => {
    expect((await client().api.admin.appointments.$get()).status).toBe(401);
    expect((await client().api.admin.appointments[':id'].$patch({ param: { id: '1' }, json: { status: 'confirmed' } })).status).toBe(401);
  });

  it('lists upcoming first (soonest, then by slot), then past (most recent first)', async () => {
    await seed();
    const list = (await (await client({ cookie: await signIn() }).api.admin.appointments.$get()).json()) as Record<string, unknown>[];
    expect(list.map((a) => `${a.date} ${a.timeSlot}`)).toEqual([`${soon} 9:00 AM`, `${soon} 10:00 AM`, `${later} 9:00 AM`, '2025-03-03 9:00 AM', '2025-01-06 4:00 PM']);
    expect(list[0]).toEqual({
      id: expect.any(Number),
      name: 'Sam',
      email: 'sam@example.com',
      phone: null,
      serviceType: 'Payroll Services',
      date: soon,
      timeSlot: '9:00 AM',
      notes: null,
      status: 'requested',
      createdAt: expect.stringMatching(/Z$/),
    });
  });

  it('confirms and cancels a request, e-mailing the visitor each time', async () => {
    await seed();
    const cookie = await signIn();
    const [first] = (await (await client({ cookie }).api.admin.appointments.$get()).json()) as { id: number }[];
    const confirmed = await client({ cookie }).api.admin.appointments[':id'].$patch({ param: { id: String(first.id) }, json: { status: 'confirmed' } });
    expect(confirmed.status).toBe(200);
    expect(((await confirmed.json()) as { status: string }).status).toBe('confirmed');
    const cancelled = await client({ cookie }).api.admin.appointments[':id'].$patch({ param: { id: String(first.id) }, json: { status: 'cancelled' } });
    expect(((await cancelled.json()) as { status: string }).status).toBe('cancelled');
    const { results } = await env.DB.prepare("SELECT subject, \"to\" FROM email_log WHERE kind = 'appointment-status' ORDER BY id").all<{ subject: string; to: string }>();
    expect(results.map((r) => r.subject.split(':')[0])).toEqual(['Appointment confirmed', 'Appointment cancelled']);
    expect(results.every((r) => r.to === 'sam@example.com')).toBe(true);
    // Setting the same status again changes nothing and sends nothing.
    await client({ cookie }).api.admin.appointments[':id'].$patch({ param: { id: String(first.id) }, json: { status: 'cancelled' } });
    expect((await env.DB.prepare("SELECT count(*) AS n FROM email_log WHERE kind = 'appointment-status'").first<{ n: number }>())!.n).toBe(2);
  });

  it('refuses to revive a cancelled request whose slot was booked again (409)', async () => {
    await client({ ip: visitorIp(1) }).api.appointments.$post({ json: { ...booking, date: soon, timeSlot: '11:00 AM' } });
    const cookie = await signIn();
    const [original] = (await (await client({ cookie }).api.admin.appointments.$get()).json()) as { id: number }[];
    await client({ cookie }).api.admin.appointments[':id'].$patch({ param: { id: String(original.id) }, json: { status: 'cancelled' } });
    expect((await client({ ip: visitorIp(2) }).api.appointments.$post({ json: { ...booking, date: soon, timeSlot: '11:00 AM' } })).status).toBe(201);
    const revive = await client({ cookie }).api.admin.appointments[':id'].$patch({ param: { id: String(original.id) }, json: { status: 'confirmed' } });
    expect(revive.status).toBe(409);
    expect(((await revive.json()) as { message: string }).message).toMatch(/booked by someone else/);
  });

  it('answers 404 for an unknown appointment and 400 for a status outside confirmed / cancelled', async () => {
    const cookie = await signIn();
    expect((await client({ cookie }).api.admin.appointments[':id'].$patch({ param: { id: '12345' }, json: { status: 'confirmed' } })).status).toBe(404);
    // Raw call: the body is malformed on purpose, which the typed client would not compile.
    const bad = await call('/api/admin/appointments/1', { method: 'PATCH', body: { status: 'requested' }, cookie });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { message: string }).message).toBe("Status must be 'confirmed' or 'cancelled'");
  });
});
