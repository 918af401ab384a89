import ICAL from 'ical.js';
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { defaultContent } from '#core/content/default-content';
import type { SiteContent } from '#core/content/schema';
import { BOOKING_MESSAGES } from '#core/schemas/appointments';
import { askOffline, fakeAi, newSessionId, sendChat } from '../harness/worker/chat-helpers';
import { decodeBase64 } from '../harness/worker/ical-helpers';
import { fakeMailChannels, mailChannelsEnv, callWith } from '../harness/worker/mailchannels-fake';
import { call, client, signIn } from '../harness/worker/helpers';
import { callWithEnv, nextWeekday, validBooking, visitorIp } from '../harness/worker/submission-helpers';

// Everything the worker says about the firm follows the published content document
// (worker/services/content/published.ts; docs/decisions/0013-content-as-a-versioned-document.md):
// a publish through the admin API changes the chat's answers and prompt, every e-mail, the
// newsletter's frame and the invites' organizer at once, and a restore brings the old facts back.
// What the firm typed is text: escaped in e-mail HTML, in RFC 5545 form in the invite.

const NEW_PHONE = '(412) 555-0177';
/** A firm name with markup and quotes: text, never HTML, never a broken .ics parameter. */
const MARKED_NAME = 'Smith "Tax" <script>alert(1)</script> CPA';

