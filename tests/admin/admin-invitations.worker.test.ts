import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { OWNER_DAILY_LINKS } from '../../worker/services/admin-auth/invitations';
import { totpCode } from '../../worker/services/admin-auth/totp';
import { ACCOUNT_PASSWORD, accountSignedIn, emailedLinkToken } from '../harness/worker/admin-accounts-helpers';
import { ADMIN, call as callWorker, client, okJson, sessionCookieFrom, signIn } from '../harness/worker/helpers';
import { fakeMailbox, MAILBOX_ENV } from '../harness/worker/mailbox-fake';

// Invitations under the owner's control (docs/product.md §6.8, issue 48): the pending ones listed,
// withdrawn and resent; withdrawn with their inviter; accepted only while the inviter is an active
// owner; a daily cap per owner; names that are names; the invitee's second factor enrolled on the
// acceptance page; password-reset links; usernames one whatever their case.

const NEW_PASSWORD = 'a-brand-new-passphrase-9';

// The e-mail log keeps no link's token: every request here delivers its e-mails to the local
// mailbox, where emailedLinkToken reads the links (tests/harness/worker/mailbox-fake.ts).
beforeEach(() => {
  fakeMailbox();
});
const call = (path: string, options: Parameters<typeof callWorker>[1] = {}) => callWorker(path, { ...options, env: MAILBOX_ENV });

async function invite(owner: string, email: string, options: { role?: 'owner' | 'staff'; name?: string } = {}) {
  const res = await call('/api/admin/users/invitations', { body: { name: options.name ?? 'Sam Staff', email, role: options.role ?? 'staff', canSendNewsletters: false }, cookie: owner });
  expect(res.status).toBe(201);
  return emailedLinkToken(email, 'admin-invitation');
}

const accept = (token: string, username = 'sam.staff', extra: { code?: string; password?: string } = {}) =>
  call('/api/admin/invitations/accept', { body: { token, username, password: extra.password ?? ACCOUNT_PASSWORD, ...(extra.code ? { code: extra.code } : {}) } });

type Listed = { invitations: { id: number; name: string; email: string; role: string; invitedBy: string; expiresAt: string }[] };
const pending = async (owner: string) => (await (await call('/api/admin/users', { cookie: owner })).json<Listed>()).invitations;

const accountCount = async () => (await env.DB.prepare('SELECT count(*) AS n FROM admin_users').first<{ n: number }>())!.n;
const auditActions = async () => (await env.DB.prepare('SELECT action, record FROM audit_log ORDER BY id').all<{ action: string; record: string | null }>()).results;

const WITHDRAWN = 'This invitation has been withdrawn. Ask the firm’s owner for a new invitation.';

