import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { adminApi } from '../../worker/routes/admin/index';
import { call, client, signIn } from '../harness/worker/helpers';

// The admin API is a sub-app (worker/routes/admin/index.ts) with its own guard: the routes of
// signing in, of accepting an invitation and of using a password-reset link (docs/product.md §6.8),
// whose link is the credential, answer without a session;
// every other one answers 401. The routes are read from the
// sub-app itself, so a route added later is covered without touching this test.

const PUBLIC_ROUTES = [
  'POST /login',
  'POST /logout',
  'GET /session',
  'POST /invitations/check',
  'POST /invitations/two-factor',
  'POST /invitations/accept',
  'POST /password-resets/check',
  'POST /password-resets/complete',
];

/** A concrete path for a route pattern: `:action{start|stop|trigger}` takes its first choice, any other parameter a number. */
const concrete = (pattern: string) => pattern.replace(/:\w+\{([^|}]+)[^}]*\}/g, '$1').replace(/:\w+/g, '1');

// Middleware (requireAdmin's `use`) is registered for every method: only the routes proper, each
// once (a route's validators are entries of their own).
const routes = [...new Set(adminApi.routes.filter((route) => route.method !== 'ALL').map((route) => `${route.method} ${route.path}`))].map((route) => {
  const [method, path] = route.split(' ');
  return { method, path };
});
const guarded = routes.filter((route) => !PUBLIC_ROUTES.includes(`${route.method} ${route.path}`));

describe('the admin API sub-app', () => {
  it('has the public routes and the guarded rest', () => {
    expect(routes.map((route) => `${route.method} ${route.path}`)).toEqual(expect.arrayContaining(PUBLIC_ROUTES));
    // 35 today (docs/product.md §11); a handful would mean the listing broke.
    expect(guarded.length).toBeGreaterThan(30);
  });

  it.each(guarded.map((route) => [route.method, concrete(route.path)] as const))('%s /api/admin%s answers 401 without a session', async (method, path) => {
    // Raw call: the path comes from a table of routes, which the typed client cannot address by string.
    const res = await call(`/api/admin${path}`, { method, body: method === 'GET' ? undefined : {} });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ message: 'Unauthorized' });
  });

  it('answers sign-in, sign-out and the session check without a session', async () => {
    expect(await signIn()).toMatch(/admin_session=/);
    const session = await client().api.admin.session.$get();
    expect(session.status).toBe(200);
    expect(await session.json()).toEqual({ authenticated: false });
    const logout = await client().api.admin.logout.$post();
    expect(logout.status).toBe(200);
    expect(await logout.json()).toEqual({ message: 'Signed out' });
  });

  it('guards itself: mounted without worker/index.ts, a guarded route still answers 401 and the session check 200', async () => {
    const res = await adminApi.request('/contact-messages', {}, env);
    expect(res.status).toBe(401);
    expect((await adminApi.request('/session', {}, env)).status).toBe(200);
  });

  it('lets a signed-in admin through to every guarded GET route without parameters', async () => {
    const cookie = await signIn();
    // The AI preview and delivery events would call out, the content preview needs the page it
    // shows (?path=) and the publish review a draft (404 without one: content-api.worker.test.ts);
    // the rest answer from D1 and the bindings.
    const gets = guarded.filter(
      (route) => route.method === 'GET' && !route.path.includes(':') && !['/newsletter/preview', '/delivery-events', '/content/preview', '/content/review'].includes(route.path),
    );
    expect(gets.length).toBeGreaterThan(10);
    for (const route of gets) {
      // Raw call: the path comes from a table of routes, which the typed client cannot address by string.
      const res = await call(`/api/admin${route.path}`, { cookie });
      expect(res.status, route.path).toBe(200);
    }
  });
});
