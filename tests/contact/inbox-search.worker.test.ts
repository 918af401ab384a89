import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { LIST_PAGE_SIZE } from '#core/schemas/admin-list';
import { call, client, expectRefusedQueries, okJson, signIn } from '../harness/worker/helpers';

// The inbox's search, paging, filters and archive (docs/product.md §6.2, "Finding anything in the
// back office"): GET /api/admin/contact-messages/search answers a page of 50 with what matches in
// all; PATCH /:id/archive takes a message out of the default view and brings it back.

type Message = { id: number; name: string; email: string; readAt: string | null; archivedAt: string | null; lastRepliedAt: string | null };
type Page = { items: Message[]; total: number; page: number; pageSize: number; unread: number; all: number };

/** One stored message (the form's own path is tested in contact.worker.test.ts); `at` is its received time. */
async function message(fields: { name?: string; email?: string; phone?: string | null; message?: string; at?: Date; read?: boolean }): Promise<number> {
  const row = await env.DB.prepare('INSERT INTO contact_messages (name, email, phone, message, created_at, read_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING id')
    .bind(
      fields.name ?? 'Vera Visitor',
      fields.email ?? 'vera@example.com',
      fields.phone ?? null,
      fields.message ?? 'A question about my return.',
      (fields.at ?? new Date()).getTime(),
      fields.read ? Date.now() : null,
    )
    .first<{ id: number }>();
  return row!.id;
}

async function search(cookie: string, query: Record<string, string> = {}): Promise<Page> {
  const res = await call(`/api/admin/contact-messages/search?${new URLSearchParams(query)}`, { cookie });
  expect(res.status).toBe(200);
  return (await res.json()) as Page;
}

const names = (page: Page) => page.items.map((m) => m.name);
const archive = (cookie: string, id: number | string, archived: unknown) => call(`/api/admin/contact-messages/${id}/archive`, { method: 'PATCH', cookie, body: { archived } });

