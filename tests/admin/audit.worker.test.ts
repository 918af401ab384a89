import { env } from 'cloudflare:test';
import { describe, expect, it, vi } from 'vitest';
import { AUDIT_CSV_COLUMNS } from '#core/schemas/audit';
import { adminApi } from '../../worker/routes/admin/index';
import { getDb } from '../../worker/db/client';
import { appointmentLinks } from '../../worker/services/appointments/links';
import { findAppointment } from '../../worker/services/appointments/bookings';
import { AUDIT_RETENTION_DAYS, recordFailedSignIn, UNKNOWN_ACCOUNT } from '../../worker/services/audit/audit-log';
import { ADMIN, call, client, cronTick, sessionCookieFrom, signIn } from '../harness/worker/helpers';
import { fakeMailbox, MAILBOX_ENV } from '../harness/worker/mailbox-fake';
import { totpCode } from '../../worker/services/admin-auth/totp';
import { nextWeekday } from '../harness/worker/submission-helpers';
import { firm } from '#core/content/firm';
import { addCalendarDays, zonedInstant } from '#core/firm-time';
import { ACCOUNT_PASSWORD } from '../harness/worker/admin-accounts-helpers';

// The audit trail (docs/product.md §6.9): every back-office state change leaves one append-only
// entry with who, what, which record, when and the network; refused changes leave none.

type Entry = { actor_id: number | null; actor: string; action: string; record: string | null; outcome: string; network: string | null; at: number };
const entries = async () => (await env.DB.prepare('SELECT * FROM audit_log ORDER BY id').all<Entry>()).results;
const actions = async () => (await entries()).map((e) => [e.action, e.record, e.outcome]);
const clear = () => env.DB.prepare('DELETE FROM audit_log').run();
const DAY = 24 * 60 * 60 * 1000;

async function insertAppointment(date: string, timeSlot: string | null, status = 'requested'): Promise<number> {
  const row = await env.DB.prepare("INSERT INTO appointments (name, email, service_type, date, time_slot, status) VALUES ('Ann Visitor', 'ann@example.com', 'Tax Planning Consultation', ?, ?, ?) RETURNING id")
    .bind(date, timeSlot, status)
    .first<{ id: number }>();
  return row!.id;
}

