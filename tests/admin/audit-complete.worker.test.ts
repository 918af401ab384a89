import { env } from 'cloudflare:test';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { adminApi } from '../../worker/routes/admin/index';
import { getDb } from '../../worker/db/client';
import { createInvitation } from '../../worker/services/admin-auth/invitations';
import { createPasswordReset } from '../../worker/services/admin-auth/password-resets';
import { totpCode } from '../../worker/services/admin-auth/totp';
import { ACCOUNT_PASSWORD, accountSignedIn } from '../harness/worker/admin-accounts-helpers';
import { ADMIN, call, client, sessionCookieFrom, signIn } from '../harness/worker/helpers';
import { callWith, mailChannelsEnv } from '../harness/worker/mailchannels-fake';
import { fakeMailChannelsWebhooks } from '../harness/worker/mailchannels-webhook-fake';
import { nextWeekday } from '../harness/worker/submission-helpers';

// The audit trail is complete (docs/product.md §6.9): every write route of the admin API (every
// method but GET under /api/admin, walked from the Hono app as tests/admin/admin-permissions.worker.test.ts
// walks it) adds an entry when it succeeds. Each route has a fixture below: what it needs set up and
// a request it answers with success. A route added without one fails the first test, naming it.

/** The request a fixture makes once its setup is done: the route's method, this path under /api/admin. */
interface Request {
  path: string;
  body?: unknown;
  /** Another Cookie header than the owner's (null: none, for the public part). */
  cookie?: string | null;
  /** Other bindings (MailChannels configured), through callWith. */
  testEnv?: Cloudflare.Env;
}

/** A fixture: sets up what the route needs (as the owner, `cookie`), then names the request. */
type Fixture = (owner: { cookie: string }) => Promise<Request>;

/** Write routes that change nothing, so they record nothing: POST only to keep a secret or a large body out of the URL. */
const CHANGE_NOTHING: Record<string, string> = {
  'POST /invitations/check': 'checks an invitation token (POST keeps the token out of logs)',
  'POST /newsletter/render': "renders the editor's preview",
  'POST /email/test-auth': 'checks the MailChannels key against MailChannels',
  'POST /password-resets/check': 'checks a password-reset token (POST keeps the token out of logs)',
  'POST /invitations/two-factor':
    'holds a new authenticator secret on the invitation (no account, no actor yet); accepting it records auth.two-factor-enable with the new account',
};

const sql = (query: string, ...params: unknown[]) => env.DB.prepare(query).bind(...params);
const idOf = async (query: string, ...params: unknown[]) => (await sql(`${query} RETURNING id`, ...params).first<{ id: number }>())!.id;
const jsonOf = async <T,>(res: Response | Promise<Response>) => (await (await res).json()) as T;

const activeSubscriber = () => idOf("INSERT INTO newsletter_subscriptions (email, active, confirmed_at) VALUES ('reader@example.com', 'true', ?)", Date.now());
const pendingSubscriber = () => idOf("INSERT INTO newsletter_subscriptions (email, active) VALUES ('pending@example.com', 'false')");
const contactMessage = () => idOf("INSERT INTO contact_messages (name, email, message) VALUES ('Bo', 'bo@example.com', 'A question about taxes')");
const appointment = () =>
  idOf("INSERT INTO appointments (name, email, service_type, date, time_slot, status) VALUES ('Ann', 'ann@example.com', 'Tax Planning Consultation', ?, '10:00 AM', 'requested')", nextWeekday(20));
const draft = async (cookie: string) => (await jsonOf<{ draft: { id: number } }>(call('/api/admin/newsletter/drafts', { cookie, body: { subject: 'Spring tips', content: '<p>File early.</p>' } }))).draft.id;
const newImport = async (cookie: string) => (await jsonOf<{ id: number }>(call('/api/admin/subscriber-imports', { cookie, body: { fileName: 'list.csv' } }))).id;
const stagedImport = async (cookie: string) => {
  const importId = await newImport(cookie);
  await call('/api/admin/subscriber-imports/rows', { cookie, body: { importId, rows: [{ line: 2, email: 'new@example.com' }] } });
  return importId;
};
const invitation = async () => {
  const owner = (await sql("SELECT id FROM admin_users WHERE username = 'admin'").first<{ id: number }>())!.id;
  return (await createInvitation(getDb(env.DB), { name: 'Pat Partner', email: 'pat@example.com', role: 'owner', canSendNewsletters: false }, owner)).id;
};
const staff = async () => (await accountSignedIn('staffer', 'staff')).id;
const twoFactorSecret = async (cookie: string) => (await jsonOf<{ secret: string }>(call('/api/admin/two-factor/setup', { cookie, body: { password: ADMIN.password } }))).secret;
/** A busy calendar server at the fetch boundary (unstubbed after each test). */
const fakeCalendar = () => {
  const realFetch = globalThis.fetch;
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    if (!request.url.startsWith('https://calendar.test/')) return realFetch(input, init);
    return new Response('BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Test//EN\r\nEND:VCALENDAR\r\n', { headers: { 'content-type': 'text/calendar' } });
  });
};
const busyCalendar = async (cookie: string) => {
  fakeCalendar();
  return (await jsonOf<{ id: number }>(call('/api/admin/busy-calendars', { cookie, body: { label: 'Dana', url: 'https://calendar.test/dana.ics' } }))).id;
};
const newsletterIssue = { subject: 'Year-end planning', content: '<p>Three things to do before December 31.</p>' };

