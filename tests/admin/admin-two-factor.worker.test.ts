import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { totpCode } from '../../worker/services/admin-auth/totp';
import { ADMIN, call, client, fieldMessages, sessionCookieFrom, signIn } from '../harness/worker/helpers';

const TWO_FACTOR_REQUIRED = { message: 'Enter the 6-digit code from your authenticator app', twoFactorRequired: true };

/** The code an authenticator shows now, or `steps` 30-second steps later (the server accepts ±1). */
const codeAt = (secret: string, steps = 0) => totpCode(secret, Date.now() + steps * 30_000);

const login = (body: Record<string, string>, ip?: string) => client({ ip }).api.admin.login.$post({ json: { ...ADMIN, ...body } });

const password = ADMIN.password;

/**
 * Signs in, enrols an authenticator and turns the second factor on; the enable code's step is then
 * used. Turning it on re-issues this browser's cookie (the session version went up).
 */
async function enableTwoFactor() {
  const signedIn = await signIn();
  const setup = await client({ cookie: signedIn }).api.admin['two-factor'].setup.$post({ json: { password } });
  expect(setup.status).toBe(200);
  const { secret, otpauthUri } = (await setup.json()) as { secret: string; otpauthUri: string };
  const enable = await client({ cookie: signedIn }).api.admin['two-factor'].enable.$post({ json: { password, code: await codeAt(secret) } });
  expect(enable.status).toBe(200);
  const { recoveryCodes } = (await enable.json()) as { recoveryCodes: string[] };
  return { cookie: sessionCookieFrom(enable), secret, otpauthUri, recoveryCodes };
}

describe('two-factor enrolment', () => {
  it('sets up a pending secret, turns it on with a valid code and returns 10 recovery codes stored only as hashes', async () => {
    const cookie = await signIn();
    expect(await (await client({ cookie }).api.admin['two-factor'].$get()).json()).toEqual({ enabled: false, required: false });

    const setup = await client({ cookie }).api.admin['two-factor'].setup.$post({ json: { password } });
    const { secret, otpauthUri } = (await setup.json()) as { secret: string; otpauthUri: string };
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(otpauthUri).toContain(`secret=${secret}`);
    expect(otpauthUri.startsWith('otpauth://totp/Warrendale%20CPA%3Aadmin?')).toBe(true);
    // Pending is not required: sign-in still takes the password alone.
    expect(await (await client({ cookie }).api.admin['two-factor'].$get()).json()).toEqual({ enabled: false, required: false });
    expect((await login({})).status).toBe(200);

    const wrong = await client({ cookie }).api.admin['two-factor'].enable.$post({ json: { password, code: (await codeAt(secret, 5)) } });
    expect(wrong.status).toBe(400);
    expect(await (await client({ cookie }).api.admin['two-factor'].$get()).json()).toEqual({ enabled: false, required: false });

    const enable = await client({ cookie }).api.admin['two-factor'].enable.$post({ json: { password, code: await codeAt(secret) } });
    expect(enable.status).toBe(200);
    const { enabled, recoveryCodes } = (await enable.json()) as { enabled: boolean; recoveryCodes: string[] };
    expect(enabled).toBe(true);
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    expect(await (await client({ cookie: sessionCookieFrom(enable) }).api.admin['two-factor'].$get()).json()).toEqual({ enabled: true, required: false });

    const stored = await env.DB.prepare('select code_hash from admin_recovery_codes').all<{ code_hash: string }>();
    expect(stored.results).toHaveLength(10);
    const hashes = stored.results.map((r) => r.code_hash).join(' ');
    for (const code of recoveryCodes) {
      expect(hashes).not.toContain(code);
      expect(hashes).not.toContain(code.replace('-', ''));
    }
    const row = await env.DB.prepare('select totp_secret, totp_pending_secret from admin_users').first<{ totp_secret: string; totp_pending_secret: string | null }>();
    expect(row).toEqual({ totp_secret: secret, totp_pending_secret: null });
  });

  it('refuses a new setup while the second factor is on', async () => {
    const { cookie } = await enableTwoFactor();
    const again = await client({ cookie }).api.admin['two-factor'].setup.$post({ json: { password } });
    expect(again.status).toBe(409);
  });

  it('answers 401 on every two-factor route without a session', async () => {
    const responses = await Promise.all([
      client().api.admin['two-factor'].$get(),
      client().api.admin['two-factor'].setup.$post({ json: { password } }),
      client().api.admin['two-factor'].enable.$post({ json: { password, code: '123456' } }),
      client().api.admin['two-factor'].disable.$post({ json: { password: ADMIN.password, code: '123456' } }),
    ]);
    expect(responses.map((r) => r.status)).toEqual([401, 401, 401, 401]);
    expect(await env.DB.prepare('select totp_pending_secret from admin_users').all()).toMatchObject({ results: [] });
  });
});