describe('sign-in', () => {
  it('records a success with its network (IPv4 as is), and a failure under its network (IPv4 /24, IPv6 /48), never the name typed for no account', async () => {
    await signIn(ADMIN, '203.0.113.50');
    expect((await client({ ip: '2001:db8:1:2:3:4:5:6' }).api.admin.login.$post({ json: { ...ADMIN, password: 'not the password at all' } })).status).toBe(401);
    expect((await client({ ip: '198.51.100.9' }).api.admin.login.$post({ json: { username: 'nobody-here', password: 'whatever it is here' } })).status).toBe(401);
    const rows = await entries();
    expect(rows.map((e) => [e.action, e.outcome, e.actor, e.network])).toEqual([
      ['auth.sign-in', 'success', ADMIN.username, '203.0.113.50'],
      ['auth.sign-in', 'failure', ADMIN.username, '2001:db8:1::/48'],
      ['auth.sign-in', 'failure', UNKNOWN_ACCOUNT, '198.51.100.0/24'],
    ]);
    expect(rows[0].actor_id).toBeTypeOf('number');
    expect(rows[1].actor_id).toBe(rows[0].actor_id);
    expect(rows[2].actor_id).toBeNull();
    expect(rows[0].record).toBe(`admin-user:${rows[0].actor_id}`);
    expect(JSON.stringify(rows)).not.toContain('nobody-here');
  });

  it('counts a burst of refused sign-ins in one entry per network, account and hour, not one row each', async () => {
    await signIn(ADMIN, '203.0.113.50');
    await clear();
    const fail = (ip: string, username: string) => client({ ip }).api.admin.login.$post({ json: { username, password: 'a wrong password guess' } });
    // Thirty unknown names from thirty addresses of one /24, then the admin's name from the same /24,
    // then from another /24 and from two /64s of one IPv6 /48: refused (401) or throttled (429) alike.
    for (let i = 1; i <= 30; i++) expect([401, 429]).toContain((await fail(`192.0.2.${i}`, `guess-${i}`)).status);
    for (let i = 1; i <= 3; i++) expect([401, 429]).toContain((await fail(`192.0.2.${100 + i}`, ADMIN.username)).status);
    expect([401, 429]).toContain((await fail('198.51.100.7', 'guess-x')).status);
    expect([401, 429]).toContain((await fail('2001:db8:5:1::9', 'guess-y')).status);
    expect([401, 429]).toContain((await fail('2001:db8:5:2::9', 'guess-z')).status);
    const rows = (await env.DB.prepare('SELECT actor, network, outcome, count FROM audit_log ORDER BY id').all()).results;
    expect(rows).toEqual([
      { actor: UNKNOWN_ACCOUNT, network: '192.0.2.0/24', outcome: 'failure', count: 30 },
      { actor: ADMIN.username, network: '192.0.2.0/24', outcome: 'failure', count: 3 },
      { actor: UNKNOWN_ACCOUNT, network: '198.51.100.0/24', outcome: 'failure', count: 1 },
      { actor: UNKNOWN_ACCOUNT, network: '2001:db8:5::/48', outcome: 'failure', count: 2 },
    ]);
  });

  it('starts a new entry for the next hour, and the screen and the CSV show the count', async () => {
    const db = getDb(env.DB);
    const hour = 60 * 60 * 1000;
    const start = Math.floor(Date.now() / hour) * hour - 3 * hour;
    for (const offset of [0, 1000, hour - 1]) await recordFailedSignIn(db, { account: null, network: '192.0.2.9', at: new Date(start + offset) });
    await recordFailedSignIn(db, { account: null, network: '192.0.2.9', at: new Date(start + hour) });
    expect((await env.DB.prepare('SELECT count FROM audit_log ORDER BY id').all()).results).toEqual([{ count: 3 }, { count: 1 }]);
    const cookie = await signIn();
    const listed = (await (await client({ cookie }).api.admin.audit.$get({ query: { actor: UNKNOWN_ACCOUNT } })).json()) as { entries: { count: number }[] };
    expect(listed.entries.map((e) => e.count)).toEqual([1, 3]);
    const csv = await (await call(`/api/admin/audit/export?actor=${encodeURIComponent(UNKNOWN_ACCOUNT)}`, { cookie })).text();
    expect(csv.split('\r\n')[2]).toBe(`"${new Date(start).toISOString()}","${UNKNOWN_ACCOUNT}","","auth.sign-in","","failure","192.0.2.0/24","3"`);
  });
});

