import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import worker from '../../worker/index';
import { EMAIL_KINDS } from '../../worker/mail-types';
import { REDACTED_SECRET } from '../../worker/mail-redaction';
import { appointmentStartsAt } from '../../worker/services/appointments/links';
import { accountSignedIn } from '../harness/worker/admin-accounts-helpers';
import { call, cronTick, ORIGIN, signIn } from '../harness/worker/helpers';
import { fakeMailbox, MAILBOX_ENV, type DeliveredMail } from '../harness/worker/mailbox-fake';
import { nextWeekday, validBooking } from '../harness/worker/submission-helpers';

// No bearer secret in any log a person can read (docs/decisions/0020-no-bearer-secret-in-the-e-mail-log.md).
// Every kind of e-mail the product sends (EMAIL_KINDS) is caused through the routes and the cron as
// a visitor, the owner and the cron cause it, delivered to the mailbox (where its links work), and
// then the e-mail log as GET /api/admin/emails answers it, to the owner and to a staff member, must
// hold none of the tokens those e-mails carried, nor anything else that looks like one: a run of
// 20 or more base64url characters.

const HOUR = 3_600_000;
const mailEnv = { ...env, ...MAILBOX_ENV };

/** A request to the worker as a same-origin browser, its e-mails to the mailbox; returns once its waitUntil work has settled. */
const send = (path: string, options: { body?: unknown; cookie?: string; method?: string; ip?: string } = {}) => call(path, { ip: '203.0.113.90', ...options, env: MAILBOX_ENV });

async function ok(res: Promise<Response>, status = 200): Promise<Response> {
  const answer = await res;
  if (answer.status !== status) throw new Error(`expected ${status}, got ${answer.status}: ${await answer.clone().text()}`);
  return answer;
}

/** A link's token from a delivered e-mail's text (`token=` or a /r/ click link). */
function tokenOf(mail: DeliveredMail, path: string): string {
  const found = new RegExp(`${path.replace(/[?]/g, '\\?')}([A-Za-z0-9._~%-]+)`).exec(mail.text)?.[1];
  if (!found) throw new Error(`no ${path} link in the ${mail.kind} e-mail:\n${mail.text}`);
  return decodeURIComponent(found);
}

/**
 * Every token a delivered e-mail carries, wherever it is (text, HTML, headers): the values of
 * `token=` parameters and the /r/ click links' paths, as long as the log redacts (16 characters).
 */
function tokensIn(mail: DeliveredMail): string[] {
  const whole = [mail.text, mail.html ?? '', ...Object.values(mail.headers)].join('\n');
  return [...whole.matchAll(/(?:[?&;]token=|\/r\/)([A-Za-z0-9._~%-]{16,})/g)].map((m) => m[1]);
}

/**
 * The runs of 20+ base64url characters in a text, but for what is known not to be a secret:
 * words joined by hyphens (appointment-confirmation, -webkit-text-size-adjust), and the named
 * exceptions of `allowed`.
 */
function tokenLikeRuns(text: string, allowed: RegExp[] = []): string[] {
  let rest = text;
  for (const pattern of allowed) rest = rest.replace(pattern, ' ');
  return [...rest.matchAll(/[A-Za-z0-9_-]{20,}/g)].map((m) => m[0]).filter((run) => !/^-?[A-Za-z]+(-[A-Za-z]+)*-?$/.test(run));
}

interface LogEntry {
  id: number;
  kind: string;
  to: string;
  subject: string;
  textBody: string;
  htmlBody: string | null;
  headers: Record<string, string> | null;
  attachments: { filename: string; contentType: string; content: string }[];
  [field: string]: unknown;
}

/** What in one log entry could carry a token, attachments decoded (their base64 is no token; what it encodes could be). */
function readableParts(entry: LogEntry): { where: string; text: string; allowed: RegExp[] }[] {
  const { attachments, headers, ...rest } = entry;
  return [
    { where: 'fields', text: JSON.stringify(rest), allowed: [] },
    // A Message-ID (and the replies' In-Reply-To and References) is a random UUID on the firm's
    // domain, for threading: it lets nobody act as anyone.
    { where: 'headers', text: JSON.stringify(headers ?? {}), allowed: [/<[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}@[^>\s]+>/g] },
    ...attachments.map((a) => ({
      where: `attachment ${a.filename}`,
      text: Buffer.from(a.content, 'base64').toString('utf8'),
      // The invite's UID names the appointment by its public id (22 characters), the same in every
      // invite and in the firm's calendar feed: no link acts on it without a signed token.
      allowed: [/^UID:appointment-[A-Za-z0-9_-]{22}@\S+$/gm],
    })),
  ];
}