/** One fixture per write route, keyed as the permission table keys them (worker/services/admin-auth/permissions.ts). */
const FIXTURES: Record<string, Fixture> = {
  // The public part: sign-in, sign-out, accepting an invitation.
  'POST /login': async () => ({ path: '/login', body: ADMIN, cookie: null }),
  'POST /logout': async () => ({ path: '/logout' }),
  'POST /invitations/accept': async () => {
    const owner = (await sql("SELECT id FROM admin_users WHERE username = 'admin'").first<{ id: number }>())!.id;
    const { token } = await createInvitation(getDb(env.DB), { name: 'Sam Staff', email: 'sam@example.com', role: 'staff', canSendNewsletters: false }, owner);
    return { path: '/invitations/accept', body: { token, username: 'sam.staff', password: ACCOUNT_PASSWORD }, cookie: null };
  },
  // The account itself.
  'POST /change-password': async () => ({ path: '/change-password', body: { currentPassword: ADMIN.password, newPassword: 'an entirely new passphrase 42' } }),
  'POST /two-factor/setup': async () => ({ path: '/two-factor/setup', body: { password: ADMIN.password } }),
  'POST /two-factor/enable': async ({ cookie }) => {
    const secret = await twoFactorSecret(cookie);
    return { path: '/two-factor/enable', body: { password: ADMIN.password, code: await totpCode(secret, Date.now()) } };
  },
  'POST /two-factor/disable': async ({ cookie }) => {
    const secret = await twoFactorSecret(cookie);
    const enabled = await call('/api/admin/two-factor/enable', { cookie, body: { password: ADMIN.password, code: await totpCode(secret, Date.now()) } });
    return { path: '/two-factor/disable', body: { password: ADMIN.password, code: await totpCode(secret, Date.now() + 30_000) }, cookie: sessionCookieFrom(enabled) };
  },
  'DELETE /account/sessions/:sessionId': async ({ cookie }) => {
    await signIn();
    const sessions = await jsonOf<{ id: string; current: boolean }[]>(call('/api/admin/account/sessions', { cookie }));
    return { path: `/account/sessions/${sessions.find((s) => !s.current)!.id}` };
  },
  'PATCH /account/profile': async () => ({ path: '/account/profile', body: { name: 'Olivia Owner', email: 'olivia@example.com' } }),
  // Inbox and appointments.
  'PATCH /contact-messages/:id': async () => ({ path: `/contact-messages/${await contactMessage()}`, body: { read: true } }),
  'PATCH /contact-messages/:id/archive': async () => ({ path: `/contact-messages/${await contactMessage()}/archive`, body: { archived: true } }),
  'POST /contact-messages/:id/replies': async () => ({ path: `/contact-messages/${await contactMessage()}/replies`, body: { body: 'Thank you, we will call you tomorrow.' } }),
  'PATCH /appointments/:id': async () => ({ path: `/appointments/${await appointment()}`, body: { status: 'confirmed' } }),
  'PUT /availability': async ({ cookie }) => ({ path: '/availability', body: { weekdays: (await jsonOf<{ weekdays: unknown }>(call('/api/admin/availability', { cookie }))).weekdays } }),
  'PUT /booking-rules': async () => ({ path: '/booking-rules', body: { minimumNoticeHours: 0, horizonDays: 365, closeFederalHolidays: false, reopenedHolidays: [] } }),
  'POST /blocked-dates': async () => ({ path: '/blocked-dates', body: { date: nextWeekday(20), reason: 'Office closed' } }),
  'DELETE /blocked-dates/:date': async ({ cookie }) => {
    const date = nextWeekday(20);
    await call('/api/admin/blocked-dates', { cookie, body: { date, reason: 'Office closed' } });
    return { path: `/blocked-dates/${date}` };
  },
  'POST /busy-calendars': async () => {
    fakeCalendar();
    return { path: '/busy-calendars', body: { label: 'Dana', url: 'https://calendar.test/dana.ics' } };
  },
  'POST /busy-calendars/:id/refresh': async ({ cookie }) => ({ path: `/busy-calendars/${await busyCalendar(cookie)}/refresh` }),
  'DELETE /busy-calendars/:id': async ({ cookie }) => ({ path: `/busy-calendars/${await busyCalendar(cookie)}` }),
  'POST /calendar-feed/rotate': async () => ({ path: '/calendar-feed/rotate' }),
  // Content.
  'PUT /content/draft': async ({ cookie }) => {
    const { published } = await jsonOf<{ published: { version: number; content: unknown } }>(call('/api/admin/content', { cookie }));
    return { path: '/content/draft', body: { basedOn: published.version, content: published.content } };
  },
  'POST /content/publish': async ({ cookie }) => {
    const { published } = await jsonOf<{ published: { version: number; content: unknown } }>(call('/api/admin/content', { cookie }));
    await call('/api/admin/content/draft', { method: 'PUT', cookie, body: { basedOn: published.version, content: published.content } });
    const { draft: saved } = await jsonOf<{ draft: { revision: number } }>(call('/api/admin/content', { cookie }));
    return { path: '/content/publish', body: { basedOn: published.version, revision: saved.revision } };
  },
  'POST /content/restore': async () => ({ path: '/content/restore', body: { version: 1 } }),
  // Subscribers and their import.
  'DELETE /subscribers/:id': async () => ({ path: `/subscribers/${await pendingSubscriber()}` }),
  'POST /subscribers/:id/resend-confirmation': async () => ({ path: `/subscribers/${await pendingSubscriber()}/resend-confirmation` }),
  'POST /subscriber-imports': async () => ({ path: '/subscriber-imports', body: { fileName: 'list.csv' } }),
  'POST /subscriber-imports/rows': async ({ cookie }) => ({ path: '/subscriber-imports/rows', body: { importId: await newImport(cookie), rows: [{ line: 2, email: 'new@example.com' }] } }),
  'POST /subscriber-imports/:id/confirm': async ({ cookie }) => ({ path: `/subscriber-imports/${await stagedImport(cookie)}/confirm`, body: { consent: 'given', consentConfirmed: true } }),
  'POST /subscriber-imports/:id/run': async ({ cookie }) => {
    const id = await stagedImport(cookie);
    await call(`/api/admin/subscriber-imports/${id}/confirm`, { cookie, body: { consent: 'given', consentConfirmed: true } });
    return { path: `/subscriber-imports/${id}/run` };
  },
  // The newsletter.
  'PUT /newsletter/settings': async () => ({ path: '/newsletter/settings', body: { clickTracking: false } }),
  'POST /send-newsletter': async () => {
    await activeSubscriber();
    return { path: '/send-newsletter', body: newsletterIssue };
  },
  'POST /newsletter/send': async () => {
    await activeSubscriber();
    return { path: '/newsletter/send', body: {} };
  },
  'POST /newsletter/test-send': async () => ({ path: '/newsletter/test-send', body: { ...newsletterIssue, to: 'owner@example.com' } }),
  'POST /newsletter/drafts': async () => ({ path: '/newsletter/drafts', body: newsletterIssue }),
  'PUT /newsletter/drafts/:id': async ({ cookie }) => ({ path: `/newsletter/drafts/${await draft(cookie)}`, body: { ...newsletterIssue, subject: 'Changed' } }),
  'DELETE /newsletter/drafts/:id': async ({ cookie }) => ({ path: `/newsletter/drafts/${await draft(cookie)}` }),
  'POST /newsletter/drafts/:id/schedule': async ({ cookie }) => ({ path: `/newsletter/drafts/${await draft(cookie)}/schedule`, body: { date: nextWeekday(20), time: '10:00' } }),
  'POST /newsletter/drafts/:id/cancel': async ({ cookie }) => {
    const id = await draft(cookie);
    await call(`/api/admin/newsletter/drafts/${id}/schedule`, { cookie, body: { date: nextWeekday(20), time: '10:00' } });
    return { path: `/newsletter/drafts/${id}/cancel` };
  },
  'POST /scheduler/:action{start|stop|trigger}': async () => ({ path: '/scheduler/start' }),
  // E-mail set-up.
  'POST /delivery-events/enroll': async () => {
    await fakeMailChannelsWebhooks();
    return { path: '/delivery-events/enroll', testEnv: mailChannelsEnv() };
  },
  'POST /email/test-send': async () => ({ path: '/email/test-send', body: { testEmail: 'owner@example.com' } }),
  // Users and security settings.
  'POST /users/invitations': async () => ({ path: '/users/invitations', body: { name: 'Sam Staff', email: 'sam@example.com', role: 'staff', canSendNewsletters: false } }),
  'PATCH /users/:id': async () => ({ path: `/users/${await staff()}`, body: { canSendNewsletters: true } }),
  'POST /users/:id/deactivate': async () => ({ path: `/users/${await staff()}/deactivate` }),
  'POST /users/:id/reactivate': async ({ cookie }) => {
    const id = await staff();
    await call(`/api/admin/users/${id}/deactivate`, { method: 'POST', cookie });
    return { path: `/users/${id}/reactivate` };
  },
  'DELETE /users/:id/sessions/:sessionId': async ({ cookie }) => {
    const id = await staff();
    const [session] = await jsonOf<{ id: string }[]>(call(`/api/admin/users/${id}/sessions`, { cookie }));
    return { path: `/users/${id}/sessions/${session.id}` };
  },
  'PUT /security-settings': async () => ({ path: '/security-settings', body: { requireTwoFactor: false } }),
  'POST /users/invitations/:id/revoke': async () => ({ path: `/users/invitations/${await invitation()}/revoke` }),
  'POST /users/invitations/:id/resend': async () => ({ path: `/users/invitations/${await invitation()}/resend` }),
  'POST /users/:id/password-reset': async () => ({ path: `/users/${await staff()}/password-reset` }),
  'POST /password-resets/complete': async () => {
    const owner = (await sql("SELECT id FROM admin_users WHERE username = 'admin'").first<{ id: number }>())!.id;
    const { token } = await createPasswordReset(getDb(env.DB), await staff(), owner);
    return { path: '/password-resets/complete', body: { token, password: 'an entirely new passphrase 42' }, cookie: null };
  },
};

