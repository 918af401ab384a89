import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { EMAIL_KINDS, type EmailKind } from '../../worker/mail-types';
import { appointmentStartsAt } from '../../worker/services/appointments/links';
import { accountSignedIn } from '../harness/worker/admin-accounts-helpers';
import { newSessionId, postChat } from '../harness/worker/chat-helpers';
import { call, cronTick, signIn } from '../harness/worker/helpers';
import { fakeMailbox, MAILBOX_ENV, type DeliveredMail } from '../harness/worker/mailbox-fake';
import { nextWeekday, validBooking } from '../harness/worker/submission-helpers';

// Every time an e-mail states reads on the firm's clock with its zone's label (docs/product.md §7):
// "2:05 PM ET" or "10:00 AM Eastern Time", never a bare clock time nor a raw UTC timestamp. Every
// kind of e-mail (EMAIL_KINDS) is caused through the routes and the cron as a visitor, the owner and
// the cron cause it, and what the mailbox receives is read: subject, text and HTML.

const HOUR = 3_600_000;
const mailEnv = { ...env, ...MAILBOX_ENV };

/** The kinds that state a time: a new kind that does must be added here, one that does not to NO_TIME. */
const WITH_TIME: EmailKind[] = ['contact-notification', 'appointment-confirmation', 'appointment-notification', 'appointment-status', 'appointment-reminder', 'contact-reply'];
/** The kinds that state no time of day (an invitation says "for 72 hours", a newsletter its month). */
const NO_TIME: EmailKind[] = ['newsletter-confirmation', 'newsletter', 'newsletter-test', 'admin-invitation', 'admin-password-reset', 'test'];

/** A request to the worker as a same-origin browser, its e-mails to the mailbox; an answer of 300 or more fails the test. */
async function send(path: string, options: { body?: unknown; cookie?: string; method?: string; ip?: string } = {}): Promise<Response> {
  const res = await call(path, { ip: '203.0.113.80', ...options, env: MAILBOX_ENV });
  if (res.status >= 300) throw new Error(`${options.method ?? (options.body === undefined ? 'GET' : 'POST')} ${path}: ${res.status} ${await res.clone().text()}`);
  return res;
}

function tokenOf(mail: DeliveredMail, path: string): string {
  const found = new RegExp(`${path.replace(/[?]/g, '\\?')}([A-Za-z0-9._~%-]+)`).exec(mail.text)?.[1];
  if (!found) throw new Error(`no ${path} link in the ${mail.kind} e-mail:\n${mail.text}`);
  return decodeURIComponent(found);
}

/** What a person reads of a message: subject, text, and the HTML's text. */
const readable = (mail: DeliveredMail) =>
  [mail.subject, mail.text, (mail.html ?? '').replace(/<[^>]+>/g, ' ').replace(/&nbsp;/g, ' ')].join('\n').replace(/\u202f/g, ' ');

const CLOCK = /\b\d{1,2}:\d{2}\s?(?:AM|PM)\b/gi;

/** Every clock time in the text without a zone after it, and every ISO timestamp. */
function timesWithoutZone(text: string): string[] {
  const bare = [...text.matchAll(CLOCK)].filter((m) => !/^\s(?:ET|Eastern Time)\b/.test(text.slice(m.index + m[0].length))).map((m) => text.slice(m.index, m.index + 30));
  const iso = [...text.matchAll(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/g)].map((m) => m[0]);
  return [...bare, ...iso];
}