describe('pending invitations', () => {
  it('lists each pending invitation (to whom, role, by whom, until) and withdraws it: its link then answers 410', async () => {
    const owner = await signIn();
    const token = await invite(owner, 'pat@example.com', { role: 'owner', name: 'Pat Partner' });
    const [listed] = await pending(owner);
    expect(listed).toMatchObject({ name: 'Pat Partner', email: 'pat@example.com', role: 'owner', invitedBy: 'admin' });
    expect(Date.parse(listed.expiresAt)).toBeGreaterThan(Date.now() + 71 * 3600_000);

    const revoked = await call(`/api/admin/users/invitations/${listed.id}/revoke`, { method: 'POST', cookie: owner });
    expect(revoked.status).toBe(200);
    expect(await pending(owner)).toEqual([]);
    const check = await call('/api/admin/invitations/check', { body: { token } });
    expect(check.status).toBe(410);
    const late = await accept(token, 'pat');
    expect(late.status).toBe(410);
    expect(await late.json()).toMatchObject({ message: WITHDRAWN });
    expect(await accountCount()).toBe(1);
    expect((await call(`/api/admin/users/invitations/${listed.id}/revoke`, { method: 'POST', cookie: owner })).status).toBe(404);
    expect(await auditActions()).toContainEqual({ action: 'user.invitation-revoke', record: `invitation:${listed.id}` });
  });

  it('resends with a new link: the old one stops working, the new one creates the account', async () => {
    const owner = await signIn();
    const first = await invite(owner, 'rene@example.com');
    const [{ id }] = await pending(owner);
    const resent = await call(`/api/admin/users/invitations/${id}/resend`, { method: 'POST', cookie: owner });
    expect(resent.status).toBe(200);
    const second = await emailedLinkToken('rene@example.com', 'admin-invitation');
    expect(second).not.toBe(first);
    expect((await accept(first, 'rene')).status).toBe(404);
    expect((await accept(second, 'rene')).status).toBe(201);
    expect(await pending(owner)).toEqual([]);
    expect((await call(`/api/admin/users/invitations/${id}/resend`, { method: 'POST', cookie: owner })).status).toBe(404);
    expect(await auditActions()).toContainEqual({ action: 'user.invitation-resend', record: `invitation:${id}` });
  });

  it('is the owner’s only: staff can neither withdraw nor resend', async () => {
    const owner = await signIn();
    await invite(owner, 'quinn@example.com');
    const [{ id }] = await pending(owner);
    const staff = await accountSignedIn('stan', 'staff');
    for (const action of ['revoke', 'resend']) expect((await call(`/api/admin/users/invitations/${id}/${action}`, { method: 'POST', cookie: staff.cookie })).status).toBe(403);
    expect(await pending(owner)).toHaveLength(1);
  });

  it('withdraws an owner’s pending invitations when the owner is deactivated, in the same change', async () => {
    const owner = await signIn();
    const other = await accountSignedIn('olga', 'owner');
    const token = await invite(other.cookie, 'mallory@example.com', { role: 'owner' });
    expect((await call(`/api/admin/users/${other.id}/deactivate`, { method: 'POST', cookie: owner })).status).toBe(200);
    expect(await pending(owner)).toEqual([]);
    expect((await accept(token, 'mallory')).status).toBe(410);
    expect(await env.DB.prepare('SELECT count(*) AS n FROM admin_users WHERE username = ?1').bind('mallory').first<{ n: number }>()).toEqual({ n: 0 });
  });

  it('withdraws an owner’s pending invitations when the owner is demoted', async () => {
    const owner = await signIn();
    const other = await accountSignedIn('odin', 'owner');
    const token = await invite(other.cookie, 'eve@example.com');
    expect((await call(`/api/admin/users/${other.id}`, { method: 'PATCH', body: { role: 'staff' }, cookie: owner })).status).toBe(200);
    expect(await pending(owner)).toEqual([]);
    expect((await accept(token, 'eve')).status).toBe(410);
    // A change of the newsletter permission alone leaves them.
    const kept = await invite(owner, 'kept@example.com');
    expect((await call(`/api/admin/users/${other.id}`, { method: 'PATCH', body: { canSendNewsletters: true }, cookie: owner })).status).toBe(200);
    expect((await accept(kept, 'kept')).status).toBe(201);
  });

  it('accepts an owner invitation only while its inviter is an active owner, checked when it is accepted', async () => {
    const owner = await signIn();
    const other = await accountSignedIn('oona', 'owner');
    const token = await invite(other.cookie, 'heir@example.com', { role: 'owner' });
    // The inviter loses the role by a path that withdraws nothing (as a change racing the acceptance would).
    await env.DB.prepare("UPDATE admin_users SET role = 'staff' WHERE id = ?1").bind(other.id).run();
    const res = await accept(token, 'heir');
    expect(res.status).toBe(410);
    expect(await res.json()).toMatchObject({ message: WITHDRAWN });
    expect(await accountCount()).toBe(2);
    // Back to owner: the same link works again (it was never used).
    await env.DB.prepare("UPDATE admin_users SET role = 'owner' WHERE id = ?1").bind(other.id).run();
    expect((await accept(token, 'heir')).status).toBe(201);
    expect(await pending(owner)).toEqual([]);
  });

  it(`caps each owner at ${OWNER_DAILY_LINKS} e-mailed links a day, even all at once`, async () => {
    const owner = await signIn();
    const burst = await Promise.all(
      Array.from({ length: OWNER_DAILY_LINKS + 5 }, (_, i) =>
        call('/api/admin/users/invitations', { body: { name: `Person ${i}`, email: `p${i}@example.com`, role: 'staff', canSendNewsletters: false }, cookie: owner }),
      ),
    );
    const statuses = burst.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(OWNER_DAILY_LINKS);
    expect(statuses.filter((s) => s === 429)).toHaveLength(5);
    const refused = burst.find((r) => r.status === 429)!;
    expect(await refused.json()).toEqual({ message: `You have sent ${OWNER_DAILY_LINKS} invitations and password-reset links today, the most one owner may send in a day. Try again tomorrow.` });
    expect((await env.DB.prepare("SELECT count(*) AS n FROM email_log WHERE kind = 'admin-invitation'").first<{ n: number }>())!.n).toBe(OWNER_DAILY_LINKS);
    // Resending counts too; another owner has a day of their own.
    const [{ id }] = await pending(owner);
    expect((await call(`/api/admin/users/invitations/${id}/resend`, { method: 'POST', cookie: owner })).status).toBe(429);
    const other = await accountSignedIn('otto', 'owner');
    expect((await call(`/api/admin/users/invitations/${id}/resend`, { method: 'POST', cookie: other.cookie })).status).toBe(200);
  });

  it('refuses a name with a line break or another control character, with the field’s message', async () => {
    const owner = await signIn();
    for (const name of ['Sam\nStaff', 'Sam\r\nBcc: x@example.com', 'Sam\u0000', 'Sam\u202Eftats', 'Sam\u2028Staff', 'x'.repeat(101)]) {
      const res = await call('/api/admin/users/invitations', { body: { name, email: 'ctrl@example.com', role: 'staff', canSendNewsletters: false }, cookie: owner });
      expect(res.status, JSON.stringify(name)).toBe(400);
      const { fields } = await res.json<{ fields: Record<string, string[]> }>();
      // Line breaks and controls get the shared one-line message (core/schemas/fields.ts); a direction override the names' own.
      expect(fields.name[0]).toMatch(/^Name must (be a single line, without tabs or control characters|not contain line breaks, control characters or direction overrides|be at most 100 characters)$/);
    }
    expect(await pending(owner)).toEqual([]);
    // Names that are names pass, accents and all.
    await invite(owner, 'zoe@example.com', { name: 'Zoë Ñúñez-O’Brien' });
  });
});

