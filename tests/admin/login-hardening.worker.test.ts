import { env } from 'cloudflare:test';
import { exports } from 'cloudflare:workers';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getDb } from '../../worker/db/client';
import { newPasswordProblem } from '#core/schemas/admin';
import { pruneExpiredSessions } from '../../worker/services/admin-auth/session';
import { ensureAdmin } from '../../worker/services/admin-auth/users';
import { KNOWN_DEVICE_TTL_SECONDS } from '../../worker/services/admin-auth/known-device';
import { MAX_ATTEMPTS_PER_NETWORK, MAX_USERNAME_DELAY_SECONDS, USERNAME_FREE_ATTEMPTS } from '../../worker/services/admin-auth/login-throttle';
import { ADMIN, client, fieldMessages, signIn } from '../harness/worker/helpers';

// Signing in (docs/product.md §6.1, §8): attempts counted before PBKDF2, per (username,
// network) locks, a username-wide delay, the same work for unknown usernames, server-side
// sign-out and the password rules.

/** Every PBKDF2 derivation in this isolate (the worker runs in the tests' isolate): the spy calls through. */
let pbkdf2Iterations: number[] = [];
beforeEach(() => {
  pbkdf2Iterations = [];
  const original = crypto.subtle.deriveBits.bind(crypto.subtle);
  vi.spyOn(crypto.subtle, 'deriveBits').mockImplementation((algorithm, key, length) => {
    if (typeof algorithm === 'object' && algorithm.name === 'PBKDF2') pbkdf2Iterations.push((algorithm as { iterations: number }).iterations);
    return original(algorithm, key, length);
  });
});
afterEach(() => {
  vi.restoreAllMocks();
});

const login = (credentials: { username: string; password: string }, ip: string) => client({ ip }).api.admin.login.$post({ json: credentials });
const wrong = (i: number | string) => ({ username: ADMIN.username, password: `wrong-password-${i}` });
const statuses = (responses: { status: number }[]) => responses.map((r) => r.status).sort();
const count = (list: number[], status: number) => list.filter((s) => s === status).length;

/** Lets the username-wide delay run out without waiting for it. */
const endUsernameDelay = () => env.DB.prepare("UPDATE login_attempts SET blocked_until = 0 WHERE key LIKE 'user:%'").run();

describe('the attempt is counted before the password is verified', () => {
  it('gives a parallel burst of 50 wrong passwords from one network exactly 5 PBKDF2 verifications', async () => {
    await signIn(ADMIN, '198.51.100.200');
    pbkdf2Iterations = [];
    const responses = await Promise.all(Array.from({ length: 50 }, (_, i) => login(wrong(i), '192.0.2.10')));
    const codes = statuses(responses);
    expect(count(codes, 401)).toBe(MAX_ATTEMPTS_PER_NETWORK);
    expect(count(codes, 429)).toBe(50 - MAX_ATTEMPTS_PER_NETWORK);
    expect(pbkdf2Iterations).toHaveLength(MAX_ATTEMPTS_PER_NETWORK);
    const refused = responses.find((r) => r.status === 429)!;
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(14 * 60);
    expect(((await refused.json()) as { message: string }).message).toBe('Too many failed sign-in attempts. Please wait 15 minutes and try again.');
  });

  it('refuses even the right password from that network once its attempts are used, without verifying it', async () => {
    for (let i = 0; i < MAX_ATTEMPTS_PER_NETWORK; i++) expect((await login(wrong(i), '192.0.2.11')).status).toBe(401);
    pbkdf2Iterations = [];
    expect((await login(ADMIN, '192.0.2.11')).status).toBe(429);
    expect(pbkdf2Iterations).toEqual([]);
  });

  it('forgives the pair after a successful sign-in, and starts a new window once 15 minutes have passed', async () => {
    for (let i = 0; i < MAX_ATTEMPTS_PER_NETWORK - 1; i++) await login(wrong(i), '192.0.2.12');
    expect((await login(ADMIN, '192.0.2.12')).status).toBe(200);
    for (let i = 0; i < MAX_ATTEMPTS_PER_NETWORK; i++) expect((await login(wrong(i), '192.0.2.12')).status).toBe(401);
    expect((await login(ADMIN, '192.0.2.12')).status).toBe(429);
    await env.DB.prepare('UPDATE login_attempts SET window_start = window_start - 15 * 60 * 1000').run();
    expect((await login(ADMIN, '192.0.2.12')).status).toBe(200);
  });
});