describe('the times in e-mails', () => {
  it('the check itself: a bare or UTC time is found, a labelled one is not', () => {
    expect(timesWithoutZone('Received: 2026-12-07T19:05:00.000Z')).toHaveLength(1);
    expect(timesWithoutZone('On Dec 7, 2026, 2:05 PM, Vera wrote:')).toHaveLength(1);
    expect(timesWithoutZone('On Dec 7, 2026, 2:05 PM ET, Vera wrote: at 10:00 AM Eastern Time')).toEqual([]);
  });

  it('every kind of e-mail the product sends states its times in the firm’s zone with its label', async () => {
    expect([...WITH_TIME, ...NO_TIME].sort()).toEqual([...EMAIL_KINDS].sort());
    const mailbox = fakeMailbox();
    const owner = await signIn();
    const staff = await accountSignedIn('times.reader', 'staff');
    const date = nextWeekday(7);

    // A visitor: a contact message, a chat hand-off (its transcript has a time per line), a booking,
    // its move and its cancel through the links, a newsletter sign-up and its confirmation.
    await send('/api/contact', { body: { name: 'Cora Contact', email: 'cora@example.com', phone: '', message: 'Please call me about my return.' } });
    const sessionId = newSessionId();
    expect((await postChat({ message: 'Do you help with payroll?', sessionId }, { env: { AI: undefined } })).status).toBe(200);
    await send('/api/chat/handoff', { body: { sessionId, name: 'Dana Visitor', email: 'dana@example.com', phone: '412-555-0142', note: 'Call me.' }, ip: '203.0.113.81' });
    await send('/api/appointments', { body: validBooking(date, { email: 'bo@example.com', timeSlot: '10:00 AM' }) });
    const booked = mailbox.latest('bo@example.com', 'appointment-confirmation');
    // The article before a service name goes by its sound (core/words.ts).
    expect(booked.text).toContain('your request for an Individual Tax Return appointment on');
    await send('/api/appointments/manage/reschedule', { body: { token: tokenOf(booked, '/appointment/reschedule?token='), date, timeSlot: '11:00 AM' } });
    await send('/api/appointments/manage/cancel', { body: { token: tokenOf(mailbox.latest('bo@example.com', 'appointment-confirmation'), '/appointment/cancel?token=') } });
    await send('/api/newsletter/subscribe', { body: { email: 'nell@example.com' } });
    await send('/api/newsletter/confirm', { body: { token: tokenOf(mailbox.latest('nell@example.com', 'newsletter-confirmation'), '/newsletter/confirm?token=') } });

    // The owner: confirms a booking, answers the contact message, invites, resets a password, sends
    // a test newsletter, the issue and a test e-mail.
    await send('/api/appointments', { body: validBooking(date, { email: 'cy@example.com', timeSlot: '2:00 PM' }), ip: '203.0.113.82' });
    const cy = (await env.DB.prepare("SELECT id FROM appointments WHERE email = 'cy@example.com'").first<{ id: number }>())!.id;
    await send(`/api/admin/appointments/${cy}`, { method: 'PATCH', cookie: owner, body: { status: 'confirmed' } });
    const contact = (await env.DB.prepare("SELECT id FROM contact_messages WHERE email = 'cora@example.com'").first<{ id: number }>())!.id;
    await send(`/api/admin/contact-messages/${contact}/replies`, { cookie: owner, body: { body: 'Happy to help: we will call you tomorrow.' } });
    await send('/api/admin/users/invitations', { cookie: owner, body: { name: 'Olive Owner', email: 'olive@example.com', role: 'owner', canSendNewsletters: true } });
    await send(`/api/admin/users/${staff.id}/password-reset`, { method: 'POST', cookie: owner });
    const issue = { subject: 'Year-end planning', content: '<p>Three things to do before December 31.</p>' };
    await send('/api/admin/newsletter/test-send', { cookie: owner, body: { ...issue, to: 'owner@example.com' } });
    await send('/api/admin/send-newsletter', { cookie: owner, body: issue });
    await send('/api/admin/email/test-send', { cookie: owner, body: { testEmail: 'owner@example.com' } });

    // The cron: the reminder of an appointment within 24 hours.
    await env.DB.prepare("INSERT INTO appointments (name, email, service_type, date, time_slot, status) VALUES ('Rae Visitor', 'rae@example.com', 'Estate Planning', ?, '3:00 PM', 'confirmed')").bind(date).run();
    await cronTick(appointmentStartsAt({ date, timeSlot: '3:00 PM' }).getTime() - 20 * HOUR, mailEnv);

    const delivered = mailbox.all();
    expect([...new Set(delivered.map((m) => m.kind))].sort()).toEqual([...EMAIL_KINDS].sort());
    for (const mail of delivered) {
      const text = readable(mail);
      expect(timesWithoutZone(text), `${mail.kind} to ${mail.to.join(', ')}: ${mail.subject}`).toEqual([]);
      const hasTime = [...text.matchAll(CLOCK)].length > 0;
      if (NO_TIME.includes(mail.kind as EmailKind)) expect(hasTime, `${mail.kind} states a time: add it to WITH_TIME`).toBe(false);
    }
    // Each kind that states a time does, somewhere (so the check above read something).
    for (const kind of WITH_TIME) expect(delivered.some((m) => m.kind === kind && [...readable(m).matchAll(CLOCK)].length > 0), kind).toBe(true);

    // The contact notification's "Received" and the reply's quote line, on the firm's clock.
    const notification = delivered.find((m) => m.kind === 'contact-notification' && m.subject.includes('Cora Contact'))!;
    expect(readable(notification)).toMatch(/Received: [A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M ET\n/);
    const handoff = delivered.find((m) => m.kind === 'contact-notification' && m.subject.includes('Dana Visitor'))!;
    expect(readable(handoff)).toMatch(/Visitor \(\d{1,2}:\d{2} [AP]M ET\): Do you help with payroll\?/);
    expect(readable(delivered.find((m) => m.kind === 'contact-reply')!)).toMatch(/On [A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M ET, Cora Contact wrote:/);
  });
});