describe('every back-office change', () => {
  it('leaves one entry naming the admin, the action, the record and the network', async () => {
    const cookie = await signIn();
    await clear();
    const admin = client({ cookie, ip: '192.0.2.44' });
    const date = nextWeekday(20);

    const first = await insertAppointment(date, '10:00 AM');
    expect((await admin.api.admin.appointments[':id'].$patch({ param: { id: String(first) }, json: { status: 'confirmed' } })).status).toBe(200);
    expect((await admin.api.admin.appointments[':id'].$patch({ param: { id: String(first) }, json: { status: 'cancelled' } })).status).toBe(200);

    const view = (await (await admin.api.admin.availability.$get()).json()) as { weekdays: Record<string, string[]>; rules: Record<string, unknown> };
    expect((await call('/api/admin/availability', { method: 'PUT', cookie, ip: '192.0.2.44', body: { weekdays: view.weekdays } })).status).toBe(200);
    expect((await call('/api/admin/booking-rules', { method: 'PUT', cookie, ip: '192.0.2.44', body: { minimumNoticeHours: 0, horizonDays: 365, closeFederalHolidays: false, reopenedHolidays: [] } })).status).toBe(200);
    expect((await call('/api/admin/blocked-dates', { cookie, ip: '192.0.2.44', body: { date, reason: 'Office closed' } })).status).toBe(201);
    expect((await call(`/api/admin/blocked-dates/${date}`, { method: 'DELETE', cookie, ip: '192.0.2.44' })).status).toBe(204);

    const contact = await env.DB.prepare("INSERT INTO contact_messages (name, email, message) VALUES ('Bo', 'bo@example.com', 'A question about taxes') RETURNING id").first<{ id: number }>();
    expect((await call(`/api/admin/contact-messages/${contact!.id}`, { method: 'PATCH', cookie, ip: '192.0.2.44', body: { read: true } })).status).toBe(200);

    const pending = await env.DB.prepare("INSERT INTO newsletter_subscriptions (email, active) VALUES ('pending@example.com', 'false') RETURNING id").first<{ id: number }>();
    expect((await call(`/api/admin/subscribers/${pending!.id}/resend-confirmation`, { method: 'POST', cookie, ip: '192.0.2.44' })).status).toBe(200);
    expect((await call(`/api/admin/subscribers/${pending!.id}`, { method: 'DELETE', cookie, ip: '192.0.2.44' })).status).toBe(200);

    await env.DB.prepare("INSERT INTO newsletter_subscriptions (email, active, confirmed_at) VALUES ('reader@example.com', 'true', ?)").bind(Date.now()).run();
    const issue = { subject: 'Year-end planning', content: '<p>Three things to do before December 31.</p>' };
    expect((await admin.api.admin.newsletter['test-send'].$post({ json: { ...issue, to: 'owner@example.com' } })).status).toBe(200);
    const sent = await admin.api.admin['send-newsletter'].$post({ json: issue });
    expect(sent.status).toBe(200);
    const { newsletterId } = (await sent.json()) as unknown as { newsletterId: number };
    expect((await call('/api/admin/scheduler/start', { method: 'POST', cookie, ip: '192.0.2.44' })).status).toBe(200);
    expect((await call('/api/admin/scheduler/stop', { method: 'POST', cookie, ip: '192.0.2.44' })).status).toBe(200);

    const content = (await (await admin.api.admin.content.$get()).json()) as { published: { version: number; content: unknown } };
    const draft = await call('/api/admin/content/draft', { method: 'PUT', cookie, ip: '192.0.2.44', body: { basedOn: content.published.version, content: content.published.content } });
    expect(draft.status).toBe(200);
    const { revision } = (await draft.json()) as { revision: number };
    const published = await admin.api.admin.content.publish.$post({ json: { basedOn: content.published.version, revision } });
    expect(published.status).toBe(200);
    const { version } = (await published.json()) as { version: number };
    expect((await admin.api.admin.content.restore.$post({ json: { version: 1 } })).status).toBe(200);

    expect((await admin.api.admin.email['test-send'].$post({ json: { testEmail: 'owner@example.com' } })).status).toBe(200);
    expect((await call('/api/admin/calendar-feed/rotate', { method: 'POST', cookie, ip: '192.0.2.44' })).status).toBe(201);

    const rows = await entries();
    const me = rows[0].actor_id;
    expect(me).toBeTypeOf('number');
    for (const row of rows) expect([row.actor, row.actor_id, row.network, row.outcome]).toEqual([ADMIN.username, me, '192.0.2.44', 'success']);
    const logIds = (await env.DB.prepare("SELECT id FROM email_log WHERE kind IN ('newsletter-test', 'test') ORDER BY id").all<{ id: number }>()).results.map((r) => r.id);
    expect(rows.map((e) => [e.action, e.record])).toEqual([
      ['appointment.confirm', `appointment:${first}`],
      ['appointment.cancel', `appointment:${first}`],
      ['availability.weekly-offer', null],
      ['availability.booking-rules', null],
      ['availability.block-date', `date:${date}`],
      ['availability.unblock-date', `date:${date}`],
      ['contact.mark-read', `contact-message:${contact!.id}`],
      ['subscriber.resend-confirmation', `subscriber:${pending!.id}`],
      ['subscriber.erase', `subscriber:${pending!.id}`],
      ['newsletter.test', `email-log:${logIds[0]}`],
      ['newsletter.send', `newsletter:${newsletterId}`],
      ['newsletter.schedule-start', null],
      ['newsletter.schedule-stop', null],
      ['content.save-draft', `content-draft:${content.published.version}`],
      ['content.publish', `content-version:${version}`],
      ['content.restore', 'content-version:1'],
      ['settings.email-test', `email-log:${logIds[1]}`],
      ['calendar.feed-rotate', null],
    ]);
    // Visitors appear by id only: no name or address of theirs is in the trail.
    expect(JSON.stringify(rows)).not.toMatch(/Ann Visitor|ann@example\.com|bo@example\.com|pending@example\.com|reader@example\.com/);

    // Password change, then sign-out, last: they end the session.
    const changed = await admin.api.admin['change-password'].$post({ json: { currentPassword: ADMIN.password, newPassword: 'an entirely new passphrase 42' } });
    expect(changed.status).toBe(200);
    const fresh = changed.headers.getSetCookie().find((c) => c.includes('admin_session='))!.split(';')[0];
    expect((await call('/api/admin/logout', { method: 'POST', cookie: fresh, ip: '192.0.2.44' })).status).toBe(200);
    expect((await actions()).slice(-2)).toEqual([
      ['auth.password-change', `admin-user:${me}`, 'success'],
      ['auth.sign-out', `admin-user:${me}`, 'success'],
    ]);
  });

  it('records users, roles, sessions and the security setting (docs/product.md §6.8): invite, accept, role, deactivate, reactivate, sign-out of a session', async () => {
    const owner = await signIn();
    const me = (await env.DB.prepare("SELECT id FROM admin_users WHERE username = 'admin'").first<{ id: number }>())!.id;
    await clear();
    const admin = client({ cookie: owner }).api.admin;
    // The link is read from the mailbox: the e-mail log keeps no token (tests/harness/worker/mailbox-fake.ts).
    const mailbox = fakeMailbox();
    const inviting = client({ cookie: owner, env: MAILBOX_ENV }).api.admin.users.invitations;
    expect((await inviting.$post({ json: { name: 'Sam Staff', email: 'sam@example.com', role: 'staff', canSendNewsletters: false } })).status).toBe(201);
    const token = mailbox.latest('sam@example.com', 'admin-invitation').text.match(/accept-invitation\?token=([A-Za-z0-9_-]+)/)![1];
    const accepted = await client().api.admin.invitations.accept.$post({ json: { token, username: 'sam.staff', password: ACCOUNT_PASSWORD } });
    expect(accepted.status).toBe(201);
    const sam = (await env.DB.prepare("SELECT id FROM admin_users WHERE username = 'sam.staff'").first<{ id: number }>())!.id;
    const samCookie = await signIn({ username: 'sam.staff', password: ACCOUNT_PASSWORD });
    expect(samCookie).toBeTruthy();
    const param = { id: String(sam) };
    expect((await admin.users[':id'].$patch({ param, json: { canSendNewsletters: true } })).status).toBe(200);
    expect((await admin.users[':id'].$patch({ param, json: { role: 'owner' } })).status).toBe(200);
    expect((await admin.users[':id'].$patch({ param, json: { role: 'staff' } })).status).toBe(200);
    const [session] = (await (await admin.users[':id'].sessions.$get({ param })).json()) as { id: string }[];
    expect((await admin.users[':id'].sessions[':sessionId'].$delete({ param: { ...param, sessionId: session.id } })).status).toBe(200);
    expect((await admin.users[':id'].deactivate.$post({ param })).status).toBe(200);
    expect((await admin.users[':id'].reactivate.$post({ param })).status).toBe(200);
    expect((await admin['security-settings'].$put({ json: { requireTwoFactor: false } })).status).toBe(200);
    const invitation = (await env.DB.prepare('SELECT id FROM admin_invitations').first<{ id: number }>())!.id;
    expect((await actions()).filter(([action]) => action !== 'auth.sign-in')).toEqual([
      ['user.invite', `invitation:${invitation}`, 'success'],
      ['user.create', `admin-user:${sam}`, 'success'],
      ['user.update', `admin-user:${sam}`, 'success'],
      ['user.role-change', `admin-user:${sam}`, 'success'],
      ['user.role-change', `admin-user:${sam}`, 'success'],
      ['user.session-end', `admin-user:${sam}`, 'success'],
      ['user.deactivate', `admin-user:${sam}`, 'success'],
      ['user.reactivate', `admin-user:${sam}`, 'success'],
      ['settings.security', null, 'success'],
    ]);
    const actors = (await entries()).filter((e) => e.action !== 'auth.sign-in').map((e) => e.actor_id);
    expect(actors).toEqual([me, sam, me, me, me, me, me, me, me]);
  });

  it('records the rest of the listed actions too: mark unread, the scheduler trigger, the panel send, two-factor set-up, enable and disable, busy calendars added, refreshed and removed', async () => {
    const cookie = await signIn();
    await clear();
    const admin = client({ cookie }).api.admin;
    const contact = await env.DB.prepare("INSERT INTO contact_messages (name, email, message, read_at) VALUES ('Bo', 'bo@example.com', 'A question', ?) RETURNING id").bind(Date.now()).first<{ id: number }>();
    expect((await call(`/api/admin/contact-messages/${contact!.id}`, { method: 'PATCH', cookie, body: { read: false } })).status).toBe(200);
    await env.DB.prepare("INSERT INTO newsletter_subscriptions (email, active, confirmed_at) VALUES ('reader@example.com', 'true', ?)").bind(Date.now()).run();
    // The panel's "send this month's issue now" and the scheduler's trigger send the same period's
    // issue (the second is refused 409): the first one's rows are cleared between the two.
    expect((await call('/api/admin/newsletter/send', { cookie, body: { subject: 'Spring tips', content: '<p>File early.</p>' } })).status).toBe(200);
    await env.DB.batch([env.DB.prepare('DELETE FROM newsletter_deliveries'), env.DB.prepare('DELETE FROM sent_newsletters')]);
    expect((await call('/api/admin/scheduler/trigger', { method: 'POST', cookie })).status).toBe(200);

    // Busy calendars against a fake calendar server at the fetch boundary.
    const realFetch = globalThis.fetch;
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      if (!request.url.startsWith('https://calendar.test/')) return realFetch(input, init);
      return new Response('BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Test//EN\r\nEND:VCALENDAR\r\n', { headers: { 'content-type': 'text/calendar' } });
    });
    try {
      const added = await admin['busy-calendars'].$post({ json: { label: 'Dana', url: 'https://calendar.test/dana.ics' } });
      expect(added.status).toBe(201);
      const { id } = (await added.json()) as { id: number };
      expect((await admin['busy-calendars'][':id'].refresh.$post({ param: { id: String(id) } })).status).toBe(200);
      expect((await admin['busy-calendars'][':id'].$delete({ param: { id: String(id) } })).status).toBeLessThan(300);
    } finally {
      vi.unstubAllGlobals();
    }

    const setup = await admin['two-factor'].setup.$post({ json: { password: ADMIN.password } });
    const { secret } = (await setup.json()) as { secret: string };
    const enabled = await admin['two-factor'].enable.$post({ json: { password: ADMIN.password, code: await totpCode(secret, Date.now()) } });
    expect(enabled.status).toBe(200);
    const renewed = sessionCookieFrom(enabled);
    const disabled = await client({ cookie: renewed }).api.admin['two-factor'].disable.$post({ json: { password: ADMIN.password, code: await totpCode(secret, Date.now() + 30_000) } });
    expect(disabled.status).toBe(200);

    const recorded = (await actions()).map(([action]) => action);
    for (const action of [
      'contact.mark-unread',
      'newsletter.send',
      'newsletter.schedule-trigger',
      'calendar.busy-add',
      'calendar.busy-refresh',
      'calendar.busy-remove',
      'auth.two-factor-setup',
      'auth.two-factor-enable',
      'auth.two-factor-disable',
    ]) {
      expect(recorded, action).toContain(action);
    }
  });

  it('leaves nothing for a refused change', async () => {
    const cookie = await signIn();
    await clear();
    expect((await call('/api/admin/subscribers/9999', { method: 'DELETE', cookie })).status).toBe(404);
    expect((await call('/api/admin/appointments/9999', { method: 'PATCH', cookie, body: { status: 'confirmed' } })).status).toBe(404);
    expect((await call('/api/admin/content/restore', { cookie, body: { version: 999 } })).status).toBeGreaterThanOrEqual(400);
    expect((await call('/api/admin/blocked-dates', { cookie, body: { date: 'not-a-date' } })).status).toBe(400);
    expect((await call('/api/admin/change-password', { cookie, body: { currentPassword: 'wrong wrong wrong', newPassword: 'an entirely new passphrase 42' } })).status).toBe(400);
    expect(await entries()).toEqual([]);
  });

  it("records a visitor's cancel through their link by the appointment's id alone, with no network", async () => {
    const id = await insertAppointment(nextWeekday(15), '11:00 AM', 'confirmed');
    const row = (await findAppointment(getDb(env.DB), id))!;
    const links = await appointmentLinks(env, { ...row, timeSlot: row.timeSlot! });
    const token = new URL(links.cancelUrl).searchParams.get('token')!;
    expect((await call('/api/appointments/manage/cancel', { body: { token }, ip: '198.51.100.77' })).status).toBe(200);
    expect((await entries()).map((e) => [e.actor, e.actor_id, e.action, e.record, e.network])).toEqual([['visitor', null, 'appointment.cancel', `appointment:${id}`, null]]);
  });
});