describe('the lock is per (username, network)', () => {
  it("lets the admin sign in from network B while a stranger's failures lock network A", async () => {
    for (let i = 0; i < MAX_ATTEMPTS_PER_NETWORK; i++) expect((await login(wrong(i), '203.0.113.50')).status).toBe(401);
    expect((await login(ADMIN, '203.0.113.50')).status).toBe(429);
    expect((await login(ADMIN, '198.51.100.7')).status).toBe(200);
  });

  it('does not lock a network out of other usernames', async () => {
    for (let i = 0; i < MAX_ATTEMPTS_PER_NETWORK; i++) await login({ username: `guess${i}`, password: 'password-guess' }, '203.0.113.51');
    for (let i = 0; i < MAX_ATTEMPTS_PER_NETWORK; i++) await login({ username: 'nobody', password: `password-${i}` }, '203.0.113.51');
    expect((await login({ username: 'nobody', password: 'one-more' }, '203.0.113.51')).status).toBe(429);
    expect((await login(ADMIN, '203.0.113.51')).status).toBe(200);
  });
});

describe('a distributed guess is slowed by a username-wide delay, not locked out', () => {
  it(`admits ${USERNAME_FREE_ATTEMPTS} failures across networks, then makes each further attempt wait 1, 2, 4 ... seconds`, async () => {
    await signIn(ADMIN, '198.51.100.201');
    for (let i = 0; i < USERNAME_FREE_ATTEMPTS; i++) expect((await login(wrong(i), `10.0.1.${i}`)).status).toBe(401);
    // The next failure is still verified, but starts a 1-second delay for the username.
    expect((await login(wrong('a'), '10.0.2.1')).status).toBe(401);
    for (const [ip, seconds] of [['10.0.2.2', 1], ['10.0.2.3', 2], ['10.0.2.4', 4]] as const) {
      const delayed = await login(wrong(ip), ip);
      expect(delayed.status).toBe(429);
      expect(delayed.headers.get('retry-after')).toBe(String(seconds));
      expect(((await delayed.json()) as { message: string }).message).toBe(
        `Too many failed sign-in attempts for this account. Please wait ${seconds} second${seconds === 1 ? '' : 's'} and try again.`,
      );
      await endUsernameDelay();
      expect((await login(wrong(ip), ip)).status).toBe(401);
    }
  });

  it('lets the real admin in once the few seconds have passed, from a network the attack never used', async () => {
    for (let i = 0; i < USERNAME_FREE_ATTEMPTS + 1; i++) await login(wrong(i), `10.0.3.${i}`);
    const told = await login(ADMIN, '198.51.100.9');
    expect(told.status).toBe(429);
    expect(Number(told.headers.get('retry-after'))).toBeLessThanOrEqual(30);
    await endUsernameDelay();
    // The refused attempt gave its network's slot back: all 5 are still there after waiting.
    const row = await env.DB.prepare("SELECT count FROM login_attempts WHERE key LIKE 'pair:admin:%' AND count = 0").all();
    expect(row.results).toHaveLength(1);
    expect((await login(ADMIN, '198.51.100.9')).status).toBe(200);
  });

  it('bounds a parallel distributed burst: 40 networks at once get 11 verifications', async () => {
    await signIn(ADMIN, '198.51.100.202');
    pbkdf2Iterations = [];
    const responses = await Promise.all(Array.from({ length: 40 }, (_, i) => login(wrong(i), `10.0.4.${i}`)));
    const codes = statuses(responses);
    expect(count(codes, 401)).toBe(USERNAME_FREE_ATTEMPTS + 1);
    expect(count(codes, 429)).toBe(40 - USERNAME_FREE_ATTEMPTS - 1);
    expect(pbkdf2Iterations).toHaveLength(USERNAME_FREE_ATTEMPTS + 1);
  });
});

// The administrator always gets in (docs/decisions/0011): a known device is exempt from the account-wide
// delay and from locks other networks earned; an unknown device is slowed, never locked out.

/** Time passes for the throttle: every window and delay in login_attempts moves `ms` into the past. */
const pass = (ms: number) =>
  env.DB.prepare('UPDATE login_attempts SET window_start = window_start - ?1, blocked_until = max(0, blocked_until - ?1)').bind(ms).run();

