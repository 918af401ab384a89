import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { firm } from '#core/content/firm';
import { emailTransport } from '../../worker/services/email/delivery';
import { enqueue } from '../../worker/services/email/enqueue';
import type { EmailTransport } from '../../worker/mail-types';
import type { OutgoingEmail } from '../../worker/mail-types';
import { accountSignedIn } from '../harness/worker/admin-accounts-helpers';
import { client, signIn } from '../harness/worker/helpers';
import { callWith, fakeMailChannels, MAILCHANNELS_URL, mailChannelsEnv } from '../harness/worker/mailchannels-fake';
import { callWithEnv, nextWeekday } from '../harness/worker/submission-helpers';

const message: OutgoingEmail = { to: 'client@example.com', toName: 'Casey Client', subject: 'Hello', text: 'Plain body', html: '<p>HTML body</p>', kind: 'test' };

async function logRows() {
  return (await env.DB.prepare('SELECT * FROM email_log ORDER BY id').all<Record<string, unknown>>()).results;
}

/** One message through the one enqueue, delivered at once: its outcome. */
const sendEmail = async (testEnv: typeof env, m: OutgoingEmail, transport?: EmailTransport) => (await enqueue({ env: testEnv, transport }, [m]))[0];
/** Several, delivered at once with the outcomes written in one batch (the newsletter's and the reminders' way). */
const sendEmailBatch = (testEnv: typeof env, transport: EmailTransport, messages: OutgoingEmail[]) => enqueue({ env: testEnv, transport, settle: () => [] }, messages);

describe('emailTransport', () => {
  it('is the outbox without a key and MailChannels with one', () => {
    expect(emailTransport(env).name).toBe('outbox');
    expect(emailTransport(mailChannelsEnv()).name).toBe('mailchannels');
  });
});

describe('enqueue through MailChannels (fake at the fetch boundary)', () => {
  it('posts the message with the API key and DKIM settings, then logs it as sent with the provider id', async () => {
    const requests = fakeMailChannels(() => Response.json({ request_id: 'mc-123' }, { status: 202 }));
    const testEnv = mailChannelsEnv({ DKIM_DOMAIN: 'northgatecpa.example', DKIM_SELECTOR: 'mcdkim', DKIM_PRIVATE_KEY: 'PRIVATEKEY', MAIL_FROM: 'news@northgatecpa.example' });
    const outcome = await sendEmail(testEnv, { ...message, headers: { 'List-Unsubscribe': '<https://x.example/u>' } });
    expect(outcome).toMatchObject({ ok: true, status: 'sent' });
    expect(requests).toHaveLength(1);
    const [req] = requests;
    expect(req.url).toBe(`${MAILCHANNELS_URL}/send`);
    expect(req.apiKey).toBe('test-mc-key');
    expect(req.body.personalizations[0]).toEqual({
      to: [{ email: 'client@example.com', name: 'Casey Client' }],
      dkim_domain: 'northgatecpa.example',
      dkim_selector: 'mcdkim',
      dkim_private_key: 'PRIVATEKEY',
    });
    expect(req.body.from.email).toBe('news@northgatecpa.example');
    expect(req.body.content).toEqual([
      { type: 'text/plain', value: 'Plain body' },
      { type: 'text/html', value: '<p>HTML body</p>' },
    ]);
    expect(req.body.headers).toEqual({ 'List-Unsubscribe': '<https://x.example/u>' });
    const [row] = await logRows();
    expect(row).toMatchObject({ to: 'client@example.com', status: 'sent', transport: 'mailchannels', provider_id: 'mc-123', error: null });
  });

  it("sends from MAIL_FROM (wrangler.jsonc) under the firm's name, whatever the DKIM domain", async () => {
    const requests = fakeMailChannels(() => Response.json({ request_id: 'mc-1' }, { status: 202 }));
    expect(env.MAIL_FROM).toMatch(/^[^@\s]+@[^@\s]+$/);
    await sendEmail(mailChannelsEnv({ DKIM_DOMAIN: 'other.example', DKIM_SELECTOR: 's', DKIM_PRIVATE_KEY: 'K' }), message);
    expect(requests[0].body.from).toEqual({ email: env.MAIL_FROM, name: firm.name });
  });

  it.each([
    [400, 'bad request'],
    [401, 'unauthorized'],
    [403, 'forbidden'],
    [429, 'slow down'],
    [500, 'internal error'],
    [503, 'unavailable'],
  ])('logs a provider %i as failed and never throws', async (status, text) => {
    fakeMailChannels(() => new Response(text, { status }));
    const outcome = await sendEmail(mailChannelsEnv(), message);
    expect(outcome.ok).toBe(false);
    expect(outcome.status).toBe('failed');
    const [row] = await logRows();
    expect(row.status).toBe('failed');
    expect(String(row.error)).toContain(`MailChannels answered ${status}: ${text}`);
  });

  it('gives up on a provider that does not answer within the timeout', async () => {
    fakeMailChannels(() => 'hang');
    const started = Date.now();
    const outcome = await sendEmail(mailChannelsEnv({ MAILCHANNELS_TIMEOUT_MS: '100' }), message);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(outcome).toMatchObject({ ok: false, status: 'failed' });
    expect(outcome.error).toMatch(/did not answer within 100 ms/);
  });

  it('logs a network failure as failed', async () => {
    fakeMailChannels(() => 'network-error');
    const outcome = await sendEmail(mailChannelsEnv(), message);
    expect(outcome).toMatchObject({ ok: false, status: 'failed' });
    expect(outcome.error).toMatch(/Could not reach MailChannels/);
  });

  it('writes the log row before calling the provider', async () => {
    let rowsWhileSending: Record<string, unknown>[] = [];
    fakeMailChannels(async () => {
      rowsWhileSending = await logRows();
      return new Response(null, { status: 202 });
    });
    await sendEmail(mailChannelsEnv(), message);
    expect(rowsWhileSending).toHaveLength(1);
    expect(rowsWhileSending[0].status).toBe('queued');
    expect((await logRows())[0].status).toBe('sent');
  });
});

