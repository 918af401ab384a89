import { describe, expect, it } from 'vitest';
import { call, client, signIn } from '../harness/worker/helpers';

describe('admin routes are closed without a session', () => {
  it.each([
    ['GET', '/api/admin/contact-messages'],
    ['GET', '/api/admin/subscribers'],
    ['GET', '/api/admin/rate-limit-stats'],
    ['POST', '/api/admin/send-newsletter'],
    ['POST', '/api/admin/scheduler/start'],
    ['POST', '/api/admin/change-password'],
    ['GET', '/api/admin/anything-not-yet-built'],
  ])('%s %s answers 401', async (method, path) => {
    // Raw call: the path comes from a table of routes, which the typed client cannot address by string.
    const res = await call(path, { method, body: method === 'POST' ? {} : undefined });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ message: 'Unauthorized' });
  });
});

describe('CSRF', () => {
  it('refuses a state-changing request from another origin with 403', async () => {
    const res = await client({ headers: { origin: 'https://evil.example' } }).api.admin.login.$post({ json: { username: 'admin', password: 'x' } });
    expect(res.status).toBe(403);
  });

  it('refuses a cross-site request marked by Sec-Fetch-Site, and an opaque null origin', async () => {
    expect((await client({ headers: { 'sec-fetch-site': 'cross-site' } }).api.admin.logout.$post()).status).toBe(403);
    expect((await client({ headers: { origin: 'null' } }).api.admin.logout.$post()).status).toBe(403);
  });

  it('lets a same-origin request through, and a cross-origin GET', async () => {
    const cookie = await signIn();
    expect((await client({ cookie }).api.admin.logout.$post()).status).toBe(200);
    expect((await client({ headers: { origin: 'https://evil.example' } }).api.health.$get()).status).toBe(200);
  });
});

describe('request bodies', () => {
  it('answers 413 above the limit', async () => {
    const res = await client().api.admin.login.$post({ json: { username: 'admin', password: 'x'.repeat(70 * 1024) } });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ message: 'Request body too large' });
  });

  it('answers 400 to malformed JSON', async () => {
    const res = await call('/api/admin/login', { rawBody: '{"username": "admin",', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).not.toMatch(/at |stack|\.ts/);
  });
});

describe('responses', () => {
  it('GET /api/health reports the database', async () => {
    const res = await client().api.health.$get();
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: 'ok', database: 'ok' });
  });

  it('carries the security headers and no-store on API answers', async () => {
    const res = await client().api.health.$get();
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(res.headers.get('strict-transport-security')).toMatch(/max-age=\d+/);
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('sends the opener policy with the back office answers only (docs/decisions/0010-opener-policy-on-the-back-office.md)', async () => {
    const admin = await client().api.admin.session.$get();
    expect(admin.headers.get('cross-origin-opener-policy')).toBe('same-origin');
    const login = await client().api.admin.login.$post({ json: { username: 'admin', password: 'wrong-password' } });
    expect(login.headers.get('cross-origin-opener-policy')).toBe('same-origin');
    expect((await client().api.health.$get()).headers.get('cross-origin-opener-policy')).toBeNull();
  });

  it('answers unknown API paths with a JSON 404', async () => {
    // Raw call: a path that is not a route, so the typed client has no way to name it.
    const res = await call('/api/no-such-thing');
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ message: 'Not found' });
  });
});
