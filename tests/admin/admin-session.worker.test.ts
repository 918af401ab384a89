import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { SignJWT } from 'jose';
import { afterEach, describe, expect, it, vi } from 'vitest';
import worker from '../../worker/index';
import { ADMIN, call, client, fieldMessages, ORIGIN, sessionCookieFrom, signIn } from '../harness/worker/helpers';

const secret = new TextEncoder().encode(env.JWT_SECRET);

function base64url(value: unknown): string {
  return btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
}

async function adminId(): Promise<number> {
  await signIn();
  const row = await env.DB.prepare('select id from admin_users where username = ?').bind(ADMIN.username).first<{ id: number }>();
  return row!.id;
}

/** The session check's answer for the seeded administrator, the first owner (docs/product.md §6.8). */
// The first owner is created from ADMIN_USERNAME with no e-mail: the panel asks for a name and one (needsProfile).
const SIGNED_IN_AS_ADMIN = { authenticated: true, username: ADMIN.username, name: ADMIN.username, email: null, role: 'owner', canSendNewsletters: false, mustEnrolTwoFactor: false, needsProfile: true };

describe('admin sign-in', () => {
  it('creates the first admin from the secrets and sets an HttpOnly SameSite=Strict cookie', async () => {
    const res = await client().api.admin.login.$post({ json: ADMIN });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(SIGNED_IN_AS_ADMIN);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('admin_session='))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Strict/i);
    expect(cookie).toMatch(/Max-Age=28800/);
    const row = await env.DB.prepare('select password_hash from admin_users where username = ?').bind(ADMIN.username).first<{ password_hash: string }>();
    expect(row!.password_hash).toMatch(/^pbkdf2-sha256\$100000\$/);
    expect(row!.password_hash).not.toContain(ADMIN.password);
  });

  it('uses the __Host- prefix and Secure over HTTPS', async () => {
    const { exports } = await import('cloudflare:workers');
    const res = await exports.default.fetch(
      new Request('https://example.com/api/admin/login', {
        method: 'POST',
        headers: { origin: 'https://example.com', 'content-type': 'application/json' },
        body: JSON.stringify(ADMIN),
      }),
    );
    expect(res.status).toBe(200);
    const cookie = res.headers.getSetCookie()[0];
    expect(cookie).toMatch(/^__Host-admin_session=/);
    expect(cookie).toMatch(/Secure/);
    expect(cookie).toMatch(/Path=\//);
  });

  it('answers the session check with the username while signed in, and false without a cookie', async () => {
    const cookie = await signIn();
    const signedIn = await client({ cookie }).api.admin.session.$get();
    expect(await signedIn.json()).toEqual(SIGNED_IN_AS_ADMIN);
    const anonymous = await client().api.admin.session.$get();
    expect(anonymous.status).toBe(200);
    expect(await anonymous.json()).toEqual({ authenticated: false });
  });

  it('refuses a wrong password and an unknown user with the same 401 message', async () => {
    const wrong = await client().api.admin.login.$post({ json: { username: ADMIN.username, password: 'not-the-password' } });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({ message: 'Invalid username or password' });
    const unknown = await client().api.admin.login.$post({ json: { username: 'nobody', password: 'whatever123' } });
    expect(unknown.status).toBe(401);
    expect(await unknown.json()).toEqual({ message: 'Invalid username or password' });
    expect(wrong.headers.getSetCookie()).toEqual([]);
  });

  it('answers 400 with field messages for a missing field', async () => {
    // Raw call: the body is malformed on purpose, which the typed client would not compile.
    const res = await call('/api/admin/login', { body: { username: 'admin' } });
    expect(res.status).toBe(400);
    const body = await res.json<{ fields: Record<string, string[]> }>();
    expect(Object.keys(body.fields)).toEqual(['password']);
  });

  it('locks a username on one network after 5 failures within 15 minutes, even with the right password', async () => {
    const ip = '198.51.100.1';
    for (let i = 0; i < 5; i++) {
      const res = await client({ ip }).api.admin.login.$post({ json: { username: ADMIN.username, password: `wrong-${i}-pass` } });
      expect(res.status).toBe(401);
    }
    const locked = await client({ ip }).api.admin.login.$post({ json: ADMIN });
    expect(locked.status).toBe(429);
    expect(((await locked.json()) as { message: string }).message).toMatch(/Too many failed sign-in attempts/);
    // Per (username, network): another network signs in (tests/admin/login-hardening.worker.test.ts).
    expect((await client({ ip: '198.51.100.99' }).api.admin.login.$post({ json: ADMIN })).status).toBe(200);
  });

  it('unlocks once the window has passed', async () => {
    const ip = '192.0.2.44';
    for (let i = 0; i < 5; i++) {
      await client({ ip }).api.admin.login.$post({ json: { username: ADMIN.username, password: `wrong-${i}-pass` } });
    }
    expect((await client({ ip }).api.admin.login.$post({ json: ADMIN })).status).toBe(429);
    // Age the attempts past the 15-minute window.
    await env.DB.prepare('update login_attempts set window_start = window_start - 16 * 60 * 1000').run();
    expect((await client({ ip }).api.admin.login.$post({ json: ADMIN })).status).toBe(200);
  });
});

