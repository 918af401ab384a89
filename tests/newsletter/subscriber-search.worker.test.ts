import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { firm } from '#core/content/firm';
import { zonedInstant } from '#core/firm-time';
import { accountSignedIn } from '../harness/worker/admin-accounts-helpers';
import { call, client, expectRefusedQueries, okJson, signIn } from '../harness/worker/helpers';

// GET /api/admin/subscribers/search and /subscribers/counts (worker/routes/admin/newsletter.ts,
// docs/product.md §6.3): the subscriber screen's page of 50, its search, filters and the three
// statistic cards, all from D1. GET /subscribers (every row, for the CSV) keeps its shape.

const DAY = 24 * 60 * 60 * 1000;

async function insertSubscriber(email: string, columns: { name?: string | null; active?: 'true' | 'false'; subscriptionDate?: number } = {}) {
  await env.DB.prepare('INSERT INTO newsletter_subscriptions (email, name, active, subscription_date) VALUES (?, ?, ?, ?)')
    .bind(email, columns.name ?? null, columns.active ?? 'true', columns.subscriptionDate ?? Date.now())
    .run();
}

const search = async (query: Record<string, string>, cookie?: string) =>
  client({ cookie: cookie ?? (await signIn()) }).api.admin.subscribers.search.$get({ query });
const emailsOf = (page: { items: { email: string }[] }) => page.items.map((s) => s.email);

describe('GET /api/admin/subscribers/search', () => {
  it('is closed without a session, and open to staff as the subscriber list is', async () => {
    expect((await client().api.admin.subscribers.search.$get({ query: {} })).status).toBe(401);
    expect((await client().api.admin.subscribers.counts.$get()).status).toBe(401);
    const staff = (await accountSignedIn('staffer', 'staff')).cookie;
    expect((await client({ cookie: staff }).api.admin.subscribers.$get()).status).toBe(200);
    expect((await search({}, staff)).status).toBe(200);
    expect((await client({ cookie: staff }).api.admin.subscribers.counts.$get()).status).toBe(200);
  });

  it('answers one page of 50, newest first, with the total and the page', async () => {
    const base = Date.UTC(2026, 5, 1, 12);
    for (let i = 0; i < 120; i++) await insertSubscriber(`reader${String(i).padStart(3, '0')}@example.com`, { subscriptionDate: base + i * 60_000 });
    const cookie = await signIn();
    const first = await okJson(await search({}, cookie));
    expect(first).toMatchObject({ total: 120, page: 1, pageSize: 50 });
    expect(first.items).toHaveLength(50);
    expect(first.items[0].email).toBe('reader119@example.com');
    // The row is the list's own shape (toSubscriber), so the table reads it as it read the whole list.
    expect(Object.keys(first.items[0]).sort()).toEqual(
      ['active', 'email', 'id', 'name', 'status', 'subscriptionDate', 'suppressedAt', 'suppressionDetail', 'suppressionReason'].sort(),
    );
    const third = await okJson(await search({ page: '3' }, cookie));
    expect(third).toMatchObject({ total: 120, page: 3 });
    expect(emailsOf(third)).toEqual(Array.from({ length: 20 }, (_, i) => `reader${String(19 - i).padStart(3, '0')}@example.com`));
    // Past the end: no rows, the total still says how many there are.
    const past = await okJson(await search({ page: '4' }, cookie));
    expect(past).toMatchObject({ items: [], total: 120, page: 4 });
  });

  it('matches e-mail and name, case-insensitively, and takes % and _ literally', async () => {
    await insertSubscriber('pat.lindqvist@example.com', { name: 'Pat Lindqvist' });
    await insertSubscriber('someone@example.org', { name: 'Quincy ZEBRAFINCH' });
    await insertSubscriber('percent@example.com', { name: '100% sure' });
    await insertSubscriber('under_score@example.com');
    await insertSubscriber('underxscore@example.com', { name: '100 percent' });
    const cookie = await signIn();
    expect(emailsOf(await okJson(await search({ q: 'LINDQVIST' }, cookie)))).toEqual(['pat.lindqvist@example.com']);
    expect(emailsOf(await okJson(await search({ q: 'zebrafinch' }, cookie)))).toEqual(['someone@example.org']);
    // A % or _ in the search is that character, not a wildcard.
    expect(emailsOf(await okJson(await search({ q: '100%' }, cookie)))).toEqual(['percent@example.com']);
    expect(emailsOf(await okJson(await search({ q: 'under_' }, cookie)))).toEqual(['under_score@example.com']);
    expect(emailsOf(await okJson(await search({ q: '%' }, cookie)))).toEqual(['percent@example.com']);
    // Surrounding spaces are not part of the search.
    expect((await okJson(await search({ q: '  example.org ' }, cookie))).total).toBe(1);
    expect(await okJson(await search({ q: 'nobody-here' }, cookie))).toMatchObject({ items: [], total: 0 });
  });

  it('narrows to Active or Inactive subscribers', async () => {
    await insertSubscriber('on@example.com', { active: 'true' });
    await insertSubscriber('off@example.com', { active: 'false' });
    await env.DB.prepare("INSERT INTO newsletter_subscriptions (email, active, suppression_reason, suppressed_at) VALUES ('bounced@example.com', 'false', 'bounced', ?)")
      .bind(Date.now())
      .run();
    const cookie = await signIn();
    expect(emailsOf(await okJson(await search({ status: 'active' }, cookie)))).toEqual(['on@example.com']);
    expect(emailsOf(await okJson(await search({ status: 'inactive' }, cookie))).sort()).toEqual(['bounced@example.com', 'off@example.com']);
    expect((await okJson(await search({ status: 'inactive', q: 'bounced' }, cookie))).total).toBe(1);
  });

  it('filters the subscription date by the firm’s calendar days, both ends included', async () => {
    const dayStart = zonedInstant('2026-03-10', 0, firm.timeZone).getTime();
    const nextDayStart = zonedInstant('2026-03-11', 0, firm.timeZone).getTime();
    await insertSubscriber('before@example.com', { subscriptionDate: dayStart - 1 });
    await insertSubscriber('first-moment@example.com', { subscriptionDate: dayStart });
    await insertSubscriber('last-moment@example.com', { subscriptionDate: nextDayStart - 1 });
    await insertSubscriber('after@example.com', { subscriptionDate: nextDayStart });
    const cookie = await signIn();
    const oneDay = await okJson(await search({ from: '2026-03-10', to: '2026-03-10' }, cookie));
    expect(emailsOf(oneDay)).toEqual(['last-moment@example.com', 'first-moment@example.com']);
    expect(emailsOf(await okJson(await search({ from: '2026-03-11' }, cookie)))).toEqual(['after@example.com']);
    expect(emailsOf(await okJson(await search({ to: '2026-03-09' }, cookie)))).toEqual(['before@example.com']);
  });

  it('refuses bad input with 400 and a message per field', async () => {
    const cookie = await signIn();
    await expectRefusedQueries('/api/admin/subscribers/search', cookie, [
      ['status=pending', 'status', 'Status must be one of: active, inactive'],
    ]);
    expect((await call(`/api/admin/subscribers/search?q=${'a'.repeat(200)}`, { cookie })).status).toBe(200);
  });
});