describe("the cron's sends on someone's behalf", () => {
  it('records, by the system, the scheduled draft it sent, the running scheduler\'s issue it started and the import confirmations it sent', async () => {
    const cookie = await signIn();
    await env.DB.prepare("INSERT INTO newsletter_subscriptions (email, active, confirmed_at) VALUES ('reader@example.com', 'true', ?)").bind(Date.now()).run();
    const created = await call('/api/admin/newsletter/drafts', { cookie, body: { subject: 'Spring tips', content: '<p>File early.</p>' } });
    const { draft } = (await created.json()) as { draft: { id: number } };
    const date = nextWeekday(20);
    expect((await call(`/api/admin/newsletter/drafts/${draft.id}/schedule`, { cookie, body: { date, time: '10:00' } })).status).toBe(200);
    expect((await call('/api/admin/scheduler/start', { method: 'POST', cookie })).status).toBe(200);
    // An import whose people must confirm: the cron sends each their double opt-in e-mail.
    const { id: importId } = (await (await call('/api/admin/subscriber-imports', { cookie, body: { fileName: 'list.csv' } })).json()) as { id: number };
    await call('/api/admin/subscriber-imports/rows', { cookie, body: { importId, rows: [2, 3].map((line) => ({ line, email: `person${line}@example.com` })) } });
    await call(`/api/admin/subscriber-imports/${importId}/confirm`, { cookie, body: { consent: 'confirm', consentConfirmed: true } });
    await call(`/api/admin/subscriber-imports/${importId}/run`, { method: 'POST', cookie });
    await clear();

    await cronTick(zonedInstant(date, 10 * 60, firm.timeZone).getTime());
    // The scheduler's slot: the first Monday at 9:30 in the firm's zone, of the month after the draft's.
    const [year, month] = addCalendarDays(date, 31).split('-').map(Number);
    const firstWeekday = new Date(Date.UTC(year, month - 1, 1)).getUTCDay();
    const firstMonday = `${year}-${String(month).padStart(2, '0')}-${String(1 + ((1 - firstWeekday + 7) % 7)).padStart(2, '0')}`;
    await cronTick(zonedInstant(firstMonday, 9 * 60 + 30, firm.timeZone).getTime());
    const issue = (await env.DB.prepare('SELECT id FROM sent_newsletters WHERE period_key IS NOT NULL').first<{ id: number }>())!.id;
    const rows = (await env.DB.prepare('SELECT actor, actor_id, action, record, network, count FROM audit_log ORDER BY id').all()).results;
    expect(rows).toEqual([
      { actor: 'system', actor_id: null, action: 'subscriber.import-confirmations-sent', record: `subscriber-import:${importId}`, network: null, count: 2 },
      { actor: 'system', actor_id: null, action: 'newsletter.scheduled-send', record: `newsletter-draft:${draft.id}`, network: null, count: 1 },
      { actor: 'system', actor_id: null, action: 'newsletter.scheduler-send', record: `newsletter:${issue}`, network: null, count: 1 },
    ]);
  });
});

