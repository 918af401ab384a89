import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { defaultContent } from '#core/content/default-content';
import { firm } from '#core/content/firm';
import { contactNotificationEmail } from '../../worker/services/contact/emails';
import { enqueue } from '../../worker/services/email/enqueue';
import { firmToday } from '#core/firm-time';
import { call, client, signIn } from '../harness/worker/helpers';
import { callWithEnv, visitorIp } from '../harness/worker/submission-helpers';

const valid = { name: 'Jane Visitor', email: 'jane@example.com', phone: '(412) 555-0100', message: 'I need help with my 2025 return.' };

const countRows = async (table: string) => (await env.DB.prepare(`SELECT count(*) AS n FROM ${table}`).first<{ n: number }>())!.n;

describe('POST /api/contact', () => {
  it('stores the message, answers 201 and notifies the firm', async () => {
    const res = await client().api.contact.$post({ json: valid });
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ message: expect.stringContaining("We'll get back to you") });

    const row = await env.DB.prepare('SELECT * FROM contact_messages').first<Record<string, unknown>>();
    expect(row).toMatchObject({ name: 'Jane Visitor', email: 'jane@example.com', phone: '(412) 555-0100', message: valid.message, read_at: null });

    const mail = await env.DB.prepare("SELECT * FROM email_log WHERE kind = 'contact-notification'").first<Record<string, string>>();
    expect(mail).toMatchObject({ to: firm.contact.email, status: 'stored', subject: 'New contact message from Jane Visitor' });
    expect(mail!.text_body).toContain(valid.message);
    expect(mail!.html_body).toContain('jane@example.com');
  });

  it('takes phone as optional: absent or empty is stored as null', async () => {
    expect((await client().api.contact.$post({ json: { ...valid, phone: undefined } })).status).toBe(201);
    expect((await client({ ip: '203.0.113.8' }).api.contact.$post({ json: { ...valid, phone: '' } })).status).toBe(201);
    const { results } = await env.DB.prepare('SELECT phone FROM contact_messages').all<{ phone: string | null }>();
    expect(results.map((r) => r.phone)).toEqual([null, null]);
  });

  it('escapes visitor text in the HTML notification', async () => {
    await client().api.contact.$post({ json: { ...valid, message: '<script>alert(1)</script> please call me' } });
    const mail = await env.DB.prepare('SELECT html_body FROM email_log').first<{ html_body: string }>();
    expect(mail!.html_body).not.toContain('<script>');
    expect(mail!.html_body).toContain('&lt;script&gt;');
  });

  it.each([
    ['an invalid e-mail', { email: 'not-an-email' }, 'email', 'Please enter a valid email address'],
    ['a missing e-mail', { email: undefined }, 'email', 'Please enter a valid email address'],
    ['a short message', { message: 'Too short' }, 'message', 'Message must be at least 10 characters'],
    ['a message of spaces', { message: '               ' }, 'message', 'Message must be at least 10 characters'],
    ['a missing name', { name: undefined }, 'name', 'Name is required'],
    ['a blank name', { name: '   ' }, 'name', 'Name is required'],
    ['an overlong name', { name: 'x'.repeat(101) }, 'name', 'Name must be at most 100 characters'],
    ['an overlong message', { message: 'x'.repeat(5001) }, 'message', 'Message must be at most 5000 characters'],
    ['an overlong phone', { phone: '1'.repeat(41) }, 'phone', 'Phone must be at most 40 characters'],
  ])('answers 400 to %s, with the field message, and stores nothing', async (_label, change, field, message) => {
    // Raw call: the body is malformed on purpose, which the typed client would not compile.
    const res = await call('/api/contact', { body: { ...valid, ...change } });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { message: string; fields: Record<string, string[]> };
    expect(body.message).toBe(message);
    expect(body.fields[field]).toContain(message);
    expect(await countRows('contact_messages')).toBe(0);
    expect(await countRows('email_log')).toBe(0);
  });

  it('answers 400 to malformed JSON and to a non-object body', async () => {
    expect((await call('/api/contact', { rawBody: '{"name":', headers: { 'content-type': 'application/json' } })).status).toBe(400);
    // Raw call: the body is malformed on purpose, which the typed client would not compile.
    expect((await call('/api/contact', { body: ['x'] })).status).toBe(400);
  });

  it('refuses a cross-site post (CSRF) with 403', async () => {
    const res = await client({ headers: { origin: 'https://evil.example' } }).api.contact.$post({ json: valid });
    expect(res.status).toBe(403);
    expect(await countRows('contact_messages')).toBe(0);
  });
});

describe('the honeypot', () => {
  it('answers a filled honeypot as success but stores, counts and sends nothing', async () => {
    const res = await client().api.contact.$post({ json: { ...valid, website: 'http://spam.example' } });
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ message: expect.any(String) });
    expect(await countRows('contact_messages')).toBe(0);
    expect(await countRows('email_log')).toBe(0);
    expect(await countRows('daily_counters')).toBe(0);
  });

  it('gives a bot the same success even when the rest of its input is invalid', async () => {
    const res = await client().api.contact.$post({ json: { name: '', email: 'x', message: 'y', website: 'bot' } });
    expect(res.status).toBe(201);
    expect(await countRows('contact_messages')).toBe(0);
  });

  it('ignores an empty honeypot (what a person sends)', async () => {
    expect((await client().api.contact.$post({ json: { ...valid, website: '' } })).status).toBe(201);
    expect(await countRows('contact_messages')).toBe(1);
  });
});