describe('header injection', () => {
  it.each([
    ['to', { to: 'victim@example.com\r\nBcc: everyone@example.com' }],
    ['subject', { subject: 'Hi\nBcc: everyone@example.com' }],
    ['toName', { toName: 'Eve\rX-Evil: 1' }],
    ['replyTo', { replyTo: 'a@example.com\nBcc: b@example.com' }],
    ['header value', { headers: { 'List-Unsubscribe': '<https://x>\r\nBcc: b@example.com' } }],
    ['header name', { headers: { 'X-Test\r\nBcc': 'b@example.com' } }],
  ])('refuses CR/LF in %s: logged as failed, never sent', async (_field, override) => {
    const requests = fakeMailChannels();
    const outcome = await sendEmail(mailChannelsEnv(), { ...message, ...override } as OutgoingEmail);
    expect(outcome).toMatchObject({ ok: false, status: 'failed' });
    expect(requests).toHaveLength(0);
    const [row] = await logRows();
    expect(row.status).toBe('failed');
    expect(String(row.to)).not.toMatch(/[\r\n]/);
    expect(String(row.subject)).not.toMatch(/[\r\n]/);
  });
});

describe('outbox transport', () => {
  it('stores the message with status stored and sends nothing', async () => {
    const requests = fakeMailChannels();
    const outcome = await sendEmail(env, message);
    expect(outcome).toMatchObject({ ok: true, status: 'stored' });
    expect(requests).toHaveLength(0);
    const [row] = await logRows();
    expect(row).toMatchObject({ status: 'stored', transport: 'outbox', text_body: 'Plain body', html_body: '<p>HTML body</p>' });
  });
});

describe('GET /api/admin/emails', () => {
  it('lists the log newest first, at most 200, admin only', async () => {
    expect((await client().api.admin.emails.$get()).status).toBe(401);
    for (let i = 0; i < 3; i++) await sendEmail(env, { ...message, subject: `Message ${i}` });
    const cookie = await signIn();
    const res = await client({ cookie }).api.admin.emails.$get();
    expect(res.status).toBe(200);
    const list = (await res.json()) as { subject: string; status: string; kind: string; transport: string; error: null; providerId: null; createdAt: string }[];
    expect(list.map((e) => e.subject)).toEqual(['Message 2', 'Message 1', 'Message 0']);
    expect(list[0]).toMatchObject({ to: 'client@example.com', kind: 'test', status: 'stored', transport: 'outbox', error: null, providerId: null });
    expect(new Date(list[0].createdAt).toISOString()).toBe(list[0].createdAt);

    await env.DB.batch(
      Array.from({ length: 210 }, (_, i) =>
        env.DB.prepare("INSERT INTO email_log (\"to\", subject, kind, status, transport, text_body) VALUES ('x@example.com', ?, 'test', 'stored', 'outbox', 't')").bind(`bulk ${i}`),
      ),
    );
    const all = (await (await client({ cookie }).api.admin.emails.$get()).json()) as unknown[];
    expect(all).toHaveLength(200);
  });
});

