import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { totpCode } from '../../worker/services/admin-auth/totp';
import { ACCOUNT_PASSWORD, accountSignedIn } from '../harness/worker/admin-accounts-helpers';
import { ADMIN, call, client, okJson, sessionCookieFrom, signIn } from '../harness/worker/helpers';
import { fakeMailbox, MAILBOX_ENV } from '../harness/worker/mailbox-fake';

// Staff accounts (docs/product.md §6.8): invitations, roles, deactivation, the last-owner rule,
// two-factor by policy and the sessions list.

/**
 * Invites `email` as the owner, with the e-mail delivered to the mailbox (the e-mail log keeps no
 * token: tests/harness/worker/mailbox-fake.ts), and returns the token of its link.
 */
async function invite(owner: string, email: string, role: 'owner' | 'staff' = 'staff') {
  const mailbox = fakeMailbox();
  const res = await client({ cookie: owner, env: MAILBOX_ENV }).api.admin.users.invitations.$post({ json: { name: 'Sam Staff', email, role, canSendNewsletters: false } });
  expect(res.status).toBe(201);
  const token = mailbox.latest(email.toLowerCase(), 'admin-invitation').text.match(/accept-invitation\?token=([A-Za-z0-9_-]+)/)?.[1];
  if (!token) throw new Error(`no invitation link to ${email}`);
  return token;
}

const accept = (token: string, username = 'sam.staff', password = ACCOUNT_PASSWORD) =>
  client().api.admin.invitations.accept.$post({ json: { token, username, password } });

/** The answer is this refusal: its status and its message. */
async function expectRefused(res: { status: number; json(): Promise<unknown> }, status: number, message: string) {
  expect(res.status).toBe(status);
  expect(await res.json()).toMatchObject({ message });
}

const accountCount = async () => (await env.DB.prepare('SELECT count(*) AS n FROM admin_users').first<{ n: number }>())!.n;

describe('invitations', () => {
  it('e-mails a single-use link; accepting it creates a staff account that signs in with the chosen username', async () => {
    const owner = await signIn();
    const token = await invite(owner, 'Sam@Example.com');
    const check = await client().api.admin.invitations.check.$post({ json: { token } });
    expect(await check.json()).toEqual({ name: 'Sam Staff', email: 'sam@example.com', role: 'staff', twoFactorRequired: false });

    const accepted = await accept(token);
    expect(accepted.status).toBe(201);
    const signedIn = await client().api.admin.login.$post({ json: { username: 'sam.staff', password: ACCOUNT_PASSWORD } });
    expect(await signedIn.json()).toMatchObject({ authenticated: true, username: 'sam.staff', name: 'Sam Staff', role: 'staff' });

    // Reused: refused, and no second account.
    await expectRefused(await accept(token, 'someone.else'), 409, 'This invitation has already been used. Sign in with the username you chose.');
    expect(await accountCount()).toBe(2);
  });

  it('refuses a wrong token (404), an expired one (410) and a taken username (409, the link still works)', async () => {
    const owner = await signIn();
    await expectRefused(await accept('not-a-real-token-at-all'), 404, 'This invitation link is not valid. Ask the firm’s owner for a new invitation.');

    const token = await invite(owner, 'late@example.com');
    const taken = await accept(token, ADMIN.username);
    expect(taken.status).toBe(409);
    expect(await taken.json()).toMatchObject({ fields: { username: ['This username is taken. Choose another.'] } });

    await env.DB.prepare('UPDATE admin_invitations SET expires_at = ?1').bind(Date.now() - 1000).run();
    await expectRefused(await accept(token, 'late.comer'), 410, 'This invitation has expired. Ask the firm’s owner for a new invitation.');
    expect(await accountCount()).toBe(1);
  });

  it('holds the password rules and refuses inviting an address that already has an account', async () => {
    const owner = await signIn();
    const token = await invite(owner, 'short@example.com');
    const short = await accept(token, 'short.pass', 'elevenchars');
    expect(short.status).toBe(400);
    expect(await short.json()).toMatchObject({ fields: { password: ['Password must be at least 12 characters'] } });
    await accountSignedIn('existing', 'staff', { email: 'existing@example.com' });
    const dup = await client({ cookie: owner }).api.admin.users.invitations.$post({ json: { name: 'Dup', email: 'existing@example.com', role: 'staff', canSendNewsletters: false } });
    expect(dup.status).toBe(409);
  });
});

