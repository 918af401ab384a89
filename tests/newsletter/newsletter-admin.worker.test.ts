import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { call, client, signIn } from '../harness/worker/helpers';
import { REDACTED_SECRET } from '../../worker/mail-redaction';

// Links in e-mails use SITE_URL (wrangler.jsonc "vars"; a developer's .dev.vars may override it).
const SITE = env.SITE_URL.replace(/\/+$/, '');

async function addSubscribers(n: number, active = true) {
  const statements = Array.from({ length: n }, (_, i) =>
    env.DB.prepare("INSERT INTO newsletter_subscriptions (email, name, active, confirmed_at) VALUES (?, ?, ?, ?)").bind(
      `person${i}@example.com`,
      i % 2 ? `Person ${i}` : null,
      active ? 'true' : 'false',
      active ? Date.now() : null,
    ),
  );
  if (statements.length) await env.DB.batch(statements);
}

const ADMIN_GETS = [
  '/api/admin/subscribers',
  '/api/admin/sent-newsletters',
  '/api/admin/newsletter/stats',
  '/api/admin/newsletter/preview',
  '/api/admin/newsletter/preview-static',
  '/api/admin/newsletter/template',
  '/api/admin/scheduler/status',
  '/api/admin/emails',
];
const ADMIN_POSTS = [
  '/api/admin/send-newsletter',
  '/api/admin/newsletter/send',
  '/api/admin/scheduler/start',
  '/api/admin/scheduler/stop',
  '/api/admin/scheduler/trigger',
  '/api/admin/email/test-auth',
  '/api/admin/email/test-send',
];