describe('GET /api/admin/emails/:id', () => {
  it('answers one message whole as the log keeps it: sender, recipient, reply-to, headers, bodies, files, links not kept', async () => {
    const token = 'a'.repeat(43);
    const sent = await sendEmail(env, {
      ...message,
      fromName: 'Northgate Office',
      replyTo: 'office@northgatecpa.example',
      subject: 'Confirm your subscription',
      text: `Confirm: https://site.example/newsletter/confirm?token=${token}`,
      html: `<p><a href="https://site.example/newsletter/confirm?token=${token}">Confirm</a></p>`,
      headers: { 'List-Unsubscribe': `<https://site.example/api/newsletter/unsubscribe?token=${token}>` },
      attachments: [{ filename: 'invite.ics', contentType: 'text/calendar; method=REQUEST', content: btoa('BEGIN:VCALENDAR') }],
    });
    expect(sent.ok).toBe(true);
    expect((await client().api.admin.emails[':id'].$get({ param: { id: String(sent.logId) } })).status).toBe(401);
    const cookie = await signIn();
    const res = await client({ cookie }).api.admin.emails[':id'].$get({ param: { id: String(sent.logId) } });
    expect(res.status).toBe(200);
    const entry = (await res.json()) as Record<string, unknown>;
    expect(entry).toMatchObject({
      id: sent.logId,
      to: 'client@example.com',
      toName: 'Casey Client',
      from: `Northgate Office <${env.MAIL_FROM}>`,
      replyTo: 'office@northgatecpa.example',
      subject: 'Confirm your subscription',
      status: 'stored',
      transport: 'outbox',
      linksNotKept: true,
      attachments: [{ filename: 'invite.ics', contentType: 'text/calendar; method=REQUEST', content: btoa('BEGIN:VCALENDAR') }],
    });
    // The kept copy: the secret is nowhere in the answer, its place is marked.
    expect(JSON.stringify(entry)).not.toContain(token);
    expect(entry.textBody).toBe('Confirm: https://site.example/newsletter/confirm?token=(link sent, not kept)');
    expect((entry.headers as Record<string, string>)['List-Unsubscribe']).toContain('(link sent, not kept)');
    expect(entry).not.toHaveProperty('outboxMessage');
  });

  it("names the firm's published name as the sender when the message had none, and says when no link was left out", async () => {
    const sent = await sendEmail(env, message);
    const cookie = await signIn();
    const entry = (await (await client({ cookie }).api.admin.emails[':id'].$get({ param: { id: String(sent.logId) } })).json()) as Record<string, unknown>;
    expect(entry).toMatchObject({ from: `${firm.name} <${env.MAIL_FROM}>`, replyTo: null, linksNotKept: false, htmlBody: '<p>HTML body</p>' });
  });

  it('is open to staff, answers 404 for an entry not in the log and 400 for an id that is not one', async () => {
    const sent = await sendEmail(env, message);
    const { cookie } = await accountSignedIn('log-reader', 'staff');
    expect((await client({ cookie }).api.admin.emails[':id'].$get({ param: { id: String(sent.logId) } })).status).toBe(200);
    const missing = await client({ cookie }).api.admin.emails[':id'].$get({ param: { id: String(sent.logId + 1000) } });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ message: 'No such e-mail in the log' });
    for (const id of ['abc', '0', '-1', '1.5', '9'.repeat(40)]) {
      const bad = await client({ cookie }).api.admin.emails[':id'].$get({ param: { id } });
      expect(bad.status, id).toBe(400);
    }
  });
});