/** The `name=value` of the known-device cookie a successful sign-in sets. */
function deviceCookieFrom(res: { headers: Headers }): string {
  const cookie = res.headers.getSetCookie().find((c) => c.includes('admin_device_'));
  if (!cookie) throw new Error('no known-device cookie set');
  return cookie.split(';')[0];
}

const loginWith = (credentials: { username: string; password: string }, ip: string, cookie: string) => client({ ip, cookie }).api.admin.login.$post({ json: credentials });

/** Starts the account-wide delay: USERNAME_FREE_ATTEMPTS + 1 failures (`already` made) from as many networks. */
async function startUsernameDelay(prefix: string, already = 0) {
  for (let i = already; i < USERNAME_FREE_ATTEMPTS + 1; i++) expect((await login(wrong(i), `${prefix}.${i}`)).status).toBe(401);
}

describe('the administrator always gets in', () => {
  // The attack of docs/decisions/0011: ten networks, each sending a wrong password every 250 ms.
  const pollers = Array.from({ length: 10 }, (_, i) => `100.64.${i}.1`);
  let round = 0;
  let guessesThrough = 0;
  /** `ms` of the poll: a round of ten parallel attempts, then 250 ms pass. */
  async function poll(ms: number) {
    for (let t = 0; t < ms; t += 250) {
      const answers = await Promise.all(pollers.map((ip, n) => login(wrong(`${round}-${n}`), ip)));
      for (const answer of answers) {
        expect([401, 429]).toContain(answer.status);
        if (answer.status === 401) guessesThrough++;
      }
      round++;
      await pass(250);
    }
  }

  it('replays the ten-network poll: a known device signs in on the first try, a new network within the delay', async () => {
    const device = deviceCookieFrom(await login(ADMIN, '198.51.100.210'));
    await poll(20_000);

    // From a network the poll locked, and from a new one: the known device gets in at once.
    expect((await loginWith(ADMIN, pollers[3], device)).status).toBe(200);
    expect((await loginWith(ADMIN, '198.51.100.211', device)).status).toBe(200);

    // Without the cookie, from a new network, waiting as told while the poll goes on.
    const fresh = '198.51.100.212';
    let waited = 0;
    let answer = await login(ADMIN, fresh);
    while (answer.status === 429 && waited <= MAX_USERNAME_DELAY_SECONDS * 1000) {
      const retryAfter = Number(answer.headers.get('retry-after'));
      expect(retryAfter).toBeLessThanOrEqual(MAX_USERNAME_DELAY_SECONDS);
      await poll(retryAfter * 1000);
      waited += retryAfter * 1000;
      answer = await login(ADMIN, fresh);
    }
    expect(answer.status).toBe(200);
    expect(waited).toBeLessThanOrEqual(MAX_USERNAME_DELAY_SECONDS * 1000);
    // Each polling network spent its own five attempts within seconds.
    expect(guessesThrough).toBeLessThanOrEqual(USERNAME_FREE_ATTEMPTS + 3);
  }, 120_000);

  it('exempts a known device from the account-wide delay and from the lock of its network', async () => {
    const device = deviceCookieFrom(await login(ADMIN, '198.51.100.220'));
    for (let i = 0; i < MAX_ATTEMPTS_PER_NETWORK; i++) expect((await login(wrong(i), '198.51.100.222')).status).toBe(401);
    await startUsernameDelay('10.0.5', MAX_ATTEMPTS_PER_NETWORK);

    const told = await login(ADMIN, '198.51.100.221');
    expect(told.status).toBe(429);
    expect(((await told.json()) as { message: string }).message).toMatch(/for this account/);
    expect((await loginWith(ADMIN, '198.51.100.221', device)).status).toBe(200);

    const locked = await login(ADMIN, '198.51.100.222');
    expect(locked.status).toBe(429);
    expect(((await locked.json()) as { message: string }).message).toMatch(/minutes/);
    expect((await loginWith(ADMIN, '198.51.100.222', device)).status).toBe(200);
  });

  it('counts a known device by itself: five failures lock that device, not the account', async () => {
    const device = deviceCookieFrom(await login(ADMIN, '198.51.100.230'));
    for (let i = 0; i < MAX_ATTEMPTS_PER_NETWORK; i++) expect((await loginWith(wrong(i), '198.51.100.231', device)).status).toBe(401);
    const locked = await loginWith(ADMIN, '198.51.100.231', device);
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(14 * 60);
    // Neither its network nor the account counted those failures.
    expect((await login(ADMIN, '198.51.100.231')).status).toBe(200);
    const user = await env.DB.prepare("SELECT count FROM login_attempts WHERE key = 'user:admin'").first<{ count: number }>();
    expect(user?.count ?? 0).toBe(0);
  });

  it('sets the cookie on success only: HttpOnly, SameSite=Strict, a year; Secure and __Host- over HTTPS', async () => {
    const id = (await env.DB.prepare('SELECT id FROM admin_users').first<{ id: number }>())?.id;
    const wrongOne = await login(wrong('x'), '198.51.100.240');
    expect(wrongOne.headers.getSetCookie()).toEqual([]);
    const local = (await login(ADMIN, '198.51.100.240')).headers.getSetCookie();
    expect(local[0]).toMatch(/^admin_session=/);
    const cookie = local.find((c) => c.startsWith(`admin_device_${id ?? 1}=`))!;
    expect(cookie).toMatch(new RegExp(`Max-Age=${KNOWN_DEVICE_TTL_SECONDS}`));
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Strict/);
    expect(cookie).not.toMatch(/; Secure/);

    const https = await exports.default.fetch(
      new Request('https://www.northgatecpa.example/api/admin/login', {
        method: 'POST',
        headers: { origin: 'https://www.northgatecpa.example', 'content-type': 'application/json', 'cf-connecting-ip': '198.51.100.241' },
        body: JSON.stringify(ADMIN),
      }),
    );
    const secure = https.headers.getSetCookie().find((c) => c.includes('admin_device_'))!;
    expect(secure).toMatch(/^__Host-admin_device_\d+=/);
    expect(secure).toMatch(/; Path=\/; HttpOnly; Secure; SameSite=Strict/);
  });

  it("is bound to the administrator's id: another admin's cookie, or a tampered one, is not a known device", async () => {
    const device = deviceCookieFrom(await login(ADMIN, '198.51.100.250'));
    await ensureAdmin(getDb(env.DB), 'second-admin', 'another-password-2026');
    const other = deviceCookieFrom(await login({ username: 'second-admin', password: 'another-password-2026' }, '198.51.100.251'));
    const [name, value] = device.split('=');
    const [otherName, otherValue] = other.split('=');
    expect(otherName).not.toBe(name);

    for (let i = 0; i < MAX_ATTEMPTS_PER_NETWORK; i++) await login(wrong(i), '198.51.100.252');
    const [deviceId, mac] = value.split('.');
    const tampered = `${deviceId}.${mac.slice(0, -2)}${mac.endsWith('AA') ? 'AB' : 'AA'}`;
    for (const forged of [`${name}=${otherValue}`, `${name}=${tampered}`, `${name}=${deviceId}`, `${name}=garbage`]) {
      expect((await loginWith(ADMIN, '198.51.100.252', forged)).status, forged).toBe(429);
    }
    expect((await loginWith(ADMIN, '198.51.100.252', device)).status).toBe(200);
  });

  it('makes a network that polls during the delay spend its own attempts, while one that waits as told keeps them', async () => {
    await startUsernameDelay('10.0.6');
    const poller = '10.0.7.1';
    const waiter = '10.0.7.2';
    for (let k = 0; k < 3; k++) {
      // The waiter comes back no earlier than told; each time another network took the slot first.
      const told = await login(wrong(`w${k}`), waiter);
      expect(told.status).toBe(429);
      // The poller asks again and again without waiting (only its first ask comes after its time).
      for (let i = 0; i < 4; i++) expect((await login(wrong(`p${k}-${i}`), poller)).status).toBe(429);
      await pass(Number(told.headers.get('retry-after')) * 1000);
      expect((await login(wrong(`o${k}`), `10.0.8.${k}`)).status).toBe(401);
    }
    await pass(MAX_USERNAME_DELAY_SECONDS * 1000);
    const locked = await login(ADMIN, poller);
    expect(locked.status).toBe(429);
    expect(((await locked.json()) as { message: string }).message).toBe('Too many failed sign-in attempts. Please wait 15 minutes and try again.');
    expect((await login(ADMIN, waiter)).status).toBe(200);
  });
});