describe('admin session tokens', () => {
  it('rejects alg none, a wrong key, an expired token and a tampered payload', async () => {
    const id = await adminId();
    const claims = { sub: String(id), username: ADMIN.username, sv: 0, iss: 'warrendale-cpa', aud: 'warrendale-cpa-admin' };
    const now = Math.floor(Date.now() / 1000);
    const algNone = `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url({ ...claims, iat: now, exp: now + 3600 })}.`;
    const wrongKey = await new SignJWT({ username: ADMIN.username, sv: 0 })
      .setProtectedHeader({ alg: 'HS256' }).setSubject(String(id)).setIssuer('warrendale-cpa')
      .setAudience('warrendale-cpa-admin').setExpirationTime('1h').sign(new TextEncoder().encode('another-secret-another-secret-12345'));
    const expired = await new SignJWT({ username: ADMIN.username, sv: 0 })
      .setProtectedHeader({ alg: 'HS256' }).setSubject(String(id)).setIssuer('warrendale-cpa')
      .setAudience('warrendale-cpa-admin').setIssuedAt(now - 9 * 3600).setExpirationTime(now - 3600).sign(secret);
    const wrongAudience = await new SignJWT({ username: ADMIN.username, sv: 0 })
      .setProtectedHeader({ alg: 'HS256' }).setSubject(String(id)).setIssuer('warrendale-cpa')
      .setAudience('someone-else').setExpirationTime('1h').sign(secret);
    const good = await new SignJWT({ username: ADMIN.username, sv: 0 })
      .setProtectedHeader({ alg: 'HS256' }).setSubject(String(id)).setIssuer('warrendale-cpa')
      .setAudience('warrendale-cpa-admin').setJti('a-token-id').setExpirationTime('1h').sign(secret);
    // Well formed but without an id: sign-out could not revoke it, so it is refused.
    const withoutId = await new SignJWT({ username: ADMIN.username, sv: 0 })
      .setProtectedHeader({ alg: 'HS256' }).setSubject(String(id)).setIssuer('warrendale-cpa')
      .setAudience('warrendale-cpa-admin').setExpirationTime('1h').sign(secret);
    const [h, p, s] = good.split('.');
    const tampered = `${h}.${base64url({ ...JSON.parse(atob(p.replace(/-/g, '+').replace(/_/g, '/'))), sub: String(id + 1) })}.${s}`;

    for (const token of [algNone, wrongKey, expired, wrongAudience, tampered, withoutId, 'garbage']) {
      const res = await client({ cookie: `admin_session=${token}` }).api.admin['contact-messages'].$get();
      expect(res.status).toBe(401);
      const session = await client({ cookie: `admin_session=${token}` }).api.admin.session.$get();
      expect(await session.json()).toEqual({ authenticated: false });
    }
    // The well-formed token with our key is refused until its id names a session (sign-in writes
    // that row), then accepted: the checks above are not vacuous.
    expect(await (await client({ cookie: `admin_session=${good}` }).api.admin.session.$get()).json()).toEqual({ authenticated: false });
    await env.DB.prepare("INSERT INTO admin_sessions (id, admin_user_id, device, expires_at) VALUES ('a-token-id', ?1, 'Chrome', ?2)").bind(id, Date.now() + 3600_000).run();
    expect(await (await client({ cookie: `admin_session=${good}` }).api.admin.session.$get()).json()).toEqual(SIGNED_IN_AS_ADMIN);
  });

  it('logout clears the cookie and revokes the token (tests/admin/login-hardening.worker.test.ts)', async () => {
    const cookie = await signIn();
    const res = await client({ cookie }).api.admin.logout.$post();
    expect(res.status).toBe(200);
    const cleared = res.headers.getSetCookie().find((c) => c.startsWith('admin_session='))!;
    expect(cleared).toMatch(/Max-Age=0/);
    expect(await (await client({ cookie }).api.admin.session.$get()).json()).toEqual({ authenticated: false });
  });
});