describe('POST /api/admin/email/test-auth', () => {
  it('reports that no key is configured (outbox)', async () => {
    const cookie = await signIn();
    const res = await client({ cookie }).api.admin.email['test-auth'].$post();
    expect(res.status).toBe(200);
    const { results } = (await res.json()) as { results: { provider: string; success: boolean; detail: string }[] };
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ provider: 'MailChannels', success: false });
    expect(results[0].detail).toMatch(/No MAILCHANNELS_API_KEY/);
  });

  it('passes when MailChannels accepts the key and SPF, DKIM and Domain Lockdown pass', async () => {
    const requests = fakeMailChannels(() =>
      Response.json({ check_results: { spf: { verdict: 'passed' }, domain_lockdown: { verdict: 'passed' }, dkim: [{ verdict: 'passed' }] } }),
    );
    const testEnv = mailChannelsEnv({ DKIM_DOMAIN: 'northgatecpa.example', DKIM_SELECTOR: 'mcdkim', DKIM_PRIVATE_KEY: 'K' });
    const cookie = await signIn();
    const res = await callWith(testEnv, '/api/admin/email/test-auth', { method: 'POST', cookie });
    const { results } = (await res.json()) as { results: { provider: string; success: boolean; detail: string }[] };
    expect(results[0]).toMatchObject({ provider: 'MailChannels', success: true });
    expect(requests[0].url).toBe(`${MAILCHANNELS_URL}/check-domain`);
    expect(requests[0].body).toMatchObject({ domain: 'northgatecpa.example' });
  });

  it('fails on a rejected key, a failing check, and a provider outage', async () => {
    const cookie = await signIn();
    const cases: [Response | 'hang', RegExp][] = [
      [new Response('no', { status: 401 }), /rejected the API key \(401\)/],
      [Response.json({ check_results: { spf: { verdict: 'failed' }, domain_lockdown: { verdict: 'passed' } } }), /SPF: failed/],
      [new Response('down', { status: 502 }), /answered 502/],
      ['hang', /did not answer/],
    ];
    for (const [answer, detail] of cases) {
      fakeMailChannels(() => (answer instanceof Response ? answer.clone() : answer));
      const res = await callWith(mailChannelsEnv(), '/api/admin/email/test-auth', { method: 'POST', cookie });
      const { results } = (await res.json()) as { results: { success: boolean; detail: string }[] };
      expect(results[0].success).toBe(false);
      expect(results[0].detail).toMatch(detail);
    }
  });
});

