import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { FIELD_MESSAGES } from '#core/schemas/fields';
import { call, client, signIn } from '../harness/worker/helpers';
import { callWith, fakeMailChannels, mailChannelsEnv } from '../harness/worker/mailchannels-fake';

// Names and subjects are refused at the door when they hold a line break, a tab or another control
// character (core/schemas/fields.ts): they become e-mail headers (a reply's display name, the
// notification's and the newsletter's subject), and MailChannels refuses a header with a line
// break, so a name stored with one made every reply to it fail (502). What was stored before the
// rule is folded onto one line when it is sent (worker/services/email/mailchannels.ts).

const CONTROLS = ['Ann\nBcc: evil@example.com', 'Ann\r\nVisitor', 'Ann\tVisitor', 'Ann\u0085Visitor', 'Ann\u2028Visitor', 'Ann\u0000Visitor', 'Ann\u007fVisitor'];
const SUBJECT_MESSAGE = 'The subject must be a single line, without tabs or control characters';

const fieldsOf = async (res: Response) => ((await res.json()) as { fields: Record<string, string[]> }).fields;
const countRows = async (table: string) => (await env.DB.prepare(`SELECT count(*) AS n FROM ${table}`).first<{ n: number }>())!.n;

describe('names with a line break or a control character', () => {
  it.each(CONTROLS)('are refused by the contact form, with the field message: %j', async (name) => {
    const res = await call('/api/contact', { body: { name, email: 'ann@example.com', message: 'I need help with my 2025 return.' } });
    expect(res.status).toBe(400);
    expect((await fieldsOf(res)).name).toEqual([FIELD_MESSAGES.nameOneLine]);
    expect(await countRows('contact_messages')).toBe(0);
  });

  it.each(CONTROLS)('are refused by the newsletter sign-up: %j', async (name) => {
    const res = await call('/api/newsletter/subscribe', { body: { email: 'ann@example.com', name } });
    expect(res.status).toBe(400);
    expect((await fieldsOf(res)).name).toEqual([FIELD_MESSAGES.nameOneLine]);
    expect(await countRows('newsletter_subscriptions')).toBe(0);
  });

  it('a name stored with one before the rule still gets its reply: the headers are folded onto one line', async () => {
    const id = (await env.DB.prepare("INSERT INTO contact_messages (name, email, message) VALUES ('Ann\r\nBcc: evil@example.com', 'ann@example.com', 'A question about taxes') RETURNING id").first<{ id: number }>())!.id;
    const requests = fakeMailChannels();
    const cookie = await signIn();
    const res = await callWith(mailChannelsEnv(), `/api/admin/contact-messages/${id}/replies`, { cookie, body: { body: 'Thank you, we will call you tomorrow.' } });
    expect(res.status).toBe(201);
    const sent = requests.map((r) => r.body as { personalizations: { to: { name?: string }[] }[]; subject: string; from: { name: string } });
    const reply = sent.find((b) => b.subject.startsWith('Re:'))!;
    expect(reply.personalizations[0].to[0].name).toBe('Ann Bcc: evil@example.com');
    for (const body of sent) expect(JSON.stringify([body.personalizations, body.subject, body.from])).not.toMatch(/\\[rnt]/);
  });
});

describe('subjects with a line break or a control character', () => {
  it.each(CONTROLS)('are refused for a newsletter, a test send and a draft, with the field message: %j', async (subject) => {
    const cookie = await signIn();
    await env.DB.prepare("INSERT INTO newsletter_subscriptions (email, active, confirmed_at) VALUES ('reader@example.com', 'true', ?)").bind(Date.now()).run();
    const content = '<p>Three things to do before December 31.</p>';
    for (const [path, body] of [
      ['/api/admin/send-newsletter', { subject, content }],
      ['/api/admin/newsletter/test-send', { subject, content, to: 'owner@example.com' }],
      ['/api/admin/newsletter/drafts', { subject, content }],
    ] as const) {
      const res = await call(path, { cookie, body });
      expect(res.status, path).toBe(400);
      expect((await fieldsOf(res)).subject, path).toEqual([SUBJECT_MESSAGE]);
    }
    expect(await countRows('sent_newsletters')).toBe(0);
    expect(await countRows('newsletter_drafts')).toBe(0);
  });

  it("folds a tab in the firm's name (which every reply's subject carries) instead of publishing it", async () => {
    const cookie = await signIn();
    const { published } = (await (await client({ cookie }).api.admin.content.$get()).json()) as { published: { version: number; content: { firm: { name: string } } } };
    const content = { ...published.content, firm: { ...published.content.firm, name: 'Example\tTax\u0085Partners' } };
    const saved = await call('/api/admin/content/draft', { method: 'PUT', cookie, body: { basedOn: published.version, content } });
    expect(saved.status).toBe(200);
    expect(((await saved.json()) as { content: { firm: { name: string } } }).content.firm.name).toBe('Example Tax Partners');
  });
});