describe('sign-in with the second factor on', () => {
  it('asks for the code after the right password and sets no cookie until a valid one comes', async () => {
    const { secret } = await enableTwoFactor();
    const withoutCode = await login({});
    expect(withoutCode.status).toBe(401);
    expect(await withoutCode.json()).toEqual(TWO_FACTOR_REQUIRED);
    expect(withoutCode.headers.getSetCookie()).toEqual([]);

    const wrongCode = await login({ code: await codeAt(secret, 4) });
    expect(wrongCode.status).toBe(401);
    expect(await wrongCode.json()).toEqual(TWO_FACTOR_REQUIRED);
    expect(wrongCode.headers.getSetCookie()).toEqual([]);

    // A wrong password with a good code says nothing about the second factor.
    const wrongPassword = await login({ password: 'not-the-password', code: await codeAt(secret, 1) });
    expect(wrongPassword.status).toBe(401);
    expect(await wrongPassword.json()).toEqual({ message: 'Invalid username or password' });

    // The enable code used this step; the next one (within the ±1 window) signs in.
    const ok = await login({ code: await codeAt(secret, 1) });
    expect(ok.status).toBe(200);
    const cookie = sessionCookieFrom(ok);
    expect((await client({ cookie }).api.admin.session.$get()).status).toBe(200);
    expect(await (await client({ cookie }).api.admin.session.$get()).json()).toMatchObject({ authenticated: true });
  });

  it('refuses a code that was already used, even by two parallel sign-ins', async () => {
    const { secret } = await enableTwoFactor();
    const code = await codeAt(secret, 1);
    const results = await Promise.all([login({ code }, '198.51.100.20'), login({ code }, '198.51.100.21')]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 401]);
    const replay = await login({ code }, '198.51.100.22');
    expect(replay.status).toBe(401);
    expect(await replay.json()).toEqual(TWO_FACTOR_REQUIRED);
    // The enable code itself is used too.
    expect((await login({ code: await codeAt(secret, 0) }, '198.51.100.23')).status).toBe(401);
  });

  it('signs in with a recovery code once, in any case and spacing, and burns it', async () => {
    const { recoveryCodes } = await enableTwoFactor();
    const [first, second] = recoveryCodes;
    const ok = await login({ code: ` ${first.toUpperCase()} ` });
    expect(ok.status).toBe(200);
    expect(ok.headers.getSetCookie().some((c) => c.includes('admin_session='))).toBe(true);
    const again = await login({ code: first });
    expect(again.status).toBe(401);
    expect(await again.json()).toEqual(TWO_FACTOR_REQUIRED);
    expect((await login({ code: second.replace('-', '') })).status).toBe(200);
    const left = await env.DB.prepare('select count(*) as n from admin_recovery_codes').first<{ n: number }>();
    expect(left!.n).toBe(8);
  });

  it('counts wrong codes as failed attempts: the network is locked after 5, even with a valid code', async () => {
    const { secret } = await enableTwoFactor();
    const ip = '198.51.100.30';
    for (let i = 0; i < 5; i++) expect((await login({ code: '000000' }, ip)).status).toBe(401);
    const locked = await login({ code: await codeAt(secret, 1) }, ip);
    expect(locked.status).toBe(429);
    expect(locked.headers.getSetCookie()).toEqual([]);
  });
});

describe('turning the second factor off', () => {
  it('takes the password and a valid code; then sign-in needs the password only', async () => {
    const { cookie, secret } = await enableTwoFactor();
    const disable = (body: { password: string; code: string }) => client({ cookie }).api.admin['two-factor'].disable.$post({ json: body });

    // Without a code: the panel's own words (a recovery code is accepted here too).
    const noCode = await disable({ password: ADMIN.password, code: ' ' });
    expect(noCode.status).toBe(400);
    expect((await fieldMessages(noCode))).toEqual({ code: ['Enter a code from the app or a recovery code'] });
    const wrongPassword = await disable({ password: 'not-the-password', code: await codeAt(secret, 1) });
    expect(wrongPassword.status).toBe(400);
    expect(await wrongPassword.json()).toEqual({ message: 'Password or code is incorrect' });
    const wrongCode = await disable({ password: ADMIN.password, code: await codeAt(secret, 5) });
    expect(wrongCode.status).toBe(400);
    expect(await (await client({ cookie }).api.admin['two-factor'].$get()).json()).toEqual({ enabled: true, required: false });

    // The code refused with the wrong password was not consumed by it.
    const ok = await disable({ password: ADMIN.password, code: await codeAt(secret, 1) });
    expect(ok.status).toBe(200);
    expect(await (await client({ cookie }).api.admin['two-factor'].$get()).json()).toEqual({ enabled: false, required: false });
    expect(await env.DB.prepare('select count(*) as n from admin_recovery_codes').first()).toEqual({ n: 0 });
    expect((await login({})).status).toBe(200);
  });
});

