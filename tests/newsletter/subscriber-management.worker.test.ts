import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { ERASED_ADDRESS, PENDING_PURGE_BATCH } from '../../worker/services/newsletter/list-hygiene';
import { client, cronTick, signIn } from '../harness/worker/helpers';
import { callWith, fakeMailChannels, mailChannelsEnv } from '../harness/worker/mailchannels-fake';

// Subscriber management and list hygiene (docs/product.md §5, §6.3): erasure, resending the
// confirmation, the purge of stale sign-ups, and what the confirmation e-mail may carry.

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

type Row = Record<string, unknown>;

const subscriberByEmail = (email: string) => env.DB.prepare('SELECT * FROM newsletter_subscriptions WHERE email = ?').bind(email).first<Row>();

async function idOf(email: string): Promise<number> {
  const row = await subscriberByEmail(email);
  if (!row) throw new Error(`no subscriber ${email}`);
  return row.id as number;
}

async function insertSubscriber(email: string, columns: Record<string, string | number | null> = {}): Promise<number> {
  const values = { email, active: 'false', ...columns };
  const names = Object.keys(values);
  const row = await env.DB.prepare(`INSERT INTO newsletter_subscriptions (${names.join(', ')}) VALUES (${names.map(() => '?').join(', ')}) RETURNING id`)
    .bind(...Object.values(values))
    .first<{ id: number }>();
  return row!.id;
}

const logTo = (email: string) => env.DB.prepare('SELECT * FROM email_log WHERE "to" = ? ORDER BY id').bind(email).all<Row>().then((r) => r.results);

/** Every stored value anywhere in these tables that still contains the text. */
async function mentions(text: string, tables: string[]): Promise<string[]> {
  const found: string[] = [];
  for (const table of tables) {
    const rows = (await env.DB.prepare(`SELECT * FROM ${table}`).all<Row>()).results;
    for (const row of rows) {
      for (const [column, value] of Object.entries(row)) {
        if (typeof value === 'string' && value.toLowerCase().includes(text.toLowerCase())) found.push(`${table}.${column}`);
      }
    }
  }
  return found;
}

const resend = (id: number | string, cookie?: string) => client({ cookie }).api.admin.subscribers[':id']['resend-confirmation'].$post({ param: { id: String(id) } });
const remove = (id: number | string, cookie?: string) => client({ cookie }).api.admin.subscribers[':id'].$delete({ param: { id: String(id) } });

describe('subscriber endpoints need the admin session', () => {
  it('answer 401 and change nothing without it', async () => {
    const id = await insertSubscriber('kept@example.com');
    expect((await remove(id)).status).toBe(401);
    expect((await resend(id)).status).toBe(401);
    expect(await subscriberByEmail('kept@example.com')).not.toBeNull();
    expect(await logTo('kept@example.com')).toEqual([]);
  });
});

