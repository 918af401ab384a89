import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { PROFILE_PASSWORD_REQUIRED } from '#core/schemas/admin-accounts';
import { ACCOUNT_PASSWORD, accountSignedIn } from '../harness/worker/admin-accounts-helpers';
import { call, signIn } from '../harness/worker/helpers';

// "Tell us who you are" (docs/product.md §6.8, issue 49): the first owner, created from
// ADMIN_USERNAME, has no e-mail; the session says so, and the account saves its own name and e-mail.

const session = async (cookie: string) => (await call('/api/admin/session', { cookie })).json<Record<string, unknown>>();
const profile = (cookie: string, body: unknown) => call('/api/admin/account/profile', { method: 'PATCH', cookie, body });

describe('the signed-in account’s own name and e-mail', () => {
  it('asks the first owner for them, saves them (trimmed, e-mail in lower case) with an audit entry, and asks no more', async () => {
    const cookie = await signIn();
    expect(await session(cookie)).toMatchObject({ email: null, needsProfile: true });

    const saved = await profile(cookie, { name: '  Olivia Owner ', email: 'Olivia@Example.com' });
    expect(saved.status).toBe(200);
    expect(await saved.json()).toEqual({ name: 'Olivia Owner', email: 'olivia@example.com' });
    expect(await session(cookie)).toMatchObject({ name: 'Olivia Owner', email: 'olivia@example.com', needsProfile: false });
    const entry = await env.DB.prepare("SELECT actor, record FROM audit_log WHERE action = 'user.profile-update'").first<Record<string, string>>();
    expect(entry).toMatchObject({ actor: 'admin' });
    expect(entry!.record).toMatch(/^admin-user:\d+$/);
  });

  it('refuses what the invitation form refuses, with field messages, and changes nothing', async () => {
    const cookie = await signIn();
    const bad = await profile(cookie, { name: ' ', email: 'not an address' });
    expect(bad.status).toBe(400);
    const body = await bad.json<{ fields: Record<string, string[]> }>();
    expect(body.fields.name).toEqual(['Name is required']);
    expect(body.fields.email).toEqual(['Please enter a valid email address']);
    const long = await profile(cookie, { name: 'x'.repeat(101), email: `${'a'.repeat(250)}@example.com` });
    expect(long.status).toBe(400);
    expect((await long.json<{ fields: Record<string, string[]> }>()).fields).toMatchObject({ name: ['Name must be at most 100 characters'], email: ['Please enter a valid email address'] });
    expect((await profile(cookie, { name: 'Line\nbreak', email: 'ok@example.com' })).status).toBe(400);
    expect((await profile(cookie, {})).status).toBe(400);
    expect(await session(cookie)).toMatchObject({ email: null, needsProfile: true });
  });

  it('refuses an e-mail another account has (409 on the field), lets staff edit only their own, and needs a session', async () => {
    const owner = await signIn();
    const staff = await accountSignedIn('sam.staff', 'staff');
    const taken = await env.DB.prepare('SELECT email FROM admin_users WHERE id = ?').bind(staff.id).first<{ email: string }>();
    const clash = await profile(owner, { name: 'Olivia Owner', email: taken!.email.toUpperCase() });
    expect(clash.status).toBe(409);
    expect(await clash.json()).toEqual({ message: 'Another account already uses this e-mail address', fields: { email: ['Another account already uses this e-mail address'] } });

    // A staff account changes its own record, never the owner's (there is no id to name). Its name alone
    // needs nothing more; replacing its e-mail (where password resets go) takes its password too.
    expect((await profile(staff.cookie, { name: 'Sam Staff', email: taken!.email })).status).toBe(200);
    const noPassword = await profile(staff.cookie, { name: 'Sam Staff', email: 'sam.new@example.com' });
    expect(noPassword.status).toBe(400);
    expect(await noPassword.json()).toEqual({ message: PROFILE_PASSWORD_REQUIRED, fields: { currentPassword: [PROFILE_PASSWORD_REQUIRED] } });
    const wrong = await profile(staff.cookie, { name: 'Sam Staff', email: 'sam.new@example.com', currentPassword: 'not the password' });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toEqual({ message: 'Password is incorrect', fields: { currentPassword: ['Password is incorrect'] } });
    expect(await env.DB.prepare('SELECT email FROM admin_users WHERE id = ?').bind(staff.id).first()).toEqual({ email: taken!.email });
    expect((await profile(staff.cookie, { name: 'Sam Staff', email: 'sam.new@example.com', currentPassword: ACCOUNT_PASSWORD })).status).toBe(200);
    expect(await env.DB.prepare('SELECT name, email FROM admin_users WHERE id = ?').bind(staff.id).first()).toEqual({ name: 'Sam Staff', email: 'sam.new@example.com' });
    expect(await session(owner)).toMatchObject({ email: null });

    expect((await profile('', { name: 'Eve', email: 'eve@example.com' })).status).toBe(401);
  });
});
