import { describe, expect, it } from 'vitest';
import { adminSignedInApi } from '../../worker/routes/admin/index';
import { ADMIN_PERMISSIONS, type Access } from '../../worker/services/admin-auth/permissions';
import { accountSignedIn } from '../harness/worker/admin-accounts-helpers';
import { call, signIn } from '../harness/worker/helpers';

// The permission table of docs/product.md §6.8 (worker/services/admin-auth/permissions.ts), against
// the real admin API: every signed-in route has a row, and each role gets 403 exactly where its
// row says so, with a message saying why.

/** Every route of the signed-in admin API as the table names it (`PATCH /users/:id`); middleware aside. */
const routes = [...new Set(adminSignedInApi.routes.filter((r) => r.method !== 'ALL').map((r) => `${r.method} ${r.path}`))];

/** A concrete path for a route pattern: each parameter filled with a value its validator accepts. */
function concretePath(pattern: string): string {
  return pattern
    .replace(':action{start|stop|trigger}', 'status-check')
    .replace(':sessionId', '00000000-0000-4000-8000-000000000000')
    .replace(':date', '2031-01-06')
    .replace(/:id\b/, '999999');
}

const allowed = (access: Access, who: 'owner' | 'staff' | 'sender') =>
  who === 'owner' || access === 'everyone' || access === 'staff' || (access === 'newsletter' && who === 'sender');

describe('the permission table', () => {
  it('has a row for every signed-in admin route (add one when you add a route)', () => {
    expect(routes.length).toBeGreaterThan(50);
    const missing = routes.filter((route) => !(route in ADMIN_PERMISSIONS));
    expect(missing).toEqual([]);
  });

  it('lists the users, security settings and audit routes as owner-only', () => {
    for (const route of ['GET /users', 'POST /users/invitations', 'PATCH /users/:id', 'POST /users/:id/deactivate', 'PUT /security-settings', 'GET /audit']) {
      expect(ADMIN_PERMISSIONS[route]).toBe('owner');
    }
    expect(ADMIN_PERMISSIONS['POST /content/publish']).toBe('owner');
    expect(ADMIN_PERMISSIONS['PUT /content/draft']).toBe('staff');
    expect(ADMIN_PERMISSIONS['POST /newsletter/send']).toBe('newsletter');
  });

  it('answers each role on each route as its row says: allowed, or 403 with a clear message', async () => {
    const owner = await signIn();
    const staff = (await accountSignedIn('staffer', 'staff')).cookie;
    const sender = (await accountSignedIn('sender', 'staff', { canSendNewsletters: true })).cookie;
    const wrong: string[] = [];
    for (const route of routes) {
      const [method, pattern] = route.split(' ');
      // The scheduler's action parameter only matches start|stop|trigger: 'stop' changes nothing here.
      const path = `/api/admin${concretePath(pattern).replace('status-check', 'stop')}`;
      for (const [who, cookie] of [['owner', owner], ['staff', staff], ['sender', sender]] as const) {
        const res = await call(path, { method, cookie, ...(method === 'GET' || method === 'DELETE' ? {} : { body: {} }) });
        const expectAllowed = allowed(ADMIN_PERMISSIONS[route], who);
        if (res.status === 401) wrong.push(`${who} ${route}: 401`);
        else if (expectAllowed && res.status === 403) wrong.push(`${who} ${route}: 403 but allowed`);
        else if (!expectAllowed) {
          const body = (await res.json().catch(() => ({}))) as { message?: string };
          if (res.status !== 403 || !/owner/.test(body.message ?? '')) wrong.push(`${who} ${route}: ${res.status} ${body.message} but not allowed`);
        }
      }
    }
    expect(wrong).toEqual([]);
  }, 120_000);

  it('closes an unknown admin path to staff (owner-only by default) and 404s it for the owner', async () => {
    const staff = (await accountSignedIn('staffer', 'staff')).cookie;
    const res = await call('/api/admin/no-such-route', { cookie: staff });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ message: 'Only an owner can do this. Ask the firm’s owner.' });
    expect((await call('/api/admin/no-such-route', { cookie: await signIn() })).status).toBe(404);
  });
});