describe('two-factor sign-in enrolled on the acceptance page', () => {
  const requireTwoFactor = async (owner: string) => expect((await call('/api/admin/security-settings', { method: 'PUT', body: { requireTwoFactor: true }, cookie: owner })).status).toBe(200);

  it('while the owner requires it, the account is created only with the authenticator the link’s holder enrolled', async () => {
    const owner = await signIn();
    const token = await invite(owner, 'tess@example.com');
    await requireTwoFactor(owner);
    const check = await call('/api/admin/invitations/check', { body: { token } });
    expect(await check.json()).toMatchObject({ twoFactorRequired: true });

    // No code: refused, and no account exists for a password holder to enrol their own authenticator later.
    const bare = await accept(token, 'tess');
    expect(bare.status).toBe(400);
    expect(await bare.json()).toMatchObject({ twoFactorRequired: true, fields: { code: ['Enter the 6-digit code from your authenticator app'] } });
    expect(await accountCount()).toBe(1);

    const setup = await call('/api/admin/invitations/two-factor', { body: { token } });
    expect(setup.status).toBe(200);
    const { secret, otpauthUri } = await setup.json<{ secret: string; otpauthUri: string }>();
    expect(otpauthUri).toContain(encodeURIComponent('tess@example.com'));
    const wrong = String((Number(await totpCode(secret, Date.now())) + 500_000) % 1_000_000).padStart(6, '0');
    expect((await accept(token, 'tess', { code: wrong })).status).toBe(400);

    const now = Date.now();
    const accepted = await accept(token, 'tess', { code: await totpCode(secret, now) });
    expect(accepted.status).toBe(201);
    const { recoveryCodes } = await accepted.json<{ recoveryCodes: string[] }>();
    expect(recoveryCodes).toHaveLength(10);

    // The password alone does not sign in; with a fresh code it does, and nothing is left to enrol.
    const passwordOnly = await call('/api/admin/login', { body: { username: 'tess', password: ACCOUNT_PASSWORD } });
    expect(passwordOnly.status).toBe(401);
    expect(await passwordOnly.json()).toMatchObject({ twoFactorRequired: true });
    const withCode = await call('/api/admin/login', { body: { username: 'tess', password: ACCOUNT_PASSWORD, code: recoveryCodes[0] } });
    expect(withCode.status).toBe(200);
    expect(await withCode.json()).toMatchObject({ mustEnrolTwoFactor: false });
    expect((await call('/api/admin/contact-messages', { cookie: sessionCookieFrom(withCode) })).status).toBe(200);
    expect((await call('/api/admin/two-factor/setup', { body: { password: ACCOUNT_PASSWORD }, cookie: sessionCookieFrom(withCode) })).status).toBe(409);
  });

  it('a second set-up replaces the first secret, and a resend forgets it', async () => {
    const owner = await signIn();
    const token = await invite(owner, 'uma@example.com');
    const [{ id }] = await pending(owner);
    // The owner's own second factor is not this test's matter: the policy is set straight in D1.
    await env.DB.prepare('INSERT INTO admin_security_settings (id, require_two_factor) VALUES (1, 1)').run();
    const first = await (await call('/api/admin/invitations/two-factor', { body: { token } })).json<{ secret: string }>();
    const second = await (await call('/api/admin/invitations/two-factor', { body: { token } })).json<{ secret: string }>();
    expect((await accept(token, 'uma', { code: await totpCode(first.secret, Date.now()) })).status).toBe(400);
    await env.DB.prepare('UPDATE admin_security_settings SET require_two_factor = 0').run();
    expect((await call(`/api/admin/users/invitations/${id}/resend`, { method: 'POST', cookie: owner })).status).toBe(200);
    await env.DB.prepare('UPDATE admin_security_settings SET require_two_factor = 1').run();
    const fresh = await emailedLinkToken('uma@example.com', 'admin-invitation');
    expect((await accept(fresh, 'uma', { code: await totpCode(second.secret, Date.now()) })).status).toBe(400);
    expect((await call('/api/admin/invitations/two-factor', { body: { token } })).status).toBe(404);
  });
});