// A stolen session can neither enrol its own authenticator nor guess the
// password through the panel.
describe('the password guards the second factor', () => {
  it('refuses set-up without the password or with a wrong one, and stores no pending secret', async () => {
    const cookie = await signIn();
    // Raw call: no body at all, which the typed client would not compile.
    const missing = await call('/api/admin/two-factor/setup', { method: 'POST', cookie });
    expect(missing.status).toBe(400);
    const empty = await client({ cookie }).api.admin['two-factor'].setup.$post({ json: { password: '' } });
    expect(empty.status).toBe(400);
    expect((await fieldMessages(empty))).toEqual({ password: ['Password is required'] });
    const wrong = await client({ cookie }).api.admin['two-factor'].setup.$post({ json: { password: 'not-the-password' } });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toEqual({ message: 'Password is incorrect', fields: { password: ['Password is incorrect'] } });
    expect(await env.DB.prepare('select totp_pending_secret from admin_users').first()).toEqual({ totp_pending_secret: null });
  });

  it('refuses to turn it on without the right password, even with a valid code', async () => {
    const cookie = await signIn();
    const { secret } = (await (await client({ cookie }).api.admin['two-factor'].setup.$post({ json: { password } })).json()) as { secret: string };
    // Raw call: the body is malformed on purpose, which the typed client would not compile.
    const missing = await call('/api/admin/two-factor/enable', { body: { code: await codeAt(secret) }, cookie });
    expect(missing.status).toBe(400);
    expect((await missing.json<{ fields: Record<string, string[]> }>()).fields).toEqual({ password: ['Password is required'] });
    const wrong = await client({ cookie }).api.admin['two-factor'].enable.$post({ json: { password: 'not-the-password', code: await codeAt(secret) } });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toEqual({ message: 'Password is incorrect', fields: { password: ['Password is incorrect'] } });
    expect(await (await client({ cookie }).api.admin['two-factor'].$get()).json()).toEqual({ enabled: false, required: false });
  });

  it('ends every other session when it is turned on; the browser that turned it on stays signed in', async () => {
    const elsewhere = await signIn(ADMIN, '198.51.100.40');
    const cookie = await signIn();
    const { secret } = (await (await client({ cookie }).api.admin['two-factor'].setup.$post({ json: { password } })).json()) as { secret: string };
    expect((await client({ cookie: elsewhere }).api.admin['contact-messages'].$get()).status).toBe(200);
    const enable = await client({ cookie }).api.admin['two-factor'].enable.$post({ json: { password, code: await codeAt(secret) } });
    expect(enable.status).toBe(200);
    expect((await client({ cookie: elsewhere }).api.admin['contact-messages'].$get()).status).toBe(401);
    expect((await client({ cookie }).api.admin['contact-messages'].$get()).status).toBe(401);
    expect((await client({ cookie: sessionCookieFrom(enable) }).api.admin['contact-messages'].$get()).status).toBe(200);
  });
});

describe('password checks in the panel count as sign-in attempts', () => {
  const ip = '198.51.100.50';
  const tooMany = 'Too many failed sign-in attempts. Please wait 15 minutes and try again.';

  /** A signed-in admin's password check, with `pass` as the password (a code where the route takes one). */
  const checks: [string, (cookie: string, pass: string, secret: string) => Promise<{ status: number; headers: Headers; json(): Promise<unknown> }>][] = [
    ['change-password', (cookie, pass) => client({ cookie, ip }).api.admin['change-password'].$post({ json: { currentPassword: pass, newPassword: 'a-new-password-2026' } })],
    ['two-factor setup', (cookie, pass) => client({ cookie, ip }).api.admin['two-factor'].setup.$post({ json: { password: pass } })],
    ['two-factor enable', async (cookie, pass, secret) => client({ cookie, ip }).api.admin['two-factor'].enable.$post({ json: { password: pass, code: await codeAt(secret) } })],
    ['two-factor disable', async (cookie, pass, secret) => client({ cookie, ip }).api.admin['two-factor'].disable.$post({ json: { password: pass, code: await codeAt(secret, 1) } })],
  ];

  it.each(checks)('%s: five wrong passwords, then 429 even for the right one, and sign-in from that network is locked too', async (name, check) => {
    let cookie = await signIn(ADMIN, ip);
    let secret = '';
    if (name === 'two-factor enable') {
      ({ secret } = ((await (await client({ cookie, ip }).api.admin['two-factor'].setup.$post({ json: { password } })).json()) as { secret: string }));
    }
    if (name === 'two-factor disable') ({ cookie, secret } = await enableTwoFactor());
    for (let i = 0; i < 5; i++) expect((await check(cookie, `wrong-password-${i}`, secret)).status).toBe(400);
    const refused = await check(cookie, password, secret);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(14 * 60);
    expect(await refused.json()).toEqual({ message: tooMany });
    expect((await login({}, ip)).status).toBe(429);
  });
});
