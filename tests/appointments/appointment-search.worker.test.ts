import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { firm } from '#core/content/firm';
import { addCalendarDays, firmToday } from '#core/firm-time';
import { call, client, expectRefusedQueries, signIn } from '../harness/worker/helpers';

// The appointments panel's search (docs/product.md §6.2, "Finding anything in the back office"):
// GET /api/admin/appointments/search answers a page of 50, upcoming first (soonest first, by slot),
// then past (most recent first), with the counts of both sides and the requests awaiting the firm.

type Appointment = { id: number; name: string; date: string; timeSlot: string | null; status: string };
type Page = { items: Appointment[]; total: number; page: number; pageSize: number; upcoming: number; past: number; awaiting: number };

// Days relative to the firm's today: rows are stored directly, so any day works, weekday or not.
const today = () => firmToday(firm.timeZone);
const day = (offset: number) => addCalendarDays(today(), offset);

async function appointment(fields: { name: string; date: string; timeSlot?: string | null; status?: string; notes?: string | null; serviceType?: string; phone?: string | null; email?: string }) {
  await env.DB.prepare('INSERT INTO appointments (name, email, phone, service_type, date, time_slot, notes, status) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
    .bind(
      fields.name,
      fields.email ?? `${fields.name.toLowerCase().replace(/\W+/g, '.')}@example.com`,
      fields.phone ?? null,
      fields.serviceType ?? 'Payroll Services',
      fields.date,
      fields.timeSlot === undefined ? '9:00 AM' : fields.timeSlot,
      fields.notes ?? null,
      fields.status ?? 'requested',
    )
    .run();
}

async function search(cookie: string, query: Record<string, string> = {}): Promise<Page> {
  const res = await call(`/api/admin/appointments/search?${new URLSearchParams(query)}`, { cookie });
  expect(res.status).toBe(200);
  return (await res.json()) as Page;
}
const names = (page: Page) => page.items.map((a) => a.name);

describe('GET /api/admin/appointments/search', () => {
  it('is closed without a session', async () => {
    expect((await client().api.admin.appointments.search.$get({ query: {} })).status).toBe(401);
  });

  it('lists upcoming (soonest, by slot, a request without a time first) then past (latest first), and each side alone', async () => {
    await appointment({ name: 'Later', date: day(9), timeSlot: '9:00 AM' });
    await appointment({ name: 'Soon ten', date: day(2), timeSlot: '10:00 AM' });
    await appointment({ name: 'Soon four', date: day(2), timeSlot: '4:00 PM' });
    await appointment({ name: 'Soon nine', date: day(2), timeSlot: '9:00 AM' });
    await appointment({ name: 'Soon any time', date: day(2), timeSlot: null });
    await appointment({ name: 'Today', date: today(), timeSlot: '11:00 AM', status: 'confirmed' });
    await appointment({ name: 'Yesterday', date: day(-1), timeSlot: '9:00 AM' });
    await appointment({ name: 'Last month', date: day(-30), timeSlot: '4:00 PM' });
    await appointment({ name: 'Last month early', date: day(-30), timeSlot: '9:00 AM' });
    const cookie = await signIn();
    const all = await search(cookie);
    expect(names(all)).toEqual(['Today', 'Soon any time', 'Soon nine', 'Soon ten', 'Soon four', 'Later', 'Yesterday', 'Last month', 'Last month early']);
    expect(all).toMatchObject({ total: 9, upcoming: 6, past: 3, awaiting: 5, page: 1, pageSize: 50 });
    expect(names(await search(cookie, { when: 'upcoming' }))).toEqual(['Today', 'Soon any time', 'Soon nine', 'Soon ten', 'Soon four', 'Later']);
    const past = await search(cookie, { when: 'past' });
    expect(names(past)).toEqual(['Yesterday', 'Last month', 'Last month early']);
    expect(past).toMatchObject({ total: 3, upcoming: 6, past: 3 });
  });

  it('matches name, e-mail, phone, notes and service, ignoring case, wildcards taken literally', async () => {
    await appointment({ name: 'Alma Byrne', date: day(3), notes: 'Bring the 1099_NEC forms', serviceType: 'Individual Tax Return' });
    await appointment({ name: 'Carl Dunn', date: day(4), email: 'carl@Dunn.example', phone: '724-555-0142' });
    await appointment({ name: 'Edda Frey', date: day(-5), notes: 'Pays 100% by card', serviceType: 'Bookkeeping' });
    await appointment({ name: 'Gus Hale', date: day(-6), notes: 'Pays 1000 by check; 1099xNEC' });
    const cookie = await signIn();
    expect(names(await search(cookie, { q: 'alma' }))).toEqual(['Alma Byrne']);
    expect(names(await search(cookie, { q: 'DUNN.EXAMPLE' }))).toEqual(['Carl Dunn']);
    expect(names(await search(cookie, { q: '555-0142' }))).toEqual(['Carl Dunn']);
    expect(names(await search(cookie, { q: 'individual tax' }))).toEqual(['Alma Byrne']);
    expect(names(await search(cookie, { q: 'bookkeeping' }))).toEqual(['Edda Frey']);
    expect(names(await search(cookie, { q: '100%' }))).toEqual(['Edda Frey']);
    expect(names(await search(cookie, { q: '1099_' }))).toEqual(['Alma Byrne']);
    expect(await search(cookie, { q: 'pays' })).toMatchObject({ total: 2, upcoming: 0, past: 2 });
  });

  it('filters by status and by the appointment day', async () => {
    await appointment({ name: 'Requested', date: day(5) });
    await appointment({ name: 'Confirmed', date: day(6), status: 'confirmed' });
    await appointment({ name: 'Cancelled', date: day(7), status: 'cancelled' });
    await appointment({ name: 'Old confirmed', date: day(-7), status: 'confirmed' });
    const cookie = await signIn();
    expect(names(await search(cookie, { status: 'confirmed' }))).toEqual(['Confirmed', 'Old confirmed']);
    expect(names(await search(cookie, { status: 'cancelled' }))).toEqual(['Cancelled']);
    expect(names(await search(cookie, { from: day(6), to: day(7) }))).toEqual(['Confirmed', 'Cancelled']);
    expect(names(await search(cookie, { to: day(5) }))).toEqual(['Requested', 'Old confirmed']);
    expect(names(await search(cookie, { from: day(-7), to: day(-7) }))).toEqual(['Old confirmed']);
    // The header's figure is every request still ahead, whatever is searched.
    expect(await search(cookie, { status: 'cancelled' })).toMatchObject({ awaiting: 1 });
  });

  it('pages 50 at a time with the total of every match', async () => {
    await env.DB.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 75)
       INSERT INTO appointments (name, email, service_type, date, time_slot, status)
       SELECT 'Client ' || i, 'c' || i || '@example.com', 'Payroll Services', date(?, '-' || i || ' days'), '9:00 AM', 'confirmed' FROM n`,
    )
      .bind(today())
      .run();
    const cookie = await signIn();
    const first = await search(cookie, { q: 'client' });
    expect(first.items).toHaveLength(50);
    expect(first).toMatchObject({ total: 75, past: 75, upcoming: 0 });
    expect(first.items[0].name).toBe('Client 1');
    const second = await search(cookie, { q: 'client', page: '2' });
    expect(second.items).toHaveLength(25);
    expect(second.items.at(-1)!.name).toBe('Client 75');
  });

  it('refuses a bad query with 400 and field messages', async () => {
    await expectRefusedQueries('/api/admin/appointments/search', await signIn(), [
      [{ status: 'done' }, 'status', 'Status must be one of: requested, confirmed, cancelled'],
      [{ when: 'soon' }, 'when', "When must be 'upcoming' or 'past'"],
    ]);
  });
});