/** Every write route of the admin API, as `METHOD /path` relative to /api/admin (middleware aside). */
const writeRoutes = [...new Set(adminApi.routes.filter((r) => r.method !== 'ALL' && r.method !== 'GET').map((r) => `${r.method} ${r.path}`))];
const entryCount = async () => (await env.DB.prepare('SELECT count(*) AS n FROM audit_log').first<{ n: number }>())!.n;

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the audit trail is complete', () => {
  it('has a fixture for every write route of the admin API (add one to FIXTURES in this file, or to CHANGE_NOTHING with why, when you add a route)', () => {
    expect(writeRoutes.length).toBeGreaterThan(40);
    const missing = writeRoutes.filter((route) => !(route in FIXTURES) && !(route in CHANGE_NOTHING));
    expect(missing, `write routes with no audit fixture in tests/admin/audit-complete.worker.test.ts: ${missing.join(', ')}`).toEqual([]);
    // And no fixture for a route that is gone (a renamed route must not keep a stale one).
    expect(Object.keys(FIXTURES).filter((route) => !writeRoutes.includes(route))).toEqual([]);
  });

  for (const route of writeRoutes.filter((r) => r in FIXTURES)) {
    it(`${route} adds an entry when it succeeds`, async () => {
      const cookie = await signIn();
      const request = await FIXTURES[route]({ cookie });
      const method = route.split(' ')[0];
      const before = await entryCount();
      const options = { method, cookie: request.cookie === null ? undefined : (request.cookie ?? cookie), ...(request.body === undefined ? {} : { body: request.body }) };
      const res = request.testEnv ? await callWith(request.testEnv, `/api/admin${request.path}`, options) : await call(`/api/admin${request.path}`, options);
      expect(res.status, `${route}: ${await res.clone().text()}`).toBeLessThan(300);
      expect(await entryCount(), `${route} succeeded (${res.status}) but added no audit entry`).toBeGreaterThan(before);
    });
  }

  it('the routes that change nothing still answer as reads: no entry', async () => {
    const cookie = await signIn();
    const before = await entryCount();
    expect((await call('/api/admin/newsletter/render', { cookie, body: newsletterIssue })).status).toBe(200);
    expect((await client().api.admin.invitations.check.$post({ json: { token: 'x'.repeat(43) } })).status).toBeGreaterThanOrEqual(400);
    expect(await entryCount()).toBe(before);
  });
});