describe('DELETE /api/admin/subscribers/:id (erasure)', () => {
  it('deletes the subscriber and leaves their address in no delivery record, log entry or event', async () => {
    const cookie = await signIn();
    const email = 'erase.me@example.com';
    // Signed up (a confirmation e-mail), confirmed, then sent a newsletter alongside someone else.
    expect((await client().api.newsletter.subscribe.$post({ json: { email, name: 'Erin Erase' } })).status).toBe(200);
    await env.DB.prepare("UPDATE newsletter_subscriptions SET active = 'true', confirmed_at = ? WHERE email = ?").bind(Date.now(), email).run();
    await insertSubscriber('stays@example.com', { active: 'true', confirmed_at: Date.now() });
    const sent = await client({ cookie }).api.admin['send-newsletter'].$post({ json: { subject: 'November notes', content: '<p>Quarterly estimates are due.</p>' } });
    expect(sent.status).toBe(200);
    // Another mail to the same person (an appointment) and a provider event naming them.
    await env.DB.prepare("INSERT INTO email_log (\"to\", subject, kind, status, transport, text_body) VALUES (?, 'Your appointment', 'appointment-confirmation', 'stored', 'outbox', 'See you')")
      .bind(email)
      .run();
    await env.DB.prepare("INSERT INTO delivery_events (event_key, event, recipient) VALUES ('evt-1', 'delivered', ?)").bind(email).run();
    const newsletterLog = (await logTo(email)).filter((r) => r.kind === 'newsletter');
    expect(newsletterLog).toHaveLength(1);
    expect(String(newsletterLog[0].headers)).toContain('List-Unsubscribe');
    const before = await env.DB.prepare('SELECT recipient_count, total_recipients FROM sent_newsletters').first<Row>();

    const id = await idOf(email);
    const res = await remove(id, cookie);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { message: string }).message).toContain(email);

    expect(await subscriberByEmail(email)).toBeNull();
    // The newsletter's counts are what they were; its delivery row is still there, naming nobody.
    expect(await env.DB.prepare('SELECT recipient_count, total_recipients FROM sent_newsletters').first<Row>()).toEqual(before);
    const deliveries = (await env.DB.prepare('SELECT subscriber_id, email, status FROM newsletter_deliveries ORDER BY id').all<Row>()).results;
    expect(deliveries).toHaveLength(2);
    expect(deliveries.find((d) => d.subscriber_id === id)).toEqual({ subscriber_id: id, email: ERASED_ADDRESS, status: 'sent' });
    expect(deliveries.find((d) => d.subscriber_id !== id)?.email).toBe('stays@example.com');
    // The log still says a confirmation and a newsletter went out, to nobody in particular.
    const erased = (await logTo(ERASED_ADDRESS)).map((r) => ({ kind: r.kind, text: r.text_body, html: r.html_body, headers: r.headers }));
    expect(erased).toEqual([
      { kind: 'newsletter-confirmation', text: '', html: null, headers: null },
      { kind: 'newsletter', text: '', html: null, headers: null },
    ]);
    expect(await mentions(email, ['newsletter_subscriptions', 'newsletter_deliveries', 'delivery_events'])).toEqual([]);
    // Only the appointment mail (another record of the firm's) still names them.
    expect((await logTo(email)).map((r) => r.kind)).toEqual(['appointment-confirmation']);
    expect((await logTo('stays@example.com')).map((r) => r.text_body)).toEqual([expect.stringContaining('Quarterly estimates')]);

    // Gone means gone: a second delete is a 404, as is an id never used; a non-number is a 400.
    expect((await remove(id, cookie)).status).toBe(404);
    const unknown = await remove(999_999, cookie);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ message: 'Subscriber not found' });
    expect((await remove('abc', cookie)).status).toBe(400);
  });

  it('takes the address out of a failed delivery and its error too, and the next claim fails a pending one', async () => {
    const cookie = await signIn();
    const id = await insertSubscriber('half@example.com', { active: 'true', confirmed_at: Date.now() });
    const newsletter = await env.DB.prepare("INSERT INTO sent_newsletters (subject, content, total_recipients) VALUES ('S', 'C', 1) RETURNING id").first<{ id: number }>();
    await env.DB.prepare("INSERT INTO newsletter_deliveries (newsletter_id, subscriber_id, email, status) VALUES (?, ?, 'half@example.com', 'pending')").bind(newsletter!.id, id).run();
    await env.DB.prepare("INSERT INTO email_log (\"to\", subject, kind, status, transport, text_body, error) VALUES ('half@example.com', 'S', 'newsletter', 'failed', 'mailchannels', 'body', 'rejected half@example.com: mailbox full')").run();
    expect((await remove(id, cookie)).status).toBe(200);
    const [log] = await logTo(ERASED_ADDRESS);
    expect(log.error).toBe(`rejected ${ERASED_ADDRESS}: mailbox full`);
    expect(await mentions('half@example.com', ['email_log', 'newsletter_deliveries'])).toEqual([]);
    // The send resumes on the next tick and fails the erased person's row instead of mailing it.
    await cronTick(Date.now());
    const delivery = await env.DB.prepare('SELECT status, email FROM newsletter_deliveries').first<Row>();
    expect(delivery).toEqual({ status: 'failed', email: ERASED_ADDRESS });
    expect(await logTo(ERASED_ADDRESS)).toHaveLength(1);
  });
});