describe('roles, deactivation and the last owner', () => {
  it('ends every session of a deactivated account at once, and it cannot sign in again', async () => {
    const owner = await signIn();
    const staff = await accountSignedIn('dana', 'staff');
    const second = await signIn({ username: 'dana', password: ACCOUNT_PASSWORD }, '198.51.100.9');
    expect((await call('/api/admin/contact-messages', { cookie: staff.cookie })).status).toBe(200);

    const res = await call(`/api/admin/users/${staff.id}/deactivate`, { method: 'POST', cookie: owner });
    expect(res.status).toBe(200);
    for (const cookie of [staff.cookie, second]) expect((await call('/api/admin/contact-messages', { cookie })).status).toBe(401);
    const again = await client().api.admin.login.$post({ json: { username: 'dana', password: ACCOUNT_PASSWORD } });
    expect(again.status).toBe(403);
    expect(await again.json()).toEqual({ message: 'This account has been deactivated. Ask the firm’s owner if you need access again.' });

    expect((await call(`/api/admin/users/${staff.id}/reactivate`, { method: 'POST', cookie: owner })).status).toBe(200);
    expect((await client().api.admin.login.$post({ json: { username: 'dana', password: ACCOUNT_PASSWORD } })).status).toBe(200);
  });

  it('never removes or demotes the last active owner, and allows it once another owner exists', async () => {
    const owner = await signIn();
    const ownerId = (await env.DB.prepare('SELECT id FROM admin_users WHERE username = ?1').bind(ADMIN.username).first<{ id: number }>())!.id;
    const demote = await call(`/api/admin/users/${ownerId}`, { method: 'PATCH', body: { role: 'staff' }, cookie: owner });
    expect(demote.status).toBe(409);
    expect(await demote.json()).toEqual({ message: 'This is the last active owner: make another account an owner first.' });
    expect((await call(`/api/admin/users/${ownerId}/deactivate`, { method: 'POST', cookie: owner })).status).toBe(409);

    // A deactivated owner does not count: still the last active one.
    const other = await accountSignedIn('olive', 'owner');
    expect((await call(`/api/admin/users/${other.id}/deactivate`, { method: 'POST', cookie: owner })).status).toBe(200);
    expect((await call(`/api/admin/users/${ownerId}`, { method: 'PATCH', body: { role: 'staff' }, cookie: owner })).status).toBe(409);

    const staff = await accountSignedIn('sol', 'staff');
    expect((await call(`/api/admin/users/${staff.id}`, { method: 'PATCH', body: { role: 'owner' }, cookie: owner })).status).toBe(200);
    // Both demotions at once: exactly one passes.
    const both = await Promise.all([
      call(`/api/admin/users/${ownerId}`, { method: 'PATCH', body: { role: 'staff' }, cookie: owner }),
      call(`/api/admin/users/${staff.id}`, { method: 'PATCH', body: { role: 'staff' }, cookie: owner }),
    ]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    expect((await env.DB.prepare("SELECT count(*) AS n FROM admin_users WHERE role = 'owner' AND status = 'active'").first<{ n: number }>())!.n).toBe(1);
  });

  it('lets the owner change a staff member’s newsletter permission, which opens sending to them', async () => {
    const owner = await signIn();
    const staff = await accountSignedIn('nell', 'staff');
    const before = await call('/api/admin/send-newsletter', { body: {}, cookie: staff.cookie });
    expect(before.status).toBe(403);
    expect((await call(`/api/admin/users/${staff.id}`, { method: 'PATCH', body: { canSendNewsletters: true }, cookie: owner })).status).toBe(200);
    expect((await call('/api/admin/send-newsletter', { body: {}, cookie: staff.cookie })).status).toBe(400);
    const nothing = await call(`/api/admin/users/${staff.id}`, { method: 'PATCH', body: {}, cookie: owner });
    expect(nothing.status).toBe(400);
    expect((await call('/api/admin/users/424242', { method: 'PATCH', body: { role: 'owner' }, cookie: owner })).status).toBe(404);
  });
});

describe('two-factor by policy', () => {
  it('sends an account without a second factor to enrolment: nothing else until it is on', async () => {
    const owner = await signIn();
    const saved = await call('/api/admin/security-settings', { method: 'PUT', body: { requireTwoFactor: true }, cookie: owner });
    expect(saved.status).toBe(200);

    const login = await client().api.admin.login.$post({ json: { username: 'rory', password: ACCOUNT_PASSWORD } });
    expect(login.status).toBe(401); // no such account yet
    const staff = await accountSignedIn('rory', 'staff');
    const session = await (await call('/api/admin/session', { cookie: staff.cookie })).json();
    expect(session).toMatchObject({ authenticated: true, mustEnrolTwoFactor: true });
    // The panel's status says the policy too, so it never calls the second factor optional then.
    expect(await (await call('/api/admin/two-factor', { cookie: staff.cookie })).json()).toEqual({ enabled: false, required: true });
    const blocked = await call('/api/admin/contact-messages', { cookie: staff.cookie });
    expect(blocked.status).toBe(403);
    expect(await blocked.json()).toEqual({ message: 'Set up two-factor sign-in to continue: the firm requires it for every account.', twoFactorEnrolmentRequired: true });

    const setup = await call('/api/admin/two-factor/setup', { body: { password: ACCOUNT_PASSWORD }, cookie: staff.cookie });
    expect(setup.status).toBe(200);
    const { secret } = await setup.json<{ secret: string }>();
    const enabled = await call('/api/admin/two-factor/enable', { body: { password: ACCOUNT_PASSWORD, code: await totpCode(secret, Date.now()) }, cookie: staff.cookie });
    expect(enabled.status).toBe(200);
    const renewed = sessionCookieFrom(enabled);
    expect((await call('/api/admin/contact-messages', { cookie: renewed })).status).toBe(200);
    expect(await (await call('/api/admin/session', { cookie: renewed })).json()).toMatchObject({ mustEnrolTwoFactor: false });
  });

  it('is the owner’s setting only', async () => {
    const staff = await accountSignedIn('rhea', 'staff');
    expect((await call('/api/admin/security-settings', { method: 'PUT', body: { requireTwoFactor: true }, cookie: staff.cookie })).status).toBe(403);
    const bad = await call('/api/admin/security-settings', { method: 'PUT', body: { requireTwoFactor: 'yes' }, cookie: await signIn() });
    expect(bad.status).toBe(400);
  });
});

describe('sessions', () => {
  it('lists an account’s sessions (from where, since when) and signs out of any one of them', async () => {
    const owner = await signIn();
    const staff = await accountSignedIn('skye', 'staff');
    const phone = await client({ headers: { 'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1' } })
      .api.admin.login.$post({ json: { username: 'skye', password: ACCOUNT_PASSWORD } });
    const phoneCookie = sessionCookieFrom(phone);

    const listed = await client({ cookie: owner }).api.admin.users[':id'].sessions.$get({ param: { id: String(staff.id) } });
    const sessions = await okJson(listed);
    expect(sessions).toHaveLength(2);
    expect(sessions[0]).toMatchObject({ device: 'Safari on iPhone', current: false });
    expect(Date.parse(sessions[0].createdAt)).toBeGreaterThan(Date.now() - 60_000);

    const ended = await call(`/api/admin/users/${staff.id}/sessions/${sessions[0].id}`, { method: 'DELETE', cookie: owner });
    expect(ended.status).toBe(200);
    expect((await call('/api/admin/contact-messages', { cookie: phoneCookie })).status).toBe(401);
    expect((await call('/api/admin/contact-messages', { cookie: staff.cookie })).status).toBe(200);
    expect((await call(`/api/admin/users/${staff.id}/sessions/${sessions[0].id}`, { method: 'DELETE', cookie: owner })).status).toBe(404);

    // Staff see and end their own sessions, not others'.
    const own = await okJson(await client({ cookie: staff.cookie }).api.admin.account.sessions.$get());
    expect(own).toHaveLength(1);
    expect(own[0].current).toBe(true);
    const ownerSessions = await okJson(await client({ cookie: owner }).api.admin.account.sessions.$get());
    expect((await call(`/api/admin/account/sessions/${ownerSessions[0].id}`, { method: 'DELETE', cookie: staff.cookie })).status).toBe(404);
  });
});