describe('change password', () => {
  it('changes the password, keeps this session, ends every other one, and the new password signs in', async () => {
    const mine = await signIn();
    const other = await signIn(ADMIN, '203.0.113.200');
    const res = await client({ cookie: mine }).api.admin['change-password'].$post({ json: { currentPassword: ADMIN.password, newPassword: 'a-new-password-2026' } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: 'Password changed successfully' });
    const renewed = sessionCookieFrom(res);

    expect(await (await client({ cookie: other }).api.admin.session.$get()).json()).toEqual({ authenticated: false });
    expect(await (await client({ cookie: mine }).api.admin.session.$get()).json()).toEqual({ authenticated: false });
    expect(((await (await client({ cookie: renewed }).api.admin.session.$get()).json()) as { authenticated: boolean }).authenticated).toBe(true);

    expect((await client().api.admin.login.$post({ json: ADMIN })).status).toBe(401);
    expect((await client().api.admin.login.$post({ json: { username: ADMIN.username, password: 'a-new-password-2026' } })).status).toBe(200);
  });

  it('refuses a wrong current password and a new password under 12 characters', async () => {
    const cookie = await signIn();
    const wrong = await client({ cookie }).api.admin['change-password'].$post({ json: { currentPassword: 'nope-nope', newPassword: 'long-enough-1' } });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toEqual({ message: 'Current password is incorrect' });
    const short = await client({ cookie }).api.admin['change-password'].$post({ json: { currentPassword: ADMIN.password, newPassword: 'elevenchars' } });
    expect(short.status).toBe(400);
    expect((await fieldMessages(short)).newPassword).toEqual(['Password must be at least 12 characters']);
    expect((await client().api.admin.login.$post({ json: ADMIN })).status).toBe(200);
  });

  it('requires a session', async () => {
    const res = await client().api.admin['change-password'].$post({ json: { currentPassword: 'x', newPassword: 'yyyyyyyyyy' } });
    expect(res.status).toBe(401);
  });
});

describe('first administrator', () => {
  it('is not created by a failed sign-in with the configured username', async () => {
    const res = await client().api.admin.login.$post({ json: { username: ADMIN.username, password: 'not-the-secret' } });
    expect(res.status).toBe(401);
    const row = await env.DB.prepare('select count(*) as n from admin_users').first<{ n: number }>();
    expect(row!.n).toBe(0);
  });
});

describe('first administrator: no default or weak password can create it', () => {
  /** POST /api/admin/login through the worker's fetch, with the secrets of another deployment. */
  async function signInWith(secrets: Partial<typeof env>, credentials: { username: string; password: string }): Promise<Response> {
    const ctx = createExecutionContext();
    const res = await worker.fetch(
      new Request(`${ORIGIN}/api/admin/login`, {
        method: 'POST',
        headers: { origin: ORIGIN, 'content-type': 'application/json', 'cf-connecting-ip': '203.0.113.61' },
        body: JSON.stringify(credentials),
      }),
      { ...env, ...secrets },
      ctx,
    );
    await waitOnExecutionContext(ctx);
    return res;
  }

  const adminCount = async () => (await env.DB.prepare('select count(*) as n from admin_users').first<{ n: number }>())!.n;

  afterEach(() => {
    vi.restoreAllMocks();
  });

  it.each([
    { case: 'unset', secret: undefined, presented: 'any-password-at-all', reason: /ADMIN_PASSWORD is not set/ },
    { case: 'empty', secret: '', presented: 'any-password-at-all', reason: /ADMIN_PASSWORD is not set/ },
    { case: 'shorter than 12 characters', secret: 'elevenchars', presented: 'elevenchars', reason: /shorter than 12 characters/ },
    { case: 'the .dev.vars.example placeholder', secret: 'generated-by-npm-start', presented: 'generated-by-npm-start', reason: /placeholder/ },
    { case: 'a common password with digits added', secret: 'Password2026!', presented: 'Password2026!', reason: /one of the most common passwords/ },
  ])('refuses ADMIN_PASSWORD $case: 401 like any failed sign-in, no admin, the reason logged', async ({ secret, presented, reason }) => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const res = await signInWith({ ADMIN_PASSWORD: secret }, { username: ADMIN.username, password: presented });

    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ message: 'Invalid username or password' });
    expect(res.headers.getSetCookie()).toEqual([]);
    expect(await adminCount()).toBe(0);
    const logged = errors.mock.calls.map((args) => args.join(' ')).filter((line) => line.includes('First administrator not created'));
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatch(reason);
    if (secret) expect(logged[0]).not.toContain(secret);
  });

  it('creates the admin from a 12-character ADMIN_PASSWORD, the length `npm start` generates', async () => {
    const errors = vi.spyOn(console, 'error');
    const res = await signInWith({ ADMIN_PASSWORD: 'twelve-chars' }, { username: ADMIN.username, password: 'twelve-chars' });
    expect(res.status).toBe(200);
    expect(await adminCount()).toBe(1);
    expect(errors).not.toHaveBeenCalled();
  });

  it('keeps signing the admin in after ADMIN_PASSWORD is deleted, and never creates a second one', async () => {
    await signIn();
    const errors = vi.spyOn(console, 'error');
    expect((await signInWith({ ADMIN_PASSWORD: undefined }, ADMIN)).status).toBe(200);
    // Another username with the secrets of a fresh deployment: one admin exists, so nothing is created.
    const other = await signInWith({ ADMIN_USERNAME: 'second-admin', ADMIN_PASSWORD: 'another-strong-password' }, {
      username: 'second-admin',
      password: 'another-strong-password',
    });
    expect(other.status).toBe(401);
    expect(await adminCount()).toBe(1);
    expect(errors).not.toHaveBeenCalled();
  });
});