describe('an unknown username costs the same PBKDF2 work as a known one', () => {
  it('verifies against a dummy hash with the same iterations when the user does not exist', async () => {
    await signIn(ADMIN, '198.51.100.203');
    pbkdf2Iterations = [];
    expect((await login({ username: ADMIN.username, password: 'not-the-password' }, '192.0.2.30')).status).toBe(401);
    const known = [...pbkdf2Iterations];
    pbkdf2Iterations = [];
    const unknown = await login({ username: 'nobody-here', password: 'not-the-password' }, '192.0.2.31');
    expect(unknown.status).toBe(401);
    expect(await unknown.json()).toEqual({ message: 'Invalid username or password' });
    expect(known).toEqual([100_000]);
    expect(pbkdf2Iterations).toEqual(known);
  });
});

describe('sign-out revokes the token server-side', () => {
  it('refuses a copy of the cookie used after sign-out, and leaves other sessions signed in', async () => {
    const cookie = await signIn();
    const other = await signIn(ADMIN, '198.51.100.204');
    const copy = cookie;
    expect((await client({ cookie: copy }).api.admin['contact-messages'].$get()).status).toBe(200);
    expect((await client({ cookie }).api.admin.logout.$post()).status).toBe(200);

    expect((await client({ cookie: copy }).api.admin['contact-messages'].$get()).status).toBe(401);
    expect(await (await client({ cookie: copy }).api.admin.session.$get()).json()).toEqual({ authenticated: false });
    expect((await client({ cookie: other }).api.admin['contact-messages'].$get()).status).toBe(200);
  });

  it('keeps a session row until the token expires; pruneExpiredSessions drops only expired ones', async () => {
    const cookie = await signIn();
    const [row] = (await env.DB.prepare('SELECT expires_at AS expiresAt FROM admin_sessions').all<{ expiresAt: number }>()).results;
    expect(row.expiresAt).toBeGreaterThan(Date.now() + 7.9 * 3600 * 1000);
    expect(row.expiresAt).toBeLessThanOrEqual(Date.now() + 8 * 3600 * 1000);
    await env.DB.prepare("INSERT INTO admin_sessions (id, admin_user_id, device, expires_at) VALUES ('expired-one', (SELECT id FROM admin_users LIMIT 1), 'Chrome', ?1)")
      .bind(Date.now() - 1000)
      .run();

    await pruneExpiredSessions(getDb(env.DB));
    const left = (await env.DB.prepare('SELECT id FROM admin_sessions').all<{ id: string }>()).results;
    expect(left).toHaveLength(1);
    expect(left[0].id).not.toBe('expired-one');
    expect((await client({ cookie }).api.admin['contact-messages'].$get()).status).toBe(200);
    await client({ cookie }).api.admin.logout.$post();
    expect((await env.DB.prepare('SELECT id FROM admin_sessions').all()).results).toHaveLength(0);
    expect((await client({ cookie }).api.admin['contact-messages'].$get()).status).toBe(401);
  });
});