describe('admin newsletter endpoints', () => {
  it('refuse every call without a session', async () => {
    // Raw call: the path comes from a table of routes, which the typed client cannot address by string.
    for (const path of ADMIN_GETS) expect((await call(path)).status, path).toBe(401);
    for (const path of ADMIN_POSTS) expect((await call(path, { body: {} })).status, path).toBe(401);
  });

  it('list subscribers newest first with their status', async () => {
    const cookie = await signIn();
    await env.DB.batch([
      env.DB.prepare("INSERT INTO newsletter_subscriptions (email, active, subscription_date) VALUES ('old@example.com', 'true', 1000)"),
      env.DB.prepare("INSERT INTO newsletter_subscriptions (email, name, active, subscription_date) VALUES ('pending@example.com', 'Pat', 'false', 3000)"),
      env.DB.prepare("INSERT INTO newsletter_subscriptions (email, active, subscription_date, unsubscribed_at) VALUES ('gone@example.com', 'false', 2000, 2500)"),
    ]);
    const res = await client({ cookie }).api.admin.subscribers.$get();
    expect(res.status).toBe(200);
    const list = (await res.json()) as { email: string; name: string | null; active: string; status: string; subscriptionDate: string }[];
    expect(list.map((s) => [s.email, s.active, s.status])).toEqual([
      ['pending@example.com', 'false', 'pending'],
      ['gone@example.com', 'false', 'unsubscribed'],
      ['old@example.com', 'true', 'active'],
    ]);
    expect(list[0].name).toBe('Pat');
    expect(list[2].name).toBeNull();
    expect(list[2].subscriptionDate).toBe(new Date(1000).toISOString());
  });

  it('sends a newsletter to active subscribers only, sanitised, with unsubscribe headers', async () => {
    const cookie = await signIn();
    await addSubscribers(3);
    await env.DB.prepare("INSERT INTO newsletter_subscriptions (email, active) VALUES ('pending@example.com', 'false')").run();
    const res = await client({ cookie }).api.admin['send-newsletter'].$post({ json: { subject: 'Spring tips', content: '<p onclick="steal()">Hello <script>alert(1)</script><a href="javascript:alert(1)">x</a></p>' } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ recipientCount: 3, totalRecipients: 3, status: 'sent' });
    expect(body.message).toBe('Newsletter sent to 3 of 3 subscribers');

    const history = (await (await client({ cookie }).api.admin['sent-newsletters'].$get()).json()) as { content: string; recipientCount: number; status: string }[];
    expect(history).toHaveLength(1);
    expect(history[0].content).toBe('<p>Hello <a>x</a></p>');
    expect(history[0]).toMatchObject({ recipientCount: 3, status: 'sent' });

    const emails = (await (await client({ cookie }).api.admin.emails.$get()).json()) as { to: string; kind: string; status: string; htmlBody: string; headers: Record<string, string> }[];
    const newsletters = emails.filter((e) => e.kind === 'newsletter');
    expect(newsletters.map((e) => e.to).sort()).toEqual(['person0@example.com', 'person1@example.com', 'person2@example.com']);
    for (const e of newsletters) {
      expect(e.status).toBe('stored');
      // The log names the one-click link; its token is not kept (worker/mail-redaction.ts).
      expect(e.headers['List-Unsubscribe']).toBe(`<${SITE}/api/newsletter/unsubscribe?token=${REDACTED_SECRET}>`);
      expect(e.headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
      expect(e.htmlBody).toContain(`${SITE}/newsletter/unsubscribe?token=`);
      expect(e.htmlBody).toContain('2000 Corporate Drive');
      expect(e.htmlBody).toContain('linkedin.com');
      expect(e.htmlBody).not.toContain('<script');
    }
    const stats = (await (await client({ cookie }).api.admin.newsletter.stats.$get()).json()) as Record<string, unknown>;
    expect(stats).toMatchObject({ activeSubscribers: 3, totalSent: 1 });
    expect(typeof stats.lastSent).toBe('string');
  });

  it('validates the send dialog and refuses a send with nobody to send to', async () => {
    const cookie = await signIn();
    const missing = await client({ cookie }).api.admin['send-newsletter'].$post({ json: { subject: '', content: '' } });
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { message: string }).message).toBe('Please fill in both subject and content');
    const nobody = await client({ cookie }).api.admin['send-newsletter'].$post({ json: { subject: 'Hi', content: '<p>Hello</p>' } });
    expect(nobody.status).toBe(400);
    await addSubscribers(1);
    const onlyScript = await client({ cookie }).api.admin['send-newsletter'].$post({ json: { subject: 'Hi', content: '<script>alert(1)</script>' } });
    expect(onlyScript.status).toBe(400);
  });

  it('refuses the same newsletter twice in a row (double click)', async () => {
    const cookie = await signIn();
    await addSubscribers(2);
    const first = await client({ cookie }).api.admin['send-newsletter'].$post({ json: { subject: 'Hi', content: '<p>Hello</p>' } });
    expect(first.status).toBe(200);
    const second = await client({ cookie }).api.admin['send-newsletter'].$post({ json: { subject: 'Hi', content: '<p>Hello</p>' } });
    expect(second.status).toBe(409);
    const count = await env.DB.prepare("SELECT count(*) AS n FROM email_log WHERE kind = 'newsletter'").first<{ n: number }>();
    expect(count?.n).toBe(2);
  });

  it('previews fall back to the static template without Workers AI, and the template links to /schedule', async () => {
    const cookie = await signIn();
    for (const path of ['/api/admin/newsletter/preview', '/api/admin/newsletter/preview-static', '/api/admin/newsletter/template']) {
      // Raw call: the path comes from a table of routes, which the typed client cannot address by string.
      const res = await call(path, { cookie });
      expect(res.status, path).toBe(200);
      const draft = (await res.json()) as { subject: string; htmlContent: string };
      expect(draft.subject.length).toBeGreaterThan(5);
      expect(draft.htmlContent).toContain(`${SITE}/schedule`);
    }
    const staticDraft = (await (await client({ cookie }).api.admin.newsletter['preview-static'].$get()).json()) as { subject: string };
    const aiDraft = (await (await client({ cookie }).api.admin.newsletter.preview.$get()).json()) as { subject: string };
    expect(aiDraft.subject).toBe(staticDraft.subject);
  });

  it('sends the generated newsletter once per period (newsletter/send then scheduler/trigger)', async () => {
    const cookie = await signIn();
    await addSubscribers(4);
    const res = await client({ cookie }).api.admin.newsletter.send.$post();
    expect(res.status).toBe(200);
    const body = (await res.json()) as { sentCount: number; newsletterId: number; message: string };
    expect(body.sentCount).toBe(4);
    expect(body.newsletterId).toBeGreaterThan(0);
    const again = await client({ cookie }).api.admin.scheduler[':action{start|stop|trigger}'].$post({ param: { action: 'trigger' } });
    expect(again.status).toBe(409);
    const count = await env.DB.prepare("SELECT count(*) AS n FROM email_log WHERE kind = 'newsletter'").first<{ n: number }>();
    expect(count?.n).toBe(4);
  });

  it('starts, stops and reports the scheduler', async () => {
    const cookie = await signIn();
    expect(await (await client({ cookie }).api.admin.scheduler.status.$get()).json()).toEqual({
      running: false,
      schedule: 'First Monday of every month at 9:00 AM (Eastern Time)',
    });
    expect((await client({ cookie }).api.admin.scheduler[':action{start|stop|trigger}'].$post({ param: { action: 'start' } })).status).toBe(200);
    expect(((await (await client({ cookie }).api.admin.scheduler.status.$get()).json()) as { running: boolean }).running).toBe(true);
    const stop = await client({ cookie }).api.admin.scheduler[':action{start|stop|trigger}'].$post({ param: { action: 'stop' } });
    expect(await stop.json()).toEqual({ message: 'Scheduler stopped successfully' });
    expect(((await (await client({ cookie }).api.admin.scheduler.status.$get()).json()) as { running: boolean }).running).toBe(false);
    expect((await client({ cookie }).api.admin.scheduler[':action{start|stop|trigger}'].$post({ param: { action: 'pause' } })).status).toBe(404);
  });

  it('trigger with no active subscribers answers 400 and records nothing', async () => {
    const cookie = await signIn();
    const res = await client({ cookie }).api.admin.scheduler[':action{start|stop|trigger}'].$post({ param: { action: 'trigger' } });
    expect(res.status).toBe(400);
    const count = await env.DB.prepare('SELECT count(*) AS n FROM sent_newsletters').first<{ n: number }>();
    expect(count?.n).toBe(0);
  });
});