describe('GET /api/admin/subscribers/counts', () => {
  it('counts all, active and those subscribed within 30 days', async () => {
    const now = Date.now();
    await insertSubscriber('new-active@example.com', { active: 'true', subscriptionDate: now - DAY });
    await insertSubscriber('new-pending@example.com', { active: 'false', subscriptionDate: now - 29 * DAY });
    await insertSubscriber('old-active@example.com', { active: 'true', subscriptionDate: now - 31 * DAY });
    await insertSubscriber('old-inactive@example.com', { active: 'false', subscriptionDate: now - 400 * DAY });
    const counts = await okJson(await client({ cookie: await signIn() }).api.admin.subscribers.counts.$get());
    expect(counts).toEqual({ total: 4, active: 2, recent: 2 });
  });

  it('answers zeros for an empty list', async () => {
    expect(await okJson(await client({ cookie: await signIn() }).api.admin.subscribers.counts.$get())).toEqual({ total: 0, active: 0, recent: 0 });
  });
});

describe('GET /api/admin/subscribers', () => {
  it('still answers every subscriber as a list, for the CSV export', async () => {
    for (let i = 0; i < 60; i++) await insertSubscriber(`all${i}@example.com`);
    const list = await okJson(await client({ cookie: await signIn() }).api.admin.subscribers.$get());
    expect(Array.isArray(list)).toBe(true);
    expect(list).toHaveLength(60);
  });
});
