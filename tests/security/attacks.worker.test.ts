import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { ADMIN, call, client, ORIGIN, sessionCookieFrom, signIn } from '../harness/worker/helpers';

// Attack tests: each one is an attempt a real attacker would make, and each asserts the
// attempt fails and nothing it sent was acted on.

const STATE_CHANGING: [string, string][] = [
  ['POST', '/api/admin/login'],
  ['POST', '/api/admin/logout'],
  ['POST', '/api/admin/change-password'],
  ['POST', '/api/contact'],
  ['POST', '/api/appointments'],
  ['POST', '/api/chat'],
  ['POST', '/api/newsletter/subscribe'],
  ['PATCH', '/api/admin/contact-messages/1'],
  ['PATCH', '/api/admin/appointments/1'],
  ['POST', '/api/admin/send-newsletter'],
  ['POST', '/api/admin/newsletter/send'],
  ['POST', '/api/admin/scheduler/start'],
  ['POST', '/api/admin/scheduler/stop'],
  ['POST', '/api/admin/scheduler/trigger'],
  ['POST', '/api/admin/email/test-auth'],
  ['POST', '/api/admin/email/test-send'],
];

describe('cross-site requests', () => {
  it.each(STATE_CHANGING)('%s %s from another origin is refused with 403, even with a valid session', async (method, path) => {
    const cookie = await signIn();
    const before = await env.DB.prepare('select count(*) as n from contact_messages').first<{ n: number }>();
    // Raw call: the path comes from a table of routes, which the typed client cannot address by string.
    const res = await call(path, {
      method,
      body: { name: 'x', email: 'x@example.com', message: 'cross-site message', subject: 's', content: 'c' },
      cookie,
      headers: { origin: 'https://attacker.example' },
    });
    expect(res.status).toBe(403);
    const after = await env.DB.prepare('select count(*) as n from contact_messages').first<{ n: number }>();
    expect(after!.n).toBe(before!.n);
    // The session survives: a cross-site logout did not sign the admin out.
    expect(((await (await client({ cookie }).api.admin.session.$get()).json()) as { authenticated: boolean }).authenticated).toBe(true);
  });
});

describe('session fixation', () => {
  it('a cookie planted before sign-in is replaced by a fresh token, and a planted value never authenticates', async () => {
    const planted = 'admin_session=attacker-chosen-value';
    expect(await (await client({ cookie: planted }).api.admin.session.$get()).json()).toEqual({ authenticated: false });
    const res = await client({ cookie: planted }).api.admin.login.$post({ json: ADMIN });
    expect(res.status).toBe(200);
    const issued = sessionCookieFrom(res);
    expect(issued).not.toBe(planted);
    expect(issued.split('=')[1].split('.')).toHaveLength(3);
  });

  it('a session stolen before a password change is worthless afterwards', async () => {
    const stolen = await signIn(ADMIN, '198.51.100.23');
    const mine = await signIn();
    await client({ cookie: mine }).api.admin['change-password'].$post({ json: { currentPassword: ADMIN.password, newPassword: 'rotated-password-99' } });
    expect((await client({ cookie: stolen }).api.admin['contact-messages'].$get()).status).toBe(401);
  });
});

describe('stored input is data, never code or SQL', () => {
  it('stores SQL-looking and script-looking input literally and returns it unchanged', async () => {
    const name = "Robert'); DROP TABLE contact_messages;--";
    const message = `<img src=x onerror=alert(1)> ' OR 1=1; -- \u202e unicode ☃ "quotes"`;
    const res = await client().api.contact.$post({ json: { name, email: 'bobby@example.com', message } });
    expect(res.status).toBe(201);
    const cookie = await signIn();
    const list = (await (await client({ cookie }).api.admin['contact-messages'].$get()).json()) as { name: string; message: string }[];
    expect(list[0].name).toBe(name);
    expect(list[0].message).toBe(message);
    const tables = await env.DB.prepare("select count(*) as n from sqlite_master where name = 'contact_messages'").first<{ n: number }>();
    expect(tables!.n).toBe(1);
  });

  it('API answers are JSON, so stored markup cannot be sniffed into HTML', async () => {
    await client().api.contact.$post({ json: { name: '<script>alert(1)</script>', email: 'x@example.com', message: '<script>alert(1)</script>' } });
    const res = await client({ cookie: await signIn() }).api.admin['contact-messages'].$get();
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });
});

describe('e-mail header injection', () => {
  it('line breaks in a visitor name cannot add headers or recipients to the firm notification', async () => {
    const res = await client().api.contact.$post({ json: { name: 'Eve\r\nBcc: victim@example.com', email: 'eve@example.com', message: 'Trying to inject a header.' } });
    // Either refused as invalid input, or stored with every outgoing header free of line breaks.
    expect([201, 400]).toContain(res.status);
    const { results } = await env.DB.prepare('select "to", subject, headers from email_log').all<{ to: string; subject: string; headers: string | null }>();
    for (const row of results) {
      expect(row.to).not.toMatch(/[\r\n]/);
      expect(row.subject).not.toMatch(/[\r\n]/);
      expect(row.to).not.toContain('victim@example.com');
      for (const value of Object.values(JSON.parse(row.headers ?? '{}') as Record<string, string>)) expect(value).not.toMatch(/[\r\n]/);
    }
  });

  it('an e-mail address with a line break is refused', async () => {
    const res = await client().api.newsletter.subscribe.$post({ json: { email: 'reader@example.com\r\nBcc: victim@example.com' } });
    expect(res.status).toBe(400);
    const rows = await env.DB.prepare('select count(*) as n from email_log').first<{ n: number }>();
    expect(rows!.n).toBe(0);
  });
});

describe('paths and redirects', () => {
  it.each([
    '/api/../wrangler.jsonc',
    '/api/%2e%2e/%2e%2e/etc/passwd',
    '/api/admin/..%2f..%2fhealth',
    '/api/health/../../.dev.vars',
    '/api/%00',
  ])('%s never leaks a file and never errors', async (path) => {
    // Raw call: hostile paths sent as written (traversal, NUL), which the typed client would encode.
    const res = await call(path);
    expect(res.status).toBeLessThan(500);
    const text = await res.text();
    expect(text).not.toMatch(/compatibility_date|JWT_SECRET|root:x:/);
  });

  it('no API answer redirects to another site', async () => {
    for (const path of [
      '/api/newsletter/confirm?token=x&redirect=https://evil.example',
      '/api/newsletter/unsubscribe?token=x&next=https://evil.example',
      '/api/admin/login?next=https://evil.example',
    ]) {
      // Raw call: the path comes from a table of routes, which the typed client cannot address by string.
      const res = await call(path, { method: path.includes('login') ? 'POST' : 'GET', body: path.includes('login') ? ADMIN : undefined });
      const location = res.headers.get('location');
      if (location) expect(new URL(location, ORIGIN).origin).toBe(ORIGIN);
    }
  });
});

describe('oversized bodies', () => {
  it.each(['/api/contact', '/api/appointments', '/api/chat', '/api/newsletter/subscribe'])('%s answers 413 above the limit and stores nothing', async (path) => {
    // Raw call: the path comes from a table of routes, which the typed client cannot address by string.
    const res = await call(path, { body: { name: 'x', email: 'x@example.com', message: 'y'.repeat(100 * 1024) } });
    expect(res.status).toBe(413);
    const n = await env.DB.prepare('select (select count(*) from contact_messages) + (select count(*) from appointments) + (select count(*) from chat_messages) + (select count(*) from newsletter_subscriptions) as n').first<{ n: number }>();
    expect(n!.n).toBe(0);
  });
});