describe('new passwords: at least 12 characters and not a common one', () => {
  it('refuses a new password under 12 characters and a common one with digits added, with clear messages', async () => {
    const cookie = await signIn();
    for (const [newPassword, message] of [
      ['elevenchars', 'Password must be at least 12 characters'],
      ['Password2026!', 'This password is too common and would be guessed early. Choose a longer phrase of unrelated words.'],
      ['qwerty123456', 'This password is too common and would be guessed early. Choose a longer phrase of unrelated words.'],
      ['abcabcabcabc', 'This password is too common and would be guessed early. Choose a longer phrase of unrelated words.'],
    ]) {
      const res = await client({ cookie }).api.admin['change-password'].$post({ json: { currentPassword: ADMIN.password, newPassword } });
      expect(res.status).toBe(400);
      expect((await fieldMessages(res)).newPassword).toEqual([message]);
    }
    expect((await client({ ip: '198.51.100.205' }).api.admin.login.$post({ json: ADMIN })).status).toBe(200);
  });

  it('accepts the passwords the project itself uses (tests, e2e, benchmarks, `npm start`-style)', () => {
    // vitest.config.ts, tests/harness/e2e/global-setup.ts (and its changed password), scripts/bench-*.ts,
    // tests/admin/admin-session.worker.test.ts, and a 12-character base64url like `npm start` generates.
    for (const password of [
      'correct-horse-battery', 'e2e-password-2026', 'e2e-password-2026-new', 'bench-password-2026', 'bench-password-123',
      'lighthouse-bench-only', 'a-new-password-2026', 'twelve-chars', 'Xq3_vT9-kLm2',
    ]) {
      expect(newPasswordProblem(password), password).toBeNull();
    }
  });
});