describe('POST /api/admin/subscribers/:id/resend-confirmation', () => {
  it('mails a pending subscriber a fresh confirmation, at most once per 10 minutes', async () => {
    const cookie = await signIn();
    const email = 'pending.pat@example.com';
    expect((await client().api.newsletter.subscribe.$post({ json: { email } })).status).toBe(200);
    const id = await idOf(email);

    // The sign-up's e-mail went out just now: the same 10-minute rule as the sign-up form.
    const early = await resend(id, cookie);
    expect(early.status).toBe(429);
    expect(((await early.json()) as { message: string }).message).toBe(
      'A confirmation e-mail went to this address less than 10 minutes ago. Please try again in 10 minutes.',
    );
    expect(Number(early.headers.get('retry-after'))).toBeGreaterThan(9 * 60);
    expect(await logTo(email)).toHaveLength(1);

    await env.DB.prepare('UPDATE newsletter_subscriptions SET confirmation_sent_at = ? WHERE id = ?').bind(Date.now() - 10 * MINUTE - 1000, id).run();
    const res = await resend(id, cookie);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: `Confirmation e-mail sent to ${email}` });
    const mails = await logTo(email);
    expect(mails.map((m) => m.kind)).toEqual(['newsletter-confirmation', 'newsletter-confirmation']);
    expect(String(mails[1].text_body)).toMatch(/\/newsletter\/confirm\?token=\S+/);
    expect(((await subscriberByEmail(email))!.confirmation_sent_at as number) > Date.now() - MINUTE).toBe(true);

    // Straight after, it is too soon again; the two simultaneous clicks send one e-mail between them.
    await env.DB.prepare('UPDATE newsletter_subscriptions SET confirmation_sent_at = ? WHERE id = ?').bind(Date.now() - 11 * MINUTE, id).run();
    const statuses = (await Promise.all([resend(id, cookie), resend(id, cookie)])).map((r) => r.status).sort();
    expect(statuses).toEqual([200, 429]);
    expect(await logTo(email)).toHaveLength(3);
  });

  it('refuses active, unsubscribed and suppressed subscribers with 409, and unknown ids with 404', async () => {
    const cookie = await signIn();
    const cases: [string, Record<string, string | number | null>, string][] = [
      ['active@example.com', { active: 'true', confirmed_at: 1 }, 'This subscriber has already confirmed'],
      ['left@example.com', { unsubscribed_at: 1 }, 'This subscriber has unsubscribed; no confirmation is sent'],
      ['bounced@example.com', { suppressed_at: 1, suppression_reason: 'bounced', suppression_detail: '550 5.1.1 no such user' }, 'This address bounced and is suppressed; nothing is sent to it'],
      ['spam@example.com', { suppressed_at: 1, suppression_reason: 'complained' }, 'This address reported our mail as spam and is suppressed; nothing is sent to it'],
    ];
    for (const [email, columns, message] of cases) {
      const id = await insertSubscriber(email, columns);
      const res = await resend(id, cookie);
      expect(res.status, email).toBe(409);
      expect(await res.json()).toEqual({ message });
      expect(await logTo(email)).toEqual([]);
    }
    const unknown = await resend(424_242, cookie);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ message: 'Subscriber not found' });
  });

  it('gives the 10 minutes back when the e-mail could not be sent', async () => {
    const cookie = await signIn();
    const requests = fakeMailChannels(() => Response.json({ errors: ['down'] }, { status: 500 }));
    const id = await insertSubscriber('retry@example.com');
    const res = await callWith(mailChannelsEnv(), `/api/admin/subscribers/${id}/resend-confirmation`, { method: 'POST', cookie });
    expect(res.status).toBe(502);
    expect(requests.length).toBeGreaterThan(0);
    expect((await subscriberByEmail('retry@example.com'))!.confirmation_sent_at).toBeNull();
  });
});

describe('GET /api/admin/subscribers shows suppression', () => {
  it('gives bounced and complained subscribers their status, reason, detail and date', async () => {
    const cookie = await signIn();
    await insertSubscriber('bounced@example.com', { suppressed_at: Date.UTC(2026, 10, 20, 12), suppression_reason: 'bounced', suppression_detail: '550 5.1.1 no such user' });
    await insertSubscriber('spam@example.com', { suppressed_at: Date.UTC(2026, 10, 21, 12), suppression_reason: 'complained' });
    await insertSubscriber('fine@example.com', { active: 'true', confirmed_at: 1 });
    const list = (await (await client({ cookie }).api.admin.subscribers.$get()).json()) as Row[];
    const by = (email: string) => list.find((s) => s.email === email);
    expect(by('bounced@example.com')).toMatchObject({
      active: 'false',
      status: 'bounced',
      suppressionReason: 'bounced',
      suppressionDetail: '550 5.1.1 no such user',
      suppressedAt: '2026-11-20T12:00:00.000Z',
    });
    expect(by('spam@example.com')).toMatchObject({ status: 'complained', suppressionReason: 'complained', suppressionDetail: null });
    expect(by('fine@example.com')).toMatchObject({ status: 'active', suppressionReason: null, suppressionDetail: null, suppressedAt: null });
  });
});