describe('POST /api/admin/email/test-send', () => {
  it('needs an address', async () => {
    const cookie = await signIn();
    const res = await client({ cookie }).api.admin.email['test-send'].$post({ json: { testEmail: '' } });
    expect(res.status).toBe(400);
    const bad = await client({ cookie }).api.admin.email['test-send'].$post({ json: { testEmail: 'a@b.c\r\nBcc: x@y.z' } });
    expect(bad.status).toBe(400);
  });

  it('stores the test e-mail in the outbox without a key', async () => {
    const cookie = await signIn();
    const res = await client({ cookie }).api.admin.email['test-send'].$post({ json: { testEmail: 'owner@example.com' } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { success: boolean; message: string };
    expect(body.success).toBe(true);
    expect(body.message).toMatch(/stored in the outbox/);
    expect((await logRows())[0]).toMatchObject({ to: 'owner@example.com', kind: 'test', status: 'stored' });
  });

  it('sends through MailChannels, and reports a provider failure as success false', async () => {
    const cookie = await signIn();
    const requests = fakeMailChannels();
    const ok = (await (await callWith(mailChannelsEnv(), '/api/admin/email/test-send', { cookie, body: { testEmail: 'owner@example.com' } })).json()) as { success: boolean; message: string };
    expect(ok).toEqual({ success: true, message: 'Test e-mail sent to owner@example.com through MailChannels' });
    expect(requests[0].body.personalizations[0].to).toEqual([{ email: 'owner@example.com' }]);
    fakeMailChannels(() => new Response('quota exceeded', { status: 403 }));
    const failed = (await (await callWith(mailChannelsEnv(), '/api/admin/email/test-send', { cookie, body: { testEmail: 'owner@example.com' } })).json()) as { success: boolean; message: string };
    expect(failed.success).toBe(false);
    expect(failed.message).toMatch(/403: quota exceeded/);
  });
});

describe('the e-mail log keeps attachments', () => {
  const ics = 'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nEND:VCALENDAR\r\n';
  const invite = { filename: 'appointment.ics', contentType: 'text/calendar; charset=utf-8; method=REQUEST', content: btoa(ics) };
  const withInvite: OutgoingEmail = { ...message, kind: 'appointment-confirmation', attachments: [invite] };

  type LoggedEmail = { subject: string; status: string; transport: string; attachments: { filename: string; contentType: string; content: string }[] };
  async function adminLog(): Promise<LoggedEmail[]> {
    const res = await client({ cookie: await signIn() }).api.admin.emails.$get();
    expect(res.status).toBe(200);
    return (await res.json()) as LoggedEmail[];
  }

  it('MailChannels: hands the attachment to the provider and logs exactly what it handed over', async () => {
    const requests = fakeMailChannels(() => Response.json({ request_id: 'mc-att' }, { status: 202 }));
    const outcome = await sendEmail(mailChannelsEnv(), withInvite);
    expect(outcome).toMatchObject({ ok: true, status: 'sent' });
    expect(requests[0].body.attachments).toEqual([{ type: invite.contentType, filename: 'appointment.ics', content: invite.content }]);
    const [row] = await logRows();
    expect(JSON.parse(String(row.attachments))).toEqual([invite]);
    const [entry] = await adminLog();
    expect(entry).toMatchObject({ status: 'sent', transport: 'mailchannels', attachments: [invite] });
    expect(atob(entry.attachments[0].content)).toBe(ics);
  });

  it('MailChannels: a refused message still shows the attachment it tried to send', async () => {
    fakeMailChannels(() => new Response('unavailable', { status: 503 }));
    const outcome = await sendEmail(mailChannelsEnv(), withInvite);
    expect(outcome).toMatchObject({ ok: false, status: 'failed' });
    const [entry] = await adminLog();
    expect(entry).toMatchObject({ status: 'failed', transport: 'mailchannels', attachments: [invite] });
  });

  it('outbox: stores the attachment with the message, and a message without one lists none', async () => {
    const requests = fakeMailChannels();
    await sendEmail(env, { ...message, subject: 'Plain' });
    await sendEmail(env, { ...withInvite, subject: 'Invite' });
    expect(requests).toHaveLength(0);
    const rows = await logRows();
    expect(rows[0].attachments).toBeNull();
    expect(JSON.parse(String(rows[1].attachments))).toEqual([invite]);
    const list = await adminLog();
    expect(list.map((e) => [e.subject, e.status, e.transport, e.attachments])).toEqual([
      ['Invite', 'stored', 'outbox', [invite]],
      ['Plain', 'stored', 'outbox', []],
    ]);
  });

  it('batch sending (both transports) logs the attachments too', async () => {
    await sendEmailBatch(env, emailTransport(env), [withInvite, { ...message, to: 'other@example.com' }]);
    fakeMailChannels();
    await sendEmailBatch(mailChannelsEnv(), emailTransport(mailChannelsEnv()), [withInvite]);
    const rows = await logRows();
    expect(rows.map((r) => [r.transport, r.status, r.attachments === null ? null : JSON.parse(String(r.attachments))])).toEqual([
      ['outbox', 'stored', [invite]],
      ['outbox', 'stored', null],
      ['mailchannels', 'sent', [invite]],
    ]);
  });

  it("a real booking's confirmation shows its .ics invite in the admin's log", async () => {
    const res = await callWithEnv({}, '/api/appointments', {
      body: { name: 'Ada Invite', email: 'ada@example.com', serviceType: 'Individual Tax Return', date: nextWeekday(8), timeSlot: '11:00 AM' },
    });
    expect(res.status).toBe(201);
    const confirmation = (await adminLog()).find((e) => e.subject && e.attachments.length && e.status === 'stored');
    expect(confirmation?.attachments).toHaveLength(1);
    const [attachment] = confirmation!.attachments;
    expect(attachment.filename).toMatch(/\.ics$/);
    expect(attachment.contentType).toMatch(/^text\/calendar/);
    expect(new TextDecoder().decode(Uint8Array.from(atob(attachment.content), (c) => c.charCodeAt(0)))).toMatch(/^BEGIN:VCALENDAR\r\n[\s\S]*BEGIN:VEVENT/);
  });
});