describe('password-reset links', () => {
  it('e-mails the account a single-use link that sets a new password and ends its sessions', async () => {
    const owner = await signIn();
    const staff = await accountSignedIn('rita', 'staff', { email: 'rita@example.com' });
    const sent = await call(`/api/admin/users/${staff.id}/password-reset`, { method: 'POST', cookie: owner });
    expect(sent.status).toBe(200);
    const mail = await env.DB.prepare("SELECT text_body AS text FROM email_log WHERE kind = 'admin-password-reset'").first<{ text: string }>();
    expect(mail!.text).not.toContain(ACCOUNT_PASSWORD);
    const token = await emailedLinkToken('rita@example.com', 'admin-password-reset');

    expect(await (await call('/api/admin/password-resets/check', { body: { token } })).json()).toEqual({ username: 'rita', name: 'rita name' });
    // The current password keeps working until the link is used.
    expect((await call('/api/admin/contact-messages', { cookie: staff.cookie })).status).toBe(200);
    const weak = await call('/api/admin/password-resets/complete', { body: { token, password: 'short' } });
    expect(weak.status).toBe(400);

    const done = await call('/api/admin/password-resets/complete', { body: { token, password: NEW_PASSWORD } });
    expect(done.status).toBe(200);
    expect((await call('/api/admin/contact-messages', { cookie: staff.cookie })).status).toBe(401);
    expect((await call('/api/admin/login', { body: { username: 'rita', password: ACCOUNT_PASSWORD } })).status).toBe(401);
    expect((await call('/api/admin/login', { body: { username: 'rita', password: NEW_PASSWORD } })).status).toBe(200);

    const again = await call('/api/admin/password-resets/complete', { body: { token, password: 'another-long-passphrase' } });
    expect(again.status).toBe(409);
    expect((await call('/api/admin/login', { body: { username: 'rita', password: NEW_PASSWORD } })).status).toBe(200);
    expect(await auditActions()).toEqual(expect.arrayContaining([
      { action: 'user.password-reset-send', record: `admin-user:${staff.id}` },
      { action: 'auth.password-reset', record: `admin-user:${staff.id}` },
    ]));
  });

  it('expires, is replaced by a newer link, is refused for a deactivated account, and is the owner’s to send', async () => {
    const owner = await signIn();
    const staff = await accountSignedIn('remy', 'staff', { email: 'remy@example.com' });
    const send = () => call(`/api/admin/users/${staff.id}/password-reset`, { method: 'POST', cookie: owner });
    expect((await send()).status).toBe(200);
    const older = await emailedLinkToken('remy@example.com', 'admin-password-reset');
    expect((await send()).status).toBe(200);
    const newer = await emailedLinkToken('remy@example.com', 'admin-password-reset');
    expect((await call('/api/admin/password-resets/complete', { body: { token: older, password: NEW_PASSWORD } })).status).toBe(404);

    await env.DB.prepare('UPDATE admin_password_resets SET expires_at = ?1').bind(Date.now() - 1000).run();
    expect((await call('/api/admin/password-resets/complete', { body: { token: newer, password: NEW_PASSWORD } })).status).toBe(410);

    expect((await call(`/api/admin/users/${staff.id}/password-reset`, { method: 'POST', cookie: staff.cookie })).status).toBe(403);
    expect((await call(`/api/admin/users/${staff.id}/deactivate`, { method: 'POST', cookie: owner })).status).toBe(200);
    expect((await send()).status).toBe(409);
    expect((await call('/api/admin/users/424242/password-reset', { method: 'POST', cookie: owner })).status).toBe(404);
  });
});