describe('the e-mail log holds no bearer secret', () => {
  it('for every kind of e-mail the product sends, GET /api/admin/emails shows the owner and staff no token of its links', async () => {
    const mailbox = fakeMailbox();
    const owner = await signIn();
    const staff = await accountSignedIn('log.reader', 'staff');
    const date = nextWeekday(7);

    // A visitor: a contact message, a booking (confirmation with its links and invite, and the
    // firm's notification), a newsletter sign-up (confirmation link).
    await ok(send('/api/contact', { body: { name: 'Cora Contact', email: 'cora@example.com', phone: '', message: 'Please call me about my return.' } }), 201);
    await ok(send('/api/appointments', { body: validBooking(date, { email: 'bo@example.com', timeSlot: '10:00 AM' }) }), 201);
    await ok(send('/api/newsletter/subscribe', { body: { email: 'nell@example.com' } }));

    // The visitor follows the booking's links: moves it (a new confirmation with new links), then cancels it.
    const booked = mailbox.latest('bo@example.com', 'appointment-confirmation');
    await ok(send('/api/appointments/manage/reschedule', { body: { token: tokenOf(booked, '/appointment/reschedule?token='), date, timeSlot: '11:00 AM' } }));
    const moved = mailbox.latest('bo@example.com', 'appointment-confirmation');
    await ok(send('/api/appointments/manage/cancel', { body: { token: tokenOf(moved, '/appointment/cancel?token=') } }));

    // The visitor confirms the subscription from the e-mail: an active subscriber for the issue.
    await ok(send('/api/newsletter/confirm', { body: { token: tokenOf(mailbox.latest('nell@example.com', 'newsletter-confirmation'), '/newsletter/confirm?token=') } }));

    // The owner: confirms another booking (the status e-mail with fresh links), answers the contact
    // message, invites an owner, sends a test newsletter, the issue itself (click tracking on: its
    // links become /r/ links) and a test e-mail.
    await ok(send('/api/appointments', { body: validBooking(date, { email: 'cy@example.com', timeSlot: '2:00 PM' }), ip: '203.0.113.91' }), 201);
    const cy = (await env.DB.prepare("SELECT id FROM appointments WHERE email = 'cy@example.com'").first<{ id: number }>())!.id;
    await ok(send(`/api/admin/appointments/${cy}`, { method: 'PATCH', cookie: owner, body: { status: 'confirmed' } }));
    const contact = (await env.DB.prepare("SELECT id FROM contact_messages WHERE email = 'cora@example.com'").first<{ id: number }>())!.id;
    await ok(send(`/api/admin/contact-messages/${contact}/replies`, { cookie: owner, body: { body: 'Happy to help: we will call you tomorrow.' } }), 201);
    await ok(send('/api/admin/users/invitations', { cookie: owner, body: { name: 'Olive Owner', email: 'olive@example.com', role: 'owner', canSendNewsletters: true } }), 201);
    // ... and sends the staff member a password-reset link (the reader of the log itself: it must not find it there).
    await ok(send(`/api/admin/users/${staff.id}/password-reset`, { method: 'POST', cookie: owner }));
    const issue = { subject: 'Year-end planning', content: '<p>Read <a href="https://www.irs.gov/newsroom">the IRS news</a>.</p>' };
    await ok(send('/api/admin/newsletter/test-send', { cookie: owner, body: { ...issue, to: 'owner@example.com' } }));
    await ok(send('/api/admin/send-newsletter', { cookie: owner, body: issue }));
    await ok(send('/api/admin/email/test-send', { cookie: owner, body: { testEmail: 'owner@example.com' } }));

    // An import whose people are asked to confirm: the cron mails each the import's variant of the
    // confirmation, which carries an unsubscribe link as well (docs/product.md §5.10).
    const created = (await (await ok(send('/api/admin/subscriber-imports', { cookie: owner, body: { fileName: 'list.csv' } }), 201)).json()) as { id: number };
    await ok(send('/api/admin/subscriber-imports/rows', { cookie: owner, body: { importId: created.id, rows: [{ line: 2, email: 'imported@example.com' }] } }));
    await ok(send(`/api/admin/subscriber-imports/${created.id}/confirm`, { cookie: owner, body: { consent: 'confirm', consentConfirmed: true } }));
    await ok(send(`/api/admin/subscriber-imports/${created.id}/run`, { cookie: owner, body: {} }));

    // The cron: the reminder of an appointment within 24 hours (and the import's confirmation).
    await env.DB.prepare("INSERT INTO appointments (name, email, service_type, date, time_slot, status) VALUES ('Rae Visitor', 'rae@example.com', 'Tax Planning', ?, '3:00 PM', 'confirmed')").bind(date).run();
    await cronTick(appointmentStartsAt({ date, timeSlot: '3:00 PM' }).getTime() - 20 * HOUR, mailEnv);

    // Every kind was sent, and every message reached the mailbox with its links whole.
    const delivered = mailbox.all();
    expect([...new Set(delivered.map((m) => m.kind))].sort()).toEqual([...EMAIL_KINDS].sort());
    const tokens = delivered.flatMap(tokensIn);
    // Invitation, confirmation, unsubscribe (link and one-click header), cancel, reschedule, click links.
    expect(tokens.length).toBeGreaterThanOrEqual(10);
    expect(tokenLikeRuns(tokens.join(' ')).length).toBeGreaterThanOrEqual(10);

    // Nothing is waiting for a transport: no whole message is left in the outbox either.
    expect(await env.DB.prepare('SELECT count(*) AS n FROM email_log WHERE outbox_message IS NOT NULL').first<{ n: number }>()).toEqual({ n: 0 });

    for (const [role, cookie] of [
      ['owner', owner],
      ['staff', staff.cookie],
    ] as const) {
      const res = await send('/api/admin/emails', { cookie });
      expect(res.status, role).toBe(200);
      const log = (await res.json()) as LogEntry[];
      expect([...new Set(log.map((e) => e.kind))].sort(), role).toEqual([...EMAIL_KINDS].sort());
      const whole = JSON.stringify(log);
      for (const token of tokens) expect(whole.includes(token), `${role} reads a token in the log`).toBe(false);
      for (const entry of log) {
        for (const part of readableParts(entry)) expect(tokenLikeRuns(part.text, part.allowed), `${role}: ${entry.kind} to ${entry.to}, ${part.where}`).toEqual([]);
      }
      // The log still says which link went out, in words.
      const invitation = log.find((e) => e.kind === 'admin-invitation')!;
      expect(invitation.textBody).toContain(`/admin/accept-invitation?token=${REDACTED_SECRET}`);
      expect(log.find((e) => e.kind === 'admin-password-reset')!.textBody).toContain(`/admin/reset-password?token=${REDACTED_SECRET}`);
      expect(log.find((e) => e.kind === 'newsletter')!.headers!['List-Unsubscribe']).toContain(`token=${REDACTED_SECRET}`);
      const imported = log.find((e) => e.to === 'imported@example.com')!;
      expect(imported.textBody).toContain(`/newsletter/confirm?token=${REDACTED_SECRET}`);
      expect(imported.textBody).toContain(`/newsletter/unsubscribe?token=${REDACTED_SECRET}`);
      // Each message opened on its own (GET /api/admin/emails/:id, the e-mail log's dialog) is the same kept copy.
      for (const entry of log) {
        const one = await send(`/api/admin/emails/${entry.id}`, { cookie });
        expect(one.status, role).toBe(200);
        const opened = await one.text();
        for (const token of tokens) expect(opened.includes(token), `${role} reads a token in ${entry.kind} opened`).toBe(false);
      }
    }
  });

  it('a queued message is whole only in outbox_message, and the write that records its hand-over empties it', async () => {
    const mailbox = fakeMailbox();
    const owner = await signIn();
    // Held by the mailbox until released: the row is read while the message waits for its transport.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const ctx = createExecutionContext();
    const inviting = worker.fetch(
      new Request(`${ORIGIN}/api/admin/users/invitations`, {
        method: 'POST',
        headers: { origin: ORIGIN, 'content-type': 'application/json', cookie: owner, 'cf-connecting-ip': '203.0.113.92' },
        body: JSON.stringify({ name: 'Pat Pending', email: 'pat@example.com', role: 'owner', canSendNewsletters: false }),
      }),
      { ...mailEnv, LOCAL_MAILBOX_URL: 'http://127.0.0.1:9/held' },
      ctx,
    );
    const realFetch = globalThis.fetch;
    globalThis.fetch = async (input, init) => {
      const request = new Request(input, init);
      if (!request.url.startsWith('http://127.0.0.1:9/held/')) return realFetch(input, init);
      await held;
      return realFetch(request.url.replace('/held/', '/mailbox/'), { method: 'POST', body: await request.text(), headers: request.headers });
    };
    try {
      let row: { status: string; text_body: string; outbox_message: string | null } | null = null;
      for (let i = 0; i < 200 && !row; i++) {
        row = await env.DB.prepare("SELECT status, text_body, outbox_message FROM email_log WHERE kind = 'admin-invitation'").first();
        if (!row) await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect(row!.status).toBe('queued');
      expect(row!.text_body).toContain(REDACTED_SECRET);
      expect(tokenLikeRuns(row!.text_body)).toEqual([]);
      const whole = JSON.parse(row!.outbox_message!) as { text: string };
      expect(whole.text).toMatch(/accept-invitation\?token=[A-Za-z0-9_-]{43}/);
      release();
      expect((await inviting).status).toBe(201);
      await waitOnExecutionContext(ctx);
    } finally {
      globalThis.fetch = realFetch;
    }
    expect(await env.DB.prepare("SELECT status, outbox_message FROM email_log WHERE kind = 'admin-invitation'").first()).toEqual({ status: 'stored', outbox_message: null });
    expect(mailbox.latest('pat@example.com', 'admin-invitation').text).toMatch(/accept-invitation\?token=[A-Za-z0-9_-]{43}/);
  });
});