describe('list hygiene: the cron purges sign-ups never confirmed within 30 days', () => {

  it('deletes only stale pending rows, never confirmed, unsubscribed or suppressed ones', async () => {
    const now = Date.now();
    const old = now - 31 * DAY;
    await insertSubscriber('stale@example.com', { subscription_date: old, confirmation_sent_at: old });
    await insertSubscriber('stale-no-mail@example.com', { subscription_date: old });
    await insertSubscriber('fresh@example.com', { subscription_date: now - 29 * DAY, confirmation_sent_at: now - 29 * DAY });
    // Signed up long ago, asked again last week: the new link must keep working.
    await insertSubscriber('asked-again@example.com', { subscription_date: old, confirmation_sent_at: now - 7 * DAY });
    await insertSubscriber('active@example.com', { subscription_date: old, active: 'true', confirmed_at: old });
    await insertSubscriber('left@example.com', { subscription_date: old, confirmed_at: old, unsubscribed_at: old });
    await insertSubscriber('unconfirmed-left@example.com', { subscription_date: old, unsubscribed_at: old });
    await insertSubscriber('bounced@example.com', { subscription_date: old, suppressed_at: old, suppression_reason: 'bounced' });
    await cronTick(now);
    const left = (await env.DB.prepare('SELECT email FROM newsletter_subscriptions ORDER BY email').all<{ email: string }>()).results.map((r) => r.email);
    expect(left).toEqual([
      'active@example.com',
      'asked-again@example.com',
      'bounced@example.com',
      'fresh@example.com',
      'left@example.com',
      'unconfirmed-left@example.com',
    ]);
    // Two days on, the 29-day-old sign-up has expired too.
    await cronTick(now + 2 * DAY);
    expect(await subscriberByEmail('fresh@example.com')).toBeNull();
    expect(await subscriberByEmail('asked-again@example.com')).not.toBeNull();
  });

  it(`works in batches of ${PENDING_PURGE_BATCH}, oldest first`, async () => {
    const now = Date.now();
    const total = PENDING_PURGE_BATCH + 20;
    const statements = Array.from({ length: total }, (_, i) =>
      env.DB.prepare("INSERT INTO newsletter_subscriptions (email, active, subscription_date) VALUES (?, 'false', ?)").bind(`bulk${i}@example.com`, now - 40 * DAY + i * MINUTE),
    );
    await env.DB.batch(statements);
    await cronTick(now);
    const remaining = (await env.DB.prepare('SELECT email FROM newsletter_subscriptions ORDER BY subscription_date').all<{ email: string }>()).results;
    expect(remaining).toHaveLength(20);
    expect(remaining[0].email).toBe(`bulk${PENDING_PURGE_BATCH}@example.com`);
    await cronTick(now + MINUTE);
    expect((await env.DB.prepare('SELECT count(*) AS n FROM newsletter_subscriptions').first<{ n: number }>())!.n).toBe(0);
  });
});

describe('the confirmation e-mail to an unverified address', () => {
  const SPAM_NAME = 'Win $$$ at http://spam.example';

  it('carries no visitor-chosen text beyond the address, in the log or on the wire', async () => {
    const requests = fakeMailChannels();
    const res = await callWith(mailChannelsEnv(), '/api/newsletter/subscribe', { body: { email: 'target@example.com', name: SPAM_NAME } });
    expect(res.status).toBe(200);
    // The name is kept for the admin's list, and nowhere in the e-mail.
    expect((await subscriberByEmail('target@example.com'))!.name).toBe(SPAM_NAME);
    const [mail] = await logTo('target@example.com');
    expect(mail.kind).toBe('newsletter-confirmation');
    for (const column of ['subject', 'text_body', 'html_body', 'headers']) {
      for (const fragment of ['spam.example', 'Win $$$']) expect(String(mail[column] ?? ''), column).not.toContain(fragment);
    }
    expect(String(mail.text_body).startsWith('Hello,\n')).toBe(true);
    expect(requests).toHaveLength(1);
    expect(requests[0].body.personalizations[0].to).toEqual([{ email: 'target@example.com' }]);
    expect(JSON.stringify(requests[0].body)).not.toContain('spam.example');
  });

  it('stays free of the name when the admin resends it', async () => {
    const cookie = await signIn();
    const id = await insertSubscriber('named@example.com', { name: SPAM_NAME });
    expect((await resend(id, cookie)).status).toBe(200);
    const [mail] = await logTo('named@example.com');
    expect(`${mail.subject}${mail.text_body}${mail.html_body}`).not.toContain('spam.example');
  });
});