describe('usernames without regard to case', () => {
  it('refuses a username that differs from a taken one only by case, and signs in with either case', async () => {
    const owner = await signIn();
    const token = await invite(owner, 'imposter@example.com');
    const taken = await accept(token, ADMIN.username.toUpperCase());
    expect(taken.status).toBe(409);
    expect(await taken.json()).toMatchObject({ fields: { username: ['This username is taken. Choose another.'] } });
    expect((await accept(token, 'Sam.Staff')).status).toBe(201);

    const upper = await client().api.admin.login.$post({ json: { username: 'SAM.STAFF', password: ACCOUNT_PASSWORD } });
    expect(await okJson(upper)).toMatchObject({ authenticated: true, username: 'Sam.Staff' });
    expect((await client().api.admin.login.$post({ json: { username: 'Admin', password: ADMIN.password } })).status).toBe(200);
    const direct = env.DB.prepare('INSERT INTO admin_users (username, password_hash) VALUES (?1, ?2)').bind('SAM.staff', 'x').run();
    await expect(direct).rejects.toThrow(/UNIQUE/);
  });

  it('the migration renames an account whose username differs from an older one only by case, on the record', async () => {
    const migration = env.TEST_MIGRATIONS.find((m) => m.name.includes('admin_invitations_control'));
    expect(migration, 'migrations/0021_admin_invitations_control.sql').toBeDefined();
    await env.DB.prepare('DROP INDEX admin_users_username_lower_uq').run();
    await env.DB.prepare("INSERT INTO admin_users (id, username, password_hash, role) VALUES (1, 'admin', 'x', 'owner'), (2, 'ADMIN', 'y', 'staff'), (3, 'other', 'z', 'staff')").run();
    // The migration's data statements and the index, run again over these rows.
    const from = migration!.queries.findIndex((q) => q.includes('INSERT INTO `audit_log`'));
    expect(from).toBeGreaterThan(0);
    await env.DB.batch(migration!.queries.slice(from).map((q) => env.DB.prepare(q)));
    const names = (await env.DB.prepare('SELECT id, username, password_hash FROM admin_users ORDER BY id').all()).results;
    expect(names).toEqual([
      { id: 1, username: 'admin', password_hash: 'x' },
      { id: 2, username: 'ADMIN-2', password_hash: 'y' },
      { id: 3, username: 'other', password_hash: 'z' },
    ]);
    expect(await auditActions()).toEqual([{ action: 'user.update', record: 'admin-user:2' }]);
  });
});