/** The defaults with a new phone (and optionally other edits), published through the admin API. */
async function publishEdited(cookie: string, edit: (content: SiteContent) => void = () => undefined): Promise<number> {
  const content = structuredClone(defaultContent);
  content.firm.contact.phone = NEW_PHONE;
  content.firm.contact.phoneHref = 'tel:+14125550177';
  edit(content);
  const { published } = (await (await client({ cookie }).api.admin.content.$get()).json()) as { published: { version: number } };
  const saved = await call('/api/admin/content/draft', { method: 'PUT', body: { basedOn: published.version, content }, cookie });
  expect(saved.status).toBe(200);
  const { revision } = (await saved.json()) as { revision: number };
  const res = await client({ cookie }).api.admin.content.publish.$post({ json: { basedOn: published.version, revision } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { version: number }).version;
}

interface LogRow {
  kind: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  attachments: string | null;
}

const logged = async (kind: string) =>
  (await env.DB.prepare('SELECT kind, subject, text_body, html_body, attachments FROM email_log WHERE kind = ? ORDER BY id').bind(kind).all<LogRow>()).results;

const contactMessage = { name: 'Ora Reader', email: 'ora@example.com', phone: '', message: 'Can you help with a late 1099?' };

async function book(ip: string, overrides: Parameters<typeof validBooking>[1] = {}) {
  return client({ ip }).api.appointments.$post({ json: validBooking(nextWeekday(), overrides) });
}

/** The invite attached to an e-mail of the log, as text (unfolded) and as ical.js reads its ORGANIZER. */
function inviteOf(row: LogRow) {
  const [attachment] = JSON.parse(row.attachments!) as { content: string }[];
  const ics = decodeBase64(attachment.content);
  const organizer = new ICAL.Component(ICAL.parse(ics)).getFirstSubcomponent('vevent')!.getFirstProperty('organizer')!;
  return { unfolded: ics.replace(/\r\n[ \t]/g, ''), organizerName: organizer.getParameter('cn'), organizer: String(organizer.getFirstValue()) };
}

describe('the worker follows the published content', () => {
  it("the chat's knowledge base answers with the published phone number, and the model's system prompt carries it", async () => {
    const cookie = await signIn();
    expect(await askOffline('What is your phone number?')).toContain(defaultContent.firm.contact.phone);
    await publishEdited(cookie);

    const offline = await askOffline('What is your phone number?');
    expect(offline).toContain(NEW_PHONE);
    expect(offline).not.toContain(defaultContent.firm.contact.phone);

    const { ai, calls } = fakeAi(() => ({ response: `Call us at ${NEW_PHONE}.` }));
    const res = await sendChat({ message: 'How can I reach you?', sessionId: newSessionId() }, { env: { AI: ai } });
    expect(res.status).toBe(200);
    const system = calls[0].inputs.messages.find((m) => m.role === 'system')!.content;
    expect(system).toContain(`Phone ${NEW_PHONE}`);
    expect(system).not.toContain(defaultContent.firm.contact.phone);
  });

  it("a new booking's e-mails and a contact message's notification carry the published phone", async () => {
    await publishEdited(await signIn());
    expect((await book(visitorIp(1))).status).toBe(201);
    expect((await client({ ip: visitorIp(2) }).api.contact.$post({ json: contactMessage })).status).toBe(201);

    const [confirmation] = await logged('appointment-confirmation');
    expect(confirmation.text_body).toContain(NEW_PHONE);
    expect(confirmation.html_body).toContain(NEW_PHONE);
    expect(inviteOf(confirmation).unfolded).toContain(`Questions: ${NEW_PHONE}`);
    const [notification] = await logged('contact-notification');
    expect(notification.html_body).toContain(NEW_PHONE);
    for (const row of [confirmation, notification, ...(await logged('appointment-notification'))]) {
      expect(`${row.text_body}${row.html_body}`).not.toContain(defaultContent.firm.contact.phone);
    }
  });

  it("the newsletter's frame (footer, header) states the published firm, escaped", async () => {
    const cookie = await signIn();
    await publishEdited(cookie, (content) => {
      content.firm.name = MARKED_NAME;
    });
    const res = await call('/api/admin/newsletter/test-send', { body: { subject: 'March', content: '<p>Hello</p>', to: 'me@example.com' }, cookie });
    expect(res.status).toBe(200);
    const [test] = await logged('newsletter-test');
    expect(test.html_body).toContain(NEW_PHONE);
    expect(test.html_body).toContain('Smith &quot;Tax&quot; &lt;script&gt;alert(1)&lt;/script&gt; CPA');
    expect(test.html_body).not.toContain('<script>');
    expect(test.text_body).toContain(NEW_PHONE);
  });

  it("the invite's ORGANIZER is the published firm name, a quote and markup kept as text (RFC 5545/6868), and e-mail HTML escapes it", async () => {
    await publishEdited(await signIn(), (content) => {
      content.firm.name = MARKED_NAME;
      content.firm.contact.email = 'desk@smithtax.example';
    });
    expect((await book(visitorIp(3))).status).toBe(201);
    const [confirmation] = await logged('appointment-confirmation');

    const invite = inviteOf(confirmation);
    expect(invite.unfolded).toContain(`ORGANIZER;CN="Smith ^'Tax^' <script>alert(1)</script> CPA":mailto:desk@smithtax.example`);
    // A calendar reads the name back whole (ical.js decodes RFC 6868).
    expect(invite.organizerName).toBe(MARKED_NAME);
    expect(invite.organizer).toBe('mailto:desk@smithtax.example');
    expect(invite.unfolded).toContain('LOCATION:Smith "Tax" <script>alert(1)</script> CPA\\, ');

    expect(confirmation.subject).toContain(MARKED_NAME);
    expect(confirmation.html_body).toContain('Smith &quot;Tax&quot; &lt;script&gt;alert(1)&lt;/script&gt; CPA');
    expect(confirmation.html_body).not.toContain('<script>');
    const [notification] = await logged('appointment-notification');
    expect(notification.html_body).not.toContain('<script>');
  });

  it("the firm's calendar feed names the published firm as organizer, and its ETag changes with a publish", async () => {
    const cookie = await signIn();
    expect((await book(visitorIp(10))).status).toBe(201);
    const rotated = await client({ cookie }).api.admin['calendar-feed'].rotate.$post();
    const { url } = (await rotated.json()) as { url: string };
    const path = new URL(url).pathname;
    const before = await call(path);
    expect(before.status).toBe(200);
    const etag = before.headers.get('etag')!;

    await publishEdited(cookie, (content) => {
      content.firm.name = MARKED_NAME;
    });
    // A calendar that asks with the old ETag gets the new feed, not 304.
    const after = await call(path, { headers: { 'if-none-match': etag } });
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(etag);
    const vevent = new ICAL.Component(ICAL.parse(await after.text())).getFirstSubcomponent('vevent')!;
    expect(vevent.getFirstProperty('organizer')!.getParameter('cn')).toBe(MARKED_NAME);
  });

  it("MailChannels sends under the published firm name", async () => {
    await publishEdited(await signIn(), (content) => {
      content.firm.name = 'Smith Tax CPA';
    });
    const requests = fakeMailChannels(() => Response.json({ request_id: 'mc-1' }, { status: 202 }));
    expect((await callWith(mailChannelsEnv(), '/api/contact', { body: contactMessage, ip: visitorIp(4) })).status).toBe(201);
    await expect.poll(() => requests.length, { timeout: 15_000 }).toBe(1);
    expect(requests[0].body.from).toEqual({ email: env.MAIL_FROM, name: 'Smith Tax CPA' });
  });

  it('booking takes the published service types: a new one is accepted, a removed one refused with 400 on the field', async () => {
    await publishEdited(await signIn(), (content) => {
      content.booking.serviceTypes = ['Estate Planning', 'Individual Tax Return'];
    });
    expect((await book(visitorIp(5), { serviceType: 'Estate Planning' })).status).toBe(201);
    const refused = await book(visitorIp(6), { serviceType: 'Payroll Services' });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ message: BOOKING_MESSAGES.service, fields: { serviceType: [BOOKING_MESSAGES.service] } });
  });

  it("the abuse limits' refusals give the published phone", async () => {
    await publishEdited(await signIn());
    const limited = { SUBMISSIONS_PER_IP_PER_WINDOW: '1' };
    expect((await callWithEnv(limited, '/api/contact', { body: contactMessage, ip: visitorIp(8) })).status).toBe(201);
    const refused = await callWithEnv(limited, '/api/contact', { body: contactMessage, ip: visitorIp(8) });
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { message: string }).message).toContain(`call us at ${NEW_PHONE}`);
    const closed = await callWithEnv({ DAILY_BOOKING_CAP: '0' }, '/api/appointments', { body: validBooking(nextWeekday()), ip: visitorIp(9) });
    expect(closed.status).toBe(429);
    expect(((await closed.json()) as { message: string }).message).toContain(`call us at ${NEW_PHONE}`);
  });

  it('a restore brings the old facts back to the chat and the e-mails', async () => {
    const cookie = await signIn();
    await publishEdited(cookie);
    expect(await askOffline('What is your phone number?')).toContain(NEW_PHONE);

    const restored = await client({ cookie }).api.admin.content.restore.$post({ json: { version: 1 } });
    expect(restored.status).toBe(200);
    expect(await askOffline('What is your phone number?')).toContain(defaultContent.firm.contact.phone);
    expect((await client({ ip: visitorIp(7) }).api.contact.$post({ json: contactMessage })).status).toBe(201);
    const [notification] = await logged('contact-notification');
    expect(notification.html_body).toContain(defaultContent.firm.contact.phone);
    expect(notification.html_body).not.toContain(NEW_PHONE);
  });
});
