import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { call, client, signIn } from '../harness/worker/helpers';
import { callWith, fakeMailChannels, mailChannelsEnv } from '../harness/worker/mailchannels-fake';

// The send dialog's "Send a test" (docs/product.md §6.3; worker/routes/admin/newsletter-test-send.ts):
// this issue to one address, marked [TEST], through the normal transport, logged in email_log,
// and nothing else: no sent_newsletters row, no delivery, no subscriber touched.

const SITE = env.SITE_URL.replace(/\/+$/, '');
const PATH = '/api/admin/newsletter/test-send';

type LogRow = { id: number; to: string; subject: string; kind: string; status: string; transport: string; html_body: string; text_body: string; headers: string | null };

async function logRows(kind?: string) {
  const rows = (await env.DB.prepare('SELECT * FROM email_log ORDER BY id').all<LogRow>()).results;
  return kind ? rows.filter((r) => r.kind === kind) : rows;
}

async function counts() {
  const one = async (sql: string) => (await env.DB.prepare(sql).first<{ n: number }>())!.n;
  return {
    newsletters: await one('SELECT count(*) AS n FROM sent_newsletters'),
    deliveries: await one('SELECT count(*) AS n FROM newsletter_deliveries'),
    subscribers: await env.DB.prepare('SELECT * FROM newsletter_subscriptions ORDER BY id').all().then((r) => JSON.stringify(r.results)),
  };
}

async function addSubscriber(email = 'reader@example.com') {
  await env.DB.prepare("INSERT INTO newsletter_subscriptions (email, name, active, confirmed_at) VALUES (?, 'Rita Reader', 'true', 1)").bind(email).run();
}