describe('GET /api/admin/contact-messages/search', () => {
  it('is closed without a session', async () => {
    expect((await call('/api/admin/contact-messages/search')).status).toBe(401);
    expect((await client().api.admin['contact-messages'].search.$get({ query: {} })).status).toBe(401);
  });

  it('matches name, e-mail, phone and message text, ignoring case', async () => {
    await message({ name: 'Alma Byrne', email: 'alma@example.com', message: 'About payroll for my bakery.' });
    await message({ name: 'Carl Dunn', email: 'carl.dunn@Mail.example', phone: '724-555-0199', message: 'Quarterly estimates question.' });
    await message({ name: 'Edda Frey', email: 'edda@example.com', message: 'Can you help with an IRS letter?' });
    const cookie = await signIn();
    expect(names(await search(cookie, { q: 'BYRNE' }))).toEqual(['Alma Byrne']);
    expect(names(await search(cookie, { q: 'mail.EXAMPLE' }))).toEqual(['Carl Dunn']);
    expect(names(await search(cookie, { q: '555-0199' }))).toEqual(['Carl Dunn']);
    expect(names(await search(cookie, { q: 'irs letter' }))).toEqual(['Edda Frey']);
    expect(names(await search(cookie, { q: '  bakery  ' }))).toEqual(['Alma Byrne']);
    const none = await search(cookie, { q: 'nothing like this' });
    expect(none).toMatchObject({ items: [], total: 0, page: 1, pageSize: LIST_PAGE_SIZE, all: 3 });
  });

  it('takes %, _ and \\ in the search literally', async () => {
    await message({ name: 'Percent', message: 'I am 100% sure about this.' });
    await message({ name: 'Hundred', message: 'I am 100 percent sure, 1000 times.' });
    await message({ name: 'Under', message: 'My file is tax_2025.pdf.' });
    await message({ name: 'Letters', message: 'My file is taxe2025.pdf.' });
    await message({ name: 'Slash', message: 'Folder C:\\returns please.' });
    const cookie = await signIn();
    expect(names(await search(cookie, { q: '100%' }))).toEqual(['Percent']);
    expect(names(await search(cookie, { q: '%' }))).toEqual(['Percent']);
    expect(names(await search(cookie, { q: 'tax_2025' }))).toEqual(['Under']);
    expect(names(await search(cookie, { q: '_' }))).toEqual(['Under']);
    expect(names(await search(cookie, { q: 'C:\\r' }))).toEqual(['Slash']);
  });

  it('pages 50 at a time, newest first, with the total of every match', async () => {
    const start = Date.UTC(2025, 0, 1);
    await env.DB.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 120)
       INSERT INTO contact_messages (name, email, message, created_at) SELECT 'Sender ' || i, 's' || i || '@example.com', 'Message number ' || i, ? + i * 60000 FROM n`,
    )
      .bind(start)
      .run();
    await message({ name: 'Other person', message: 'Unrelated.' , at: new Date(start) });
    const cookie = await signIn();
    const first = await search(cookie, { q: 'message number' });
    expect(first).toMatchObject({ total: 120, page: 1, pageSize: 50, all: 121, unread: 121 });
    expect(first.items).toHaveLength(50);
    expect(first.items[0].name).toBe('Sender 120');
    const third = await search(cookie, { q: 'message number', page: '3' });
    expect(third.items.map((m) => m.name)).toEqual(Array.from({ length: 20 }, (_, i) => `Sender ${20 - i}`));
    expect(third).toMatchObject({ total: 120, page: 3 });
    expect(await search(cookie, { q: 'message number', page: '4' })).toMatchObject({ items: [], total: 120, page: 4 });
  });

  it('filters by status and by the day received in the firm\'s time zone', async () => {
    // 03:30 UTC on 10 March 2025 is 22:30 on 9 March in New York (EST, UTC-5).
    const lateOnNinth = await message({ name: 'Late ninth', at: new Date('2025-03-10T03:30:00Z') });
    await message({ name: 'Tenth', at: new Date('2025-03-10T15:00:00Z'), read: true });
    await message({ name: 'Eleventh', at: new Date('2025-03-11T12:00:00Z') });
    const cookie = await signIn();
    expect(names(await search(cookie, { from: '2025-03-09', to: '2025-03-09' }))).toEqual(['Late ninth']);
    expect(names(await search(cookie, { from: '2025-03-10' }))).toEqual(['Eleventh', 'Tenth']);
    expect(names(await search(cookie, { to: '2025-03-10' }))).toEqual(['Tenth', 'Late ninth']);
    expect(names(await search(cookie, { status: 'read' }))).toEqual(['Tenth']);
    expect(names(await search(cookie, { status: 'unread' }))).toEqual(['Eleventh', 'Late ninth']);

    expect((await call(`/api/admin/contact-messages/${lateOnNinth}/replies`, { cookie, body: { body: 'We can help; please call us.' } })).status).toBe(201);
    expect(names(await search(cookie, { status: 'replied' }))).toEqual(['Late ninth']);
  });

  it('refuses a bad query with 400 and field messages', async () => {
    await expectRefusedQueries('/api/admin/contact-messages/search', await signIn(), [
      [{ status: 'deleted' }, 'status', 'Status must be one of: unread, read, replied, archived'],
    ]);
  });
});

describe('PATCH /api/admin/contact-messages/:id/archive', () => {
  it('takes a message out of the inbox into "Archived" and back, each step audited', async () => {
    const kept = await message({ name: 'Kept' });
    const filed = await message({ name: 'Filed away', email: 'filed@example.com' });
    const cookie = await signIn();

    const archived = await archive(cookie, filed, true);
    expect(archived.status).toBe(200);
    const body = (await archived.json()) as Message;
    expect(body).toMatchObject({ id: filed, name: 'Filed away', archivedAt: expect.stringMatching(/Z$/) });
    expect(names(await search(cookie))).toEqual(['Kept']);
    expect(await search(cookie)).toMatchObject({ total: 1, all: 2, unread: 1 });
    expect(names(await search(cookie, { q: 'filed' }))).toEqual([]);
    expect(names(await search(cookie, { status: 'archived' }))).toEqual(['Filed away']);
    expect(names(await search(cookie, { status: 'archived', q: 'FILED@' }))).toEqual(['Filed away']);
    // Archiving again keeps the first time.
    expect(((await (await archive(cookie, filed, true)).json()) as Message).archivedAt).toBe(body.archivedAt);

    const back = await client({ cookie }).api.admin['contact-messages'][':id'].archive.$patch({ param: { id: String(filed) }, json: { archived: false } });
    expect((await okJson(back)).archivedAt).toBeNull();
    expect(names(await search(cookie))).toEqual(['Filed away', 'Kept']);
    expect(names(await search(cookie, { status: 'archived' }))).toEqual([]);

    const { results } = await env.DB.prepare("SELECT action, record, outcome FROM audit_log WHERE action LIKE 'contact.%' ORDER BY id").all();
    expect(results).toEqual([
      { action: 'contact.archive', record: `contact-message:${filed}`, outcome: 'success' },
      { action: 'contact.archive', record: `contact-message:${filed}`, outcome: 'success' },
      { action: 'contact.unarchive', record: `contact-message:${filed}`, outcome: 'success' },
    ]);
    expect(kept).toBeLessThan(filed);
  });

  it('answers 404 for an unknown message and 400 for a bad id or body, recording nothing', async () => {
    const cookie = await signIn();
    await env.DB.prepare('DELETE FROM audit_log').run();
    expect((await archive(cookie, 999_999, true)).status).toBe(404);
    expect((await archive(cookie, 999_999, false)).status).toBe(404);
    expect((await archive(cookie, 'abc', true)).status).toBe(400);
    const bad = await archive(cookie, 1, 'yes');
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { message: string }).message).toBe('archived must be true or false');
    expect((await call('/api/admin/contact-messages/1/archive', { method: 'PATCH', cookie, body: {} })).status).toBe(400);
    expect(await env.DB.prepare('SELECT count(*) AS n FROM audit_log').first('n')).toBe(0);
  });

  it('is closed without a session', async () => {
    const id = await message({});
    expect((await archive('', id, true)).status).toBe(401);
    expect(await env.DB.prepare('SELECT archived_at FROM contact_messages WHERE id = ?').bind(id).first('archived_at')).toBeNull();
  });
});

describe('a reply from the inbox', () => {
  it('marks the message read, in the same write', async () => {
    const id = await message({ name: 'Needs answer' });
    const cookie = await signIn();
    expect(await search(cookie)).toMatchObject({ unread: 1 });
    expect((await call(`/api/admin/contact-messages/${id}/replies`, { cookie, body: { body: 'Thanks, we will call you today.' } })).status).toBe(201);
    const [item] = (await search(cookie)).items;
    expect(item.readAt).toMatch(/Z$/);
    expect(item.lastRepliedAt).toMatch(/Z$/);
    expect(await search(cookie)).toMatchObject({ unread: 0 });
    expect(names(await search(cookie, { status: 'unread' }))).toEqual([]);
  });

  it('keeps an earlier read time, and a refused reply marks nothing', async () => {
    const id = await message({ name: 'Already read', read: true });
    const readAt = await env.DB.prepare('SELECT read_at FROM contact_messages WHERE id = ?').bind(id).first('read_at');
    const cookie = await signIn();
    expect((await call(`/api/admin/contact-messages/${id}/replies`, { cookie, body: { body: 'A second look at this.' } })).status).toBe(201);
    expect(await env.DB.prepare('SELECT read_at FROM contact_messages WHERE id = ?').bind(id).first('read_at')).toBe(readAt);

    const unread = await message({ name: 'Over the cap' });
    // The author has used up today's replies (DAILY_REPLY_CAP): the reply is refused and the message stays unread.
    await env.DB.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 60)
       INSERT INTO contact_replies (contact_message_id, admin_user_id, author_name, body, message_id, day, created_at)
       SELECT ?, r.admin_user_id, 'x', 'x', '<cap-' || i || '@example>', r.day, r.created_at FROM n, (SELECT admin_user_id, day, created_at FROM contact_replies LIMIT 1) r`,
    )
      .bind(id)
      .run();
    expect((await call(`/api/admin/contact-messages/${unread}/replies`, { cookie, body: { body: 'Over the cap, this one.' } })).status).toBe(429);
    expect(await env.DB.prepare('SELECT read_at FROM contact_messages WHERE id = ?').bind(unread).first('read_at')).toBeNull();
  });
});
