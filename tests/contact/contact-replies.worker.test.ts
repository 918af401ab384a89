import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { firm } from '#core/content/firm';
import { firmToday } from '#core/firm-time';
import { DAILY_REPLY_CAP, REPLY_CAP_MESSAGE } from '../../worker/services/contact/replies';
import { ADMIN, call, client, signIn } from '../harness/worker/helpers';
import { callWith, fakeMailChannels, mailChannelsEnv } from '../harness/worker/mailchannels-fake';

// Replies from the inbox (docs/product.md §6.2): plain text, from the firm's address with the
// person's name, Reply-To the firm's inbox, threaded under the firm's notification, logged, capped.

type Row = Record<string, unknown>;
const mail = (kind: string) => env.DB.prepare('SELECT * FROM email_log WHERE kind = ? ORDER BY id').bind(kind).all<Row>().then((r) => r.results);
const headersOf = (row: Row) => JSON.parse(row.headers as string) as Record<string, string>;

async function contactMessage(email = 'visitor@example.com'): Promise<number> {
  const res = await client({ ip: '198.51.100.3' }).api.contact.$post({ json: { name: 'Vera Visitor', email, message: 'Do you prepare returns for\nsmall partnerships?' } });
  expect(res.status).toBe(201);
  return (await env.DB.prepare('SELECT id FROM contact_messages WHERE email = ? ORDER BY id DESC').bind(email).first<{ id: number }>())!.id;
}

const reply = (cookie: string, id: number | string, body: unknown) => call(`/api/admin/contact-messages/${id}/replies`, { cookie, body: { body } });