describe('POST /api/admin/newsletter/test-send', () => {
  it('needs a session', async () => {
    const res = await client().api.admin.newsletter['test-send'].$post({ json: { subject: 'Hi', content: '<p>x</p>', to: 'me@example.com' } });
    expect(res.status).toBe(401);
    expect(await logRows()).toEqual([]);
  });

  it('sends the issue to the one address as [TEST], logged as newsletter-test, and records nothing else', async () => {
    const cookie = await signIn();
    await addSubscriber();
    const before = await counts();
    const res = await client({ cookie }).api.admin.newsletter['test-send'].$post({ json: { subject: '  Spring tips ', content: '<p onclick="x()">Hello<script>alert(1)</script></p>', to: ' Owner@Example.com ' } });
    expect(res.status).toBe(200);
    const [row] = await logRows();
    expect(await res.json()).toEqual({
      message: `No MailChannels key is configured: the test to Owner@Example.com was stored in the outbox (e-mail log #${row.id}), not sent`,
    });
    expect(await logRows()).toHaveLength(1);
    expect(row).toMatchObject({ to: 'Owner@Example.com', subject: '[TEST] Spring tips', kind: 'newsletter-test', status: 'stored', transport: 'outbox', headers: null });
    expect(row.html_body).toContain('<p>Hello</p>');
    expect(row.html_body).not.toMatch(/<script|onclick/);
    expect(row.html_body).toContain(`href="${SITE}/newsletter/unsubscribe?token=test-send"`);
    expect(row.text_body).toContain(`Unsubscribe: ${SITE}/newsletter/unsubscribe?token=test-send`);
    expect(await counts()).toEqual(before);
    // The admin's history and stats did not move.
    expect(await (await client({ cookie }).api.admin['sent-newsletters'].$get()).json()).toEqual([]);
    expect(await (await client().api.newsletters.$get()).json()).toEqual([]);
  });

  it('is the e-mail a subscriber gets, but for the [TEST] subject and a link that unsubscribes nobody', async () => {
    const cookie = await signIn();
    await addSubscriber();
    // Click tracking off: with it on, the subscriber's links are their own /r/ links (docs/product.md
    // §5.11) and the test e-mail, which nobody's click should count, keeps the originals.
    expect((await client({ cookie }).api.admin.newsletter.settings.$put({ json: { clickTracking: false } })).status).toBe(200);
    const draft = { subject: 'Year-end moves', content: '<h2>Year-end</h2><p>Harvest losses <a href="https://irs.gov">IRS</a></p>' };
    expect((await client({ cookie }).api.admin['send-newsletter'].$post({ json: draft })).status).toBe(200);
    expect((await client({ cookie }).api.admin.newsletter['test-send'].$post({ json: { ...draft, to: 'owner@example.com' } })).status).toBe(200);
    const [real] = await logRows('newsletter');
    const [test] = await logRows('newsletter-test');
    const realUnsubscribe = real.html_body.match(/href="([^"]*\/newsletter\/unsubscribe\?token=[^"]+)"/)![1];
    const asTest = real.html_body.replace(realUnsubscribe, `${SITE}/newsletter/unsubscribe?token=test-send`).replace('<title>Year-end moves</title>', '<title>[TEST] Year-end moves</title>');
    expect(test.html_body).toBe(asTest);
    // No one-click unsubscribe for a test: there is no subscription to end.
    expect(JSON.parse(real.headers!)).toHaveProperty('List-Unsubscribe');
    expect(test.headers).toBeNull();

    // The test's link is not a token: the unsubscribe check refuses it, and the subscriber stays.
    const check = await client().api.newsletter.unsubscribe.$get({ query: { token: 'test-send' } });
    expect(((await check.json()) as { valid: boolean }).valid).toBe(false);
    const oneClick = await call('/api/newsletter/unsubscribe?token=test-send', { method: 'POST', rawBody: 'List-Unsubscribe=One-Click', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(oneClick.status).toBeGreaterThanOrEqual(400);
    expect((await env.DB.prepare("SELECT active FROM newsletter_subscriptions WHERE email = 'reader@example.com'").first<{ active: string }>())!.active).toBe('true');
  });

  it('goes through MailChannels when a key is configured', async () => {
    const requests = fakeMailChannels(() => Response.json({ request_id: 'mc-test' }, { status: 202 }));
    const cookie = await signIn();
    const res = await callWith(mailChannelsEnv(), PATH, { cookie, body: { subject: 'Spring tips', content: '<p>Hello</p>', to: 'owner@example.com' } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: 'Test sent to owner@example.com' });
    expect(requests).toHaveLength(1);
    expect(requests[0].body.subject).toBe('[TEST] Spring tips');
    expect(requests[0].body.personalizations[0].to).toEqual([{ email: 'owner@example.com' }]);
    expect(requests[0].body.headers ?? {}).not.toHaveProperty('List-Unsubscribe');
    const [row] = await logRows();
    expect(row).toMatchObject({ kind: 'newsletter-test', status: 'sent', transport: 'mailchannels' });
  });

  it('answers 502 with the reason when the provider refuses it', async () => {
    fakeMailChannels(() => new Response('mailbox unavailable', { status: 400 }));
    const cookie = await signIn();
    const res = await callWith(mailChannelsEnv(), PATH, { cookie, body: { subject: 'Spring tips', content: '<p>Hello</p>', to: 'owner@example.com' } });
    expect(res.status).toBe(502);
    expect(((await res.json()) as { message: string }).message).toMatch(/^The test could not be sent: MailChannels answered 400: mailbox unavailable/);
    expect((await logRows())[0]).toMatchObject({ kind: 'newsletter-test', status: 'failed' });
  });

  it('refuses a missing or bad address, a missing subject or content, and content that sanitises to nothing', async () => {
    const cookie = await signIn();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ subject: 'S', content: '<p>x</p>', to: '' }, 'to', 'Please enter an email address'],
      [{ subject: 'S', content: '<p>x</p>' }, 'to', 'Please enter an email address'],
      [{ subject: 'S', content: '<p>x</p>', to: 'not-an-address' }, 'to', 'Please enter a valid email address'],
      [{ subject: 'S', content: '<p>x</p>', to: 'a@b.co\r\nBcc: x@y.z' }, 'to', 'Please enter a valid email address'],
      [{ subject: '', content: '<p>x</p>', to: 'me@example.com' }, 'subject', 'Please fill in both subject and content'],
      [{ subject: 'Two\nlines', content: '<p>x</p>', to: 'me@example.com' }, 'subject', 'The subject must be a single line, without tabs or control characters'],
      [{ subject: 'S', content: '  ', to: 'me@example.com' }, 'content', 'Please fill in both subject and content'],
    ];
    for (const [body, field, message] of cases) {
      // Raw call: bodies the validator refuses, which the typed client would not compile.
      const res = await call(PATH, { cookie, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      const answer = (await res.json()) as { message: string; fields: Record<string, string[]> };
      expect(answer.fields[field], JSON.stringify(body)).toContain(message);
    }
    const empty = await client({ cookie }).api.admin.newsletter['test-send'].$post({ json: { subject: 'S', content: '<script>alert(1)</script>', to: 'me@example.com' } });
    expect(empty.status).toBe(400);
    expect(await empty.json()).toEqual({ message: 'The newsletter content is empty once unsafe HTML is removed' });
    expect(await logRows()).toEqual([]);
  });

  it('accepts a body as large as the send endpoint does (over the default 64 KB)', async () => {
    const cookie = await signIn();
    const content = `<p>${'a'.repeat(100 * 1024)}</p>`;
    const res = await client({ cookie }).api.admin.newsletter['test-send'].$post({ json: { subject: 'Long issue', content, to: 'me@example.com' } });
    expect(res.status).toBe(200);
    const tooLarge = await client({ cookie }).api.admin.newsletter['test-send'].$post({ json: { subject: 'Huge', content: 'a'.repeat(1100 * 1024), to: 'me@example.com' } });
    expect(tooLarge.status).toBe(413);
  });
});
