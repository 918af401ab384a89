import { env } from 'cloudflare:test';
import { exports } from 'cloudflare:workers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EMAIL_BODY_RETENTION_DAYS } from '../../worker/services/email/log-retention';
import { ADMIN, call, client, cronTick } from '../harness/worker/helpers';
import { callWithEnv } from '../harness/worker/submission-helpers';

// Data minimisation and first-party admin pages (docs/product.md §8, §12): what the worker logs, keeps
// and sends, and the scheme it accepts credentials over.

const DAY = 24 * 60 * 60 * 1000;

afterEach(() => {
  vi.restoreAllMocks();
});

describe('logs', () => {
  it('an unhandled database error is logged without its parameters, the body or the query string', async () => {
    const logged: string[] = [];
    vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void logged.push(args.map((a) => (a instanceof Error ? `${a.message}\n${a.stack}` : String(a))).join(' ')));
    // A real D1 failure inside Drizzle: its DrizzleQueryError message ends with "params: <the values>".
    await env.DB.prepare('DROP TABLE newsletter_subscriptions').run();
    // Raw call: a query parameter (?ref=) the route does not declare, so the typed client cannot send it.
    const res = await call('/api/newsletter/subscribe?ref=private-campaign-42', { body: { email: 'jane.private@example.com', name: 'Jane Private' } });
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ message: 'Internal server error' });

    const line = logged.find((l) => l.startsWith('Unhandled error'));
    expect(line).toBeDefined();
    expect(line).toContain('POST /api/newsletter/subscribe');
    expect(line).toContain('Failed query');
    for (const secret of ['jane.private', '@example.com', 'Jane Private', 'params:', 'private-campaign-42', '?ref=']) {
      expect(logged.join('\n'), secret).not.toContain(secret);
    }
  });
});

describe('e-mail bodies in the log', () => {

  it(`are blanked after ${EMAIL_BODY_RETENTION_DAYS} days by the cron housekeeping; the row stays`, async () => {
    const now = Date.now();
    const insert = (to: string, createdAt: number) =>
      env.DB.prepare(
        `INSERT INTO email_log ("to", subject, kind, status, transport, text_body, html_body, headers, attachments, created_at, updated_at)
         VALUES (?, 'Your appointment', 'appointment-confirmation', 'sent', 'outbox', 'Cancel: https://x.example/appointment/cancel?token=live', '<p>live</p>', '{"X-A":"b"}', '[]', ?, ?)`,
      ).bind(to, createdAt, createdAt);
    await env.DB.batch([insert('old@example.com', now - (EMAIL_BODY_RETENTION_DAYS + 1) * DAY), insert('recent@example.com', now - (EMAIL_BODY_RETENTION_DAYS - 1) * DAY)]);

    await cronTick(now);
    const rows = await env.DB.prepare('SELECT "to", subject, status, text_body, html_body, headers, attachments FROM email_log ORDER BY "to"').all();
    expect(rows.results).toEqual([
      { to: 'old@example.com', subject: 'Your appointment', status: 'sent', text_body: '', html_body: null, headers: null, attachments: null },
      {
        to: 'recent@example.com',
        subject: 'Your appointment',
        status: 'sent',
        text_body: 'Cancel: https://x.example/appointment/cancel?token=live',
        html_body: '<p>live</p>',
        headers: '{"X-A":"b"}',
        attachments: '[]',
      },
    ]);
    // The purge reads only rows it has yet to blank (the partial index), so a later tick finds none.
    const plan = await env.DB.prepare(
      "EXPLAIN QUERY PLAN SELECT id FROM email_log WHERE text_body <> '' AND created_at < ? ORDER BY created_at LIMIT 1000",
    ).bind(now).all<{ detail: string }>();
    expect(plan.results.map((r) => r.detail).join(' ')).toContain('email_log_body_kept_idx');
  });
});

describe('HTTPS before any credential', () => {
  const fetchRaw = (url: string, init: RequestInit = {}) => exports.default.fetch(new Request(url, { redirect: 'manual', ...init }));

  it('redirects a GET over plain HTTP to the same address over HTTPS', async () => {
    const res = await fetchRaw('http://www.northgatecpa.example/api/health?x=1');
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe('https://www.northgatecpa.example/api/health?x=1');
    const admin = await fetchRaw('http://www.northgatecpa.example/admin/login');
    expect(admin.status).toBe(301);
    expect(admin.headers.get('location')).toBe('https://www.northgatecpa.example/admin/login');
    // Behind a proxy that terminated TLS elsewhere, the visitor's scheme is in X-Forwarded-Proto.
    const proxied = await fetchRaw('https://www.northgatecpa.example/api/health', { headers: { 'x-forwarded-proto': 'http' } });
    expect(proxied.status).toBe(301);
  });

  it('refuses a sign-in over plain HTTP unprocessed: no session cookie', async () => {
    const res = await fetchRaw('http://www.northgatecpa.example/api/admin/login', {
      method: 'POST',
      headers: { origin: 'http://www.northgatecpa.example', 'content-type': 'application/json' },
      body: JSON.stringify(ADMIN),
    });
    expect(res.status).toBe(403);
    expect(res.headers.getSetCookie()).toEqual([]);
    // Over HTTPS the same sign-in works, with a Secure cookie.
    const https = await fetchRaw('https://www.northgatecpa.example/api/admin/login', {
      method: 'POST',
      headers: { origin: 'https://www.northgatecpa.example', 'content-type': 'application/json' },
      body: JSON.stringify(ADMIN),
    });
    expect(https.status).toBe(200);
    expect(https.headers.getSetCookie()[0]).toMatch(/; Secure/i);
  });

  it('leaves local development on plain HTTP (localhost, 127.0.0.1)', async () => {
    for (const origin of ['http://localhost:8787', 'http://127.0.0.1:8787']) {
      expect((await fetchRaw(`${origin}/api/health`)).status, origin).toBe(200);
      const login = await fetchRaw(`${origin}/api/admin/login`, { method: 'POST', headers: { origin, 'content-type': 'application/json' }, body: JSON.stringify(ADMIN) });
      expect(login.status, origin).toBe(200);
      expect(login.headers.getSetCookie()[0], origin).not.toMatch(/; Secure/i);
    }
  });
});

describe('content security policy', () => {
  it('the admin API gets the first-party-only policy, whatever is configured', async () => {
    const res = await callWithEnv({ GTM_ID: 'GTM-ABC1234' }, '/api/admin/session');
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("connect-src 'self';");
    expect(csp).not.toMatch(/google/);
  });

  it('public answers allow Tag Manager only when GTM_ID names a container', async () => {
    const without = (await client().api.health.$get()).headers.get('content-security-policy')!;
    expect(without).not.toMatch(/googletagmanager|google-analytics/);
    for (const bad of ['', 'UA-12345-1']) {
      expect((await callWithEnv({ GTM_ID: bad }, '/api/health')).headers.get('content-security-policy'), bad).not.toMatch(/googletagmanager/);
    }
    const configured = (await callWithEnv({ GTM_ID: 'GTM-ABC1234' }, '/api/health')).headers.get('content-security-policy')!;
    expect(configured).toContain("script-src 'self' https://www.googletagmanager.com");
  });
});