describe('a failing e-mail never loses the message', () => {
  it('answers 201 and keeps the message when the e-mail system is broken', async () => {
    // The e-mail log is where every send starts: without it nothing is queued, and the message still stands.
    await env.DB.prepare('DROP TABLE email_log').run();
    const res = await client().api.contact.$post({ json: valid });
    expect(res.status).toBe(201);
    const row = await env.DB.prepare('SELECT name, message FROM contact_messages').first();
    expect(row).toEqual({ name: 'Jane Visitor', message: valid.message });
  });

  it('records a transport failure as failed in the e-mail log without throwing', async () => {
    const broken = {
      name: 'mailchannels',
      send: async () => {
        throw new Error('MailChannels answered 503');
      },
    };
    const message = { id: 1, name: 'Jane', email: 'jane@example.com', phone: null, message: 'Hello there, firm.', createdAt: new Date() };
    const [outcome] = await enqueue({ env, transport: broken }, [contactNotificationEmail(defaultContent.firm, message)]);
    expect(outcome).toMatchObject({ ok: false, status: 'failed', error: 'MailChannels answered 503' });
    const log = await env.DB.prepare('SELECT status, error FROM email_log').first();
    expect(log).toEqual({ status: 'failed', error: 'MailChannels answered 503' });
  });

  it('keeps a name with line breaks out of the mail headers: refused at the door, nothing stored or sent', async () => {
    // Stored, such a name once made every reply to it fail (tests/security/one-line-fields.worker.test.ts).
    const res = await client().api.contact.$post({ json: { ...valid, name: 'Jane\r\nBcc: victim@example.com' } });
    expect(res.status).toBe(400);
    expect(((await res.json()) as unknown as { fields: Record<string, string[]> }).fields.name).toEqual(['Name must be a single line, without tabs or control characters']);
    expect(await countRows('contact_messages')).toBe(0);
    expect(await countRows('email_log')).toBe(0);
  });
});

describe('abuse limits', () => {
  it('throttles one IP after SUBMISSIONS_PER_IP_PER_WINDOW submissions with a clear 429', async () => {
    const limit = Number(env.SUBMISSIONS_PER_IP_PER_WINDOW);
    for (let i = 0; i < limit; i++) expect((await client({ ip: '192.0.2.10' }).api.contact.$post({ json: valid })).status).toBe(201);
    const res = await client({ ip: '192.0.2.10' }).api.contact.$post({ json: valid });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('600');
    expect(((await res.json()) as { message: string }).message).toMatch(/Too many submissions.*10 minutes/);
    // Another visitor is not affected.
    expect((await client({ ip: '192.0.2.11' }).api.contact.$post({ json: valid })).status).toBe(201);
    expect(await countRows('contact_messages')).toBe(limit + 1);
  });

  it('counts the day in the firm time zone and records distinct IPs only as hashes', async () => {
    await client({ ip: '192.0.2.20' }).api.contact.$post({ json: valid });
    await client({ ip: '192.0.2.20' }).api.contact.$post({ json: valid });
    await client({ ip: '192.0.2.21' }).api.contact.$post({ json: valid });
    const day = firmToday(firm.timeZone);
    expect(await env.DB.prepare('SELECT day, counter, count FROM daily_counters').all()).toMatchObject({ results: [{ day, counter: 'contact', count: 3 }] });
    const { results } = await env.DB.prepare('SELECT day, ip_hash FROM daily_submitters').all<{ day: string; ip_hash: string }>();
    expect(results).toHaveLength(2);
    for (const r of results) {
      expect(r.day).toBe(day);
      expect(r.ip_hash).toMatch(/^[0-9a-f]{32}$/);
      expect(r.ip_hash).not.toContain('192.0.2');
    }
    const stats = await client({ cookie: await signIn() }).api.admin['rate-limit-stats'].$get();
    expect(stats.status).toBe(200);
    expect(await stats.json()).toEqual({ globalCount: 3, globalCap: 160, ipCount: 2, contact: { count: 3, cap: 80 }, booking: { count: 0, cap: 80 } });
  });

  it('holds the daily cap of 80 exactly: 120 simultaneous visitors store 80 and get 429 for the rest, never a 5xx', async () => {
    const responses = await Promise.all(
      Array.from({ length: 120 }, (_, i) => client({ ip: visitorIp(i) }).api.contact.$post({ json: { ...valid, name: `Visitor ${i}` } })),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(80);
    expect(statuses.filter((s) => s === 429)).toHaveLength(40);
    expect(statuses.filter((s) => s >= 500)).toHaveLength(0);
    const refused = responses.find((r) => r.status === 429)!;
    expect(((await refused.json()) as { message: string }).message).toMatch(/unusually high number of requests today/);
    expect(await countRows('contact_messages')).toBe(80);
    expect(await env.DB.prepare("SELECT count FROM daily_counters WHERE counter = 'contact'").first()).toEqual({ count: 80 });
    expect(await countRows('daily_submitters')).toBe(80);
  }, 30_000);

  it('applies a configured cap, and a cap of 0 closes the forms', async () => {
    const low = { DAILY_CONTACT_CAP: '2' };
    expect((await callWithEnv(low, '/api/contact', { body: valid, ip: visitorIp(1) })).status).toBe(201);
    expect((await callWithEnv(low, '/api/contact', { body: valid, ip: visitorIp(2) })).status).toBe(201);
    expect((await callWithEnv(low, '/api/contact', { body: valid, ip: visitorIp(3) })).status).toBe(429);
    expect((await callWithEnv({ DAILY_CONTACT_CAP: '0' }, '/api/contact', { body: valid, ip: visitorIp(4) })).status).toBe(429);
    expect(await countRows('contact_messages')).toBe(2);
  });
});