describe('POST /api/admin/contact-messages/:id/replies', () => {
  it('e-mails the visitor, threaded under the notification, and shows the conversation and "Replied" in the inbox', async () => {
    const id = await contactMessage();
    const [notification] = await mail('contact-notification');
    const root = headersOf(notification)['Message-ID'];
    expect(root).toMatch(/^<[0-9a-f-]{36}@northgatecpa\.example>$/);
    expect(await env.DB.prepare('SELECT message_id FROM contact_messages WHERE id = ?').bind(id).first('message_id')).toBe(root);

    const cookie = await signIn();
    const first = await reply(cookie, id, 'Yes, we do. Could you call us this week?');
    expect(first.status).toBe(201);
    expect(await first.json()).toMatchObject({ message: 'Reply sent to visitor@example.com', replies: [{ authorName: ADMIN.username, body: 'Yes, we do. Could you call us this week?', emailStatus: 'stored' }] });

    const [sent] = await mail('contact-reply');
    expect(sent).toMatchObject({ to: 'visitor@example.com', to_name: 'Vera Visitor', from_name: `${ADMIN.username} at ${firm.name}`, reply_to: firm.contact.email, subject: `Re: Your message to ${firm.name}`, html_body: null });
    expect(sent.text_body).toContain('Yes, we do. Could you call us this week?');
    expect(sent.text_body).toContain('Vera Visitor wrote:\n> Do you prepare returns for\n> small partnerships?');
    const headers = headersOf(sent);
    expect(headers['In-Reply-To']).toBe(root);
    expect(headers.References).toBe(root);
    expect(headers['Message-ID']).toMatch(/^<[0-9a-f-]{36}@northgatecpa\.example>$/);
    expect(headers['Message-ID']).not.toBe(root);

    // The second reply threads under the first too.
    expect((await reply(cookie, id, 'Following up on my note.')).status).toBe(201);
    const second = (await mail('contact-reply'))[1];
    expect(headersOf(second).References).toBe(`${root} ${headers['Message-ID']}`);
    expect(headersOf(second)['In-Reply-To']).toBe(root);

    const thread = await client({ cookie }).api.admin['contact-messages'][':id'].replies.$get({ param: { id: String(id) } });
    expect(((await thread.json()) as { body: string }[]).map((r) => r.body)).toEqual(['Yes, we do. Could you call us this week?', 'Following up on my note.']);
    const inbox = (await (await client({ cookie }).api.admin['contact-messages'].$get()).json()) as { id: number; lastRepliedAt: string | null }[];
    expect(inbox.find((m) => m.id === id)!.lastRepliedAt).toMatch(/^\d{4}-/);
    // Marking it read keeps it "Replied".
    const read = await client({ cookie }).api.admin['contact-messages'][':id'].$patch({ param: { id: String(id) }, json: { read: true } });
    expect(((await read.json()) as unknown as { lastRepliedAt: string | null }).lastRepliedAt).toMatch(/^\d{4}-/);

    const audit = (await env.DB.prepare("SELECT actor, record, network FROM audit_log WHERE action = 'contact.reply'").all<Row>()).results;
    expect(audit).toEqual([
      { actor: ADMIN.username, record: `contact-message:${id}`, network: '203.0.113.7' },
      { actor: ADMIN.username, record: `contact-message:${id}`, network: '203.0.113.7' },
    ]);
  });

  it('goes out through MailChannels from the firm address with the person\'s name, Reply-To the inbox and the thread headers', async () => {
    const id = await contactMessage('mc@example.com');
    const requests = fakeMailChannels();
    const cookie = await signIn();
    const res = await callWith(mailChannelsEnv(), `/api/admin/contact-messages/${id}/replies`, { cookie, body: { body: 'Thanks for writing.' } });
    expect(res.status).toBe(201);
    const sent = requests.at(-1)!.body as Row & { from: { email: string; name: string }; headers: Record<string, string> };
    expect(sent.from).toEqual({ email: env.MAIL_FROM, name: `${ADMIN.username} at ${firm.name}` });
    expect(sent.reply_to).toEqual({ email: firm.contact.email });
    expect(Object.keys(sent.headers).sort()).toEqual(['In-Reply-To', 'Message-ID', 'References']);
    expect((sent.content as { type: string }[]).map((c) => c.type)).toEqual(['text/plain']);
  });

  it('marks "Replied" on the message replied to, whatever its id and the reply\'s (not on the others)', async () => {
    const cookie = await signIn();
    const first = await contactMessage('first@example.com');
    const second = await contactMessage('second@example.com');
    // A reply's id differs from its message's: the list must match them by the message, not by chance.
    expect((await reply(cookie, second, 'Answering the second one.')).status).toBe(201);
    const list = (await (await call('/api/admin/contact-messages', { cookie })).json()) as { id: number; lastRepliedAt: string | null }[];
    expect(list.find((m) => m.id === second)!.lastRepliedAt).not.toBeNull();
    expect(list.find((m) => m.id === first)!.lastRepliedAt).toBeNull();
  });

  it('gives a message older than replies a thread root of its own', async () => {
    const old = await env.DB.prepare("INSERT INTO contact_messages (name, email, message) VALUES ('Old', 'old@example.com', 'An older question') RETURNING id").first<{ id: number }>();
    const cookie = await signIn();
    expect((await reply(cookie, old!.id, 'Sorry for the wait.')).status).toBe(201);
    const root = await env.DB.prepare('SELECT message_id FROM contact_messages WHERE id = ?').bind(old!.id).first<string>('message_id');
    expect(root).toMatch(/^<.+@northgatecpa\.example>$/);
    expect(headersOf((await mail('contact-reply'))[0])['In-Reply-To']).toBe(root);
  });

  it(`refuses a reply past ${DAILY_REPLY_CAP} a day for one person with 429, sending and recording nothing`, async () => {
    const id = await contactMessage();
    const cookie = await signIn();
    const me = (await env.DB.prepare('SELECT id FROM admin_users WHERE username = ?').bind(ADMIN.username).first<number>('id'))!;
    const day = firmToday(firm.timeZone);
    const fill = Array.from({ length: DAILY_REPLY_CAP }, (_, i) =>
      env.DB.prepare("INSERT INTO contact_replies (contact_message_id, admin_user_id, author_name, body, message_id, day) VALUES (?, ?, 'x', 'x', ?, ?)").bind(id, me, `<m${i}@x>`, day),
    );
    await env.DB.batch(fill);
    const res = await reply(cookie, id, 'One too many.');
    expect(res.status).toBe(429);
    expect(await res.json()).toEqual({ message: REPLY_CAP_MESSAGE });
    expect(await mail('contact-reply')).toEqual([]);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM audit_log WHERE action = 'contact.reply'").first('n')).toBe(0);
    // Yesterday's replies do not count against today.
    await env.DB.prepare("UPDATE contact_replies SET day = '2000-01-01'").run();
    expect((await reply(cookie, id, 'Now it goes.')).status).toBe(201);
  });

  it('answers 400 for an empty or too long reply, 404 for an unknown message and 401 without a session', async () => {
    const id = await contactMessage();
    const cookie = await signIn();
    const empty = await reply(cookie, id, '   ');
    expect(empty.status).toBe(400);
    expect(await empty.json()).toEqual({ message: 'Please write a reply', fields: { body: ['Please write a reply'] } });
    expect((await reply(cookie, id, 'x'.repeat(10_001))).status).toBe(400);
    expect((await reply(cookie, 99999, 'Hello')).status).toBe(404);
    expect((await call('/api/admin/contact-messages/99999/replies', { cookie })).status).toBe(404);
    expect((await reply('', id, 'Hello')).status).toBe(401);
    expect(await mail('contact-reply')).toEqual([]);
  });
});