describe('GET /api/admin/audit', () => {
  it('lists the newest first, filtered by actor, action and firm days, and exports the same as CSV', async () => {
    const cookie = await signIn();
    const insert = (actor: string, action: string, at: number) =>
      env.DB.prepare("INSERT INTO audit_log (actor, action, record, network, at) VALUES (?, ?, 'appointment:1', '192.0.2.1', ?)").bind(actor, action, at).run();
    await clear();
    await insert('alice', 'appointment.confirm', Date.parse('2026-03-02T15:00:00Z'));
    await insert('bob', 'appointment.cancel', Date.parse('2026-03-03T15:00:00Z'));
    await insert('alice', 'appointment.cancel', Date.parse('2026-03-04T03:00:00Z')); // 3 March, 10 PM in Warrendale
    const list = async (query: Record<string, string>) => {
      const res = await client({ cookie }).api.admin.audit.$get({ query });
      expect(res.status).toBe(200);
      return ((await res.json()) as { entries: { actor: string; action: string }[] }).entries.map((e) => `${e.actor} ${e.action}`);
    };
    expect(await list({})).toEqual(['alice appointment.cancel', 'bob appointment.cancel', 'alice appointment.confirm']);
    expect(await list({ actor: 'alice' })).toEqual(['alice appointment.cancel', 'alice appointment.confirm']);
    expect(await list({ action: 'appointment.cancel' })).toEqual(['alice appointment.cancel', 'bob appointment.cancel']);
    expect(await list({ from: '2026-03-03', to: '2026-03-03' })).toEqual(['alice appointment.cancel', 'bob appointment.cancel']);

    const bad = await call('/api/admin/audit?action=nonsense&from=2026-03-05&to=2026-03-01', { cookie });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { fields: Record<string, string[]> }).fields).toMatchObject({ action: ['Unknown action'] });

    const csv = await call('/api/admin/audit/export?actor=alice', { cookie });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    expect(await csv.text()).toBe(
      [
        AUDIT_CSV_COLUMNS.map((c) => `"${c}"`).join(','),
        '"2026-03-04T03:00:00.000Z","alice","","appointment.cancel","appointment:1","success","192.0.2.1","1"',
        '"2026-03-02T15:00:00.000Z","alice","","appointment.confirm","appointment:1","success","192.0.2.1","1"',
        '',
      ].join('\r\n'),
    );
    expect((await call('/api/admin/audit')).status).toBe(401);
    expect((await call('/api/admin/audit/export')).status).toBe(401);
  });

  it('writes the export through the shared CSV writer: a formula is neutralised wherever a spreadsheet could start a cell', async () => {
    const cookie = await signIn();
    await clear();
    // A failed sign-in once kept the name typed: such text is what reaches the export.
    for (const actor of ['x;=1+2', '=cmd', '+1', '-1', '@SUM(A1)', '\t=1', '\r=1', 'a, =HYPERLINK("x")']) {
      await env.DB.prepare("INSERT INTO audit_log (actor, action, at) VALUES (?, 'auth.sign-in', ?)").bind(actor, Date.parse('2026-03-02T15:00:00Z')).run();
    }
    const text = await (await call('/api/admin/audit/export', { cookie })).text();
    const actorsCells = text.split('\r\n').slice(1, -1).map((line) => line.split('","')[1]);
    expect(actorsCells).toEqual(['a,\' =HYPERLINK(""x"")', "'\r=1", "'\t=1", "'@SUM(A1)", "'-1", "'+1", "'=cmd", "x;'=1+2"]);
  });

  it('has no route that changes an entry: only GET answers under /api/admin/audit', async () => {
    const routes = adminApi.routes.filter((r) => r.path.startsWith('/audit'));
    expect(routes.length).toBeGreaterThan(0);
    expect(new Set(routes.filter((r) => r.method !== 'ALL').map((r) => r.method))).toEqual(new Set(['GET']));
    // Nor anywhere else: no handler writes the table but by inserting (the cron's purge aside).
    const cookie = await signIn();
    const id = (await env.DB.prepare('SELECT id FROM audit_log ORDER BY id DESC LIMIT 1').first<{ id: number }>())!.id;
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      for (const path of ['/api/admin/audit', `/api/admin/audit/${id}`]) expect((await call(path, { method, cookie, body: {} })).status, `${method} ${path}`).toBe(404);
    }
    expect(await env.DB.prepare('SELECT count(*) AS n FROM audit_log WHERE id = ?').bind(id).first('n')).toBe(1);
  });
});

describe('retention', () => {
  it(`the cron deletes entries older than ${AUDIT_RETENTION_DAYS} days and keeps the rest`, async () => {
    const now = Date.now();
    await env.DB.prepare("INSERT INTO audit_log (actor, action, at) VALUES ('old', 'auth.sign-in', ?), ('kept', 'auth.sign-in', ?)")
      .bind(now - (AUDIT_RETENTION_DAYS + 1) * DAY, now - (AUDIT_RETENTION_DAYS - 1) * DAY)
      .run();
    await cronTick(now);
    expect((await entries()).map((e) => e.actor)).toEqual(['kept']);
  });
});
