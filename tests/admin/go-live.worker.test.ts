import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { evaluateGoLive, GO_LIVE_IDS, type GoLiveCheck, type GoLiveFacts, type GoLiveId } from '#core/go-live';
import worker from '../../worker/index';
import { accountSignedIn } from '../harness/worker/admin-accounts-helpers';
import { ADMIN, call, sessionCookieFrom, signIn } from '../harness/worker/helpers';

// GET /api/admin/go-live (docs/product.md §6.10): the facts of the owner's go-live checklist, read
// live, and the states core/go-live.ts evaluateGoLive gives them (as the screen and the doctor do).
// DNS and MailChannels are answered by fakes at the fetch boundary; nothing here reaches the internet.

const SITE = 'https://www.harbourcpa.com';
const DOH = 'https://doh.test/dns-query';
const MC = 'https://mailchannels.test/tx/v1';
const ACCOUNT = 'acct-777';
const DKIM_KEY = 'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA0123456789abcdefABCDEF';

/** A production deployment with every setting in place. */
const READY: Partial<Cloudflare.Env> = {
  SITE_URL: SITE,
  MAIL_FROM: 'no-reply@harbourcpa.com',
  JWT_SECRET: 'a-production-secret-of-more-than-32-characters',
  MAILCHANNELS_API_KEY: 'mc-key',
  MAILCHANNELS_ACCOUNT_ID: ACCOUNT,
  MAILCHANNELS_API_URL: MC,
  DKIM_DOMAIN: 'harbourcpa.com',
  DKIM_SELECTOR: 'mailchannels',
  DKIM_PRIVATE_KEY: 'private-key-base64',
  TURNSTILE_SECRET: 'turnstile-secret',
  TURNSTILE_SITE_KEY: '0x4AAAAAAAabcdefgh',
  DNS_OVER_HTTPS_URL: DOH,
  DNS_OVER_HTTPS_TIMEOUT_MS: '200',
};

/** What the fake resolver holds for each name, when it answers. */
const RECORDS: Record<string, string[]> = {
  'harbourcpa.com': ['"v=spf1 include:_spf.google.com include:relay.mailchannels.net ~all"', '"google-site-verification=abc"'],
  'mailchannels._domainkey.harbourcpa.com': [`"v=DKIM1;p=${DKIM_KEY.slice(0, 30)}" "${DKIM_KEY.slice(30)}"`],
  '_mailchannels.harbourcpa.com': [`"v=mc1 auth=${ACCOUNT}"`],
  '_dmarc.harbourcpa.com': ['"v=DMARC1; p=none"'],
};

type Resolver = (name: string) => Response | 'hang' | 'network-error';
const answering: Resolver = (name) =>
  Response.json({ Status: RECORDS[name] ? 0 : 3, Answer: (RECORDS[name] ?? []).map((data) => ({ name, type: 16, TTL: 300, data })) });

/** Fakes DNS-over-HTTPS and MailChannels' webhook list; any other outbound fetch fails the test. */
function fakeNetwork(resolver: Resolver = answering, enrolled: string[] = [`${SITE}/api/webhooks/mailchannels`]) {
  const lookups: { name: string; accept: string | null }[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (request.url.startsWith(DOH)) {
      const name = url.searchParams.get('name')!;
      expect(url.searchParams.get('type')).toBe('TXT');
      lookups.push({ name, accept: request.headers.get('accept') });
      const answer = resolver(name);
      if (answer === 'network-error') throw new TypeError('Network connection lost.');
      if (answer === 'hang') return new Promise<Response>((_, reject) => request.signal.addEventListener('abort', () => reject(request.signal.reason)));
      return answer;
    }
    if (request.url === `${MC}/webhook`) return Response.json(enrolled.map((webhook) => ({ webhook })));
    throw new Error(`unexpected fetch to ${request.url}`);
  });
  return lookups;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

/** Signs the seeded owner in over HTTPS on `site` and reads the checklist there with `overrides`. */
async function goLive(overrides: Partial<Cloudflare.Env>, site = SITE, afterSignIn?: () => Promise<unknown>): Promise<{ status: number; facts: GoLiveFacts; checks: Record<GoLiveId, GoLiveCheck>; list: GoLiveCheck[] }> {
  const testEnv = { ...env, ...overrides };
  const send = async (path: string, init: RequestInit = {}) => {
    const ctx = createExecutionContext();
    const res = await worker.fetch(new Request(`${site}${path}`, init), testEnv, ctx);
    await waitOnExecutionContext(ctx);
    return res;
  };
  const login = await send('/api/admin/login', { method: 'POST', headers: { origin: site, 'content-type': 'application/json' }, body: JSON.stringify(ADMIN) });
  expect(login.status).toBe(200);
  await afterSignIn?.();
  const res = await send('/api/admin/go-live', { headers: { cookie: sessionCookieFrom(login) } });
  const facts = (await res.json()) as GoLiveFacts;
  const list = res.status === 200 ? evaluateGoLive(facts) : [];
  return { status: res.status, facts, list, checks: Object.fromEntries(list.map((c) => [c.id, c])) as Record<GoLiveId, GoLiveCheck> };
}

const states = (checks: Record<GoLiveId, GoLiveCheck>) => Object.fromEntries(Object.values(checks).map((c) => [c.id, c.state]));

describe('GET /api/admin/go-live', () => {
  it('is the owner’s: refused signed out (401) and to staff (403)', async () => {
    expect((await call('/api/admin/go-live')).status).toBe(401);
    expect((await call('/api/admin/go-live', { cookie: await signIn() })).status).toBe(200);
    const { cookie } = await accountSignedIn('dana', 'staff');
    expect((await call('/api/admin/go-live', { cookie })).status).toBe(403);
  });

  it('answers every requirement, in order, done on a production deployment with everything in place', async () => {
    const lookups = fakeNetwork();
    // The owner's policy on, and the owner's own second factor (the policy would send it to set one up).
    const twoFactorOn = () =>
      env.DB.batch([
        env.DB.prepare("UPDATE admin_users SET totp_secret = 'JBSWY3DPEHPK3PXP'"),
        env.DB.prepare('INSERT INTO admin_security_settings (id, require_two_factor, updated_at) VALUES (1, 1, 0)'),
      ]);
    const { status, facts, list, checks } = await goLive(READY, SITE, twoFactorOn);
    expect(status).toBe(200);
    expect(list.map((c) => c.id)).toEqual([...GO_LIVE_IDS]);
    expect(list.filter((c) => c.state !== 'done')).toEqual([]);
    expect(checks['delivery-events'].detail).toBe(`Enrolled: ${SITE}/api/webhooks/mailchannels`);
    expect(checks['two-factor'].detail).toBe('Required; 1 of 1 owners have it on');
    // One DoH JSON lookup per record, each asked as application/dns-json.
    expect(lookups.map((l) => l.name).sort()).toEqual(Object.keys(RECORDS).sort());
    expect(lookups.every((l) => l.accept === 'application/dns-json')).toBe(true);
    // Whether each secret is set, never its value.
    expect(facts).toMatchObject({ jwtSecret: 'usable', secretsSet: { MAILCHANNELS_API_KEY: true, DKIM_PRIVATE_KEY: true, TURNSTILE_SECRET: true } });
    const text = JSON.stringify(facts);
    for (const secret of [READY.JWT_SECRET!, 'private-key-base64', 'turnstile-secret', 'mc-key']) expect(text).not.toContain(secret);
  });

  // A JWT_SECRET shorter than 32 characters stops every sign-in (503), so the route never sees one:
  // the doctor's test covers that state (tests/scripts/doctor.test.ts).
  it('says which secrets and settings are missing', async () => {
    fakeNetwork();
    const { checks } = await goLive({ ...READY, MAILCHANNELS_API_KEY: '', MAILCHANNELS_ACCOUNT_ID: '', DKIM_PRIVATE_KEY: '', TURNSTILE_SITE_KEY: '' });
    expect(states(checks)).toMatchObject({
      'mailchannels-api-key': 'missing',
      'mailchannels-account-id': 'missing',
      'dkim-settings': 'missing',
      turnstile: 'missing',
      'delivery-events': 'missing',
      'two-factor': 'missing',
      'site-url': 'done',
      https: 'done',
    });
    expect(checks['dkim-settings'].detail).toBe('Not set: DKIM_PRIVATE_KEY');
    expect(checks.turnstile.detail).toBe('Not set: TURNSTILE_SITE_KEY');
    // Without the account id the lockdown record's account cannot be compared.
    expect(checks['dns-lockdown'].state).toBe('unknown');
  });

  it('holds SITE_URL to the origin the page is open on, and the placeholder address is missing', async () => {
    fakeNetwork();
    expect((await goLive({ ...READY, SITE_URL: 'https://harbourcpa.com' })).checks['site-url']).toEqual({
      id: 'site-url',
      state: 'missing',
      detail: `SITE_URL is https://harbourcpa.com, but this page is open on ${SITE}`,
    });
    expect((await goLive({ ...READY, SITE_URL: 'https://www.northgatecpa.example' })).checks['site-url'].state).toBe('missing');
  });

  it('reads each DNS record as found, not found, or could-not-check on a timeout or failure', async () => {
    fakeNetwork((name) => {
      if (name === 'harbourcpa.com') return Response.json({ Status: 0, Answer: [{ type: 16, data: '"v=spf1 include:_spf.google.com ~all"' }] });
      if (name === '_dmarc.harbourcpa.com') return 'hang';
      if (name === '_mailchannels.harbourcpa.com') return 'network-error';
      return Response.json({ Status: 3 });
    });
    const started = Date.now();
    const { checks } = await goLive(READY);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(checks['dns-spf']).toMatchObject({ state: 'missing', detail: 'The SPF record at harbourcpa.com does not include relay.mailchannels.net' });
    expect(checks['dns-dkim']).toMatchObject({ state: 'missing', detail: 'No such TXT record at mailchannels._domainkey.harbourcpa.com' });
    expect(checks['dns-dmarc']).toMatchObject({ state: 'unknown', detail: 'The DNS lookup of _dmarc.harbourcpa.com took too long' });
    expect(checks['dns-lockdown']).toMatchObject({ state: 'unknown', detail: 'The DNS lookup of _mailchannels.harbourcpa.com failed' });
  });

  it('counts a lockdown record of another account, or the retired cfid= form, as missing; a resolver error as unknown', async () => {
    let lockdown = '"v=mc1 auth=someone-else"';
    fakeNetwork((name) => {
      if (name === '_mailchannels.harbourcpa.com') return Response.json({ Status: 0, Answer: [{ type: 16, data: lockdown }] });
      if (name === '_dmarc.harbourcpa.com') return new Response('busy', { status: 503 });
      return Response.json({ Status: 2 });
    });
    let { checks } = await goLive(READY);
    expect(checks['dns-lockdown']).toMatchObject({ state: 'missing', detail: 'The record at _mailchannels.harbourcpa.com names another MailChannels account' });
    expect(checks['dns-dmarc']).toMatchObject({ state: 'unknown', detail: 'The DNS lookup of _dmarc.harbourcpa.com failed (HTTP 503)' });
    expect(checks['dns-spf']).toMatchObject({ state: 'unknown', detail: 'The DNS lookup of harbourcpa.com failed (status 2)' });
    lockdown = '"v=mc1 cfid=harbourcpa.workers.dev"';
    ({ checks } = await goLive(READY));
    expect(checks['dns-lockdown'].state).toBe('missing');
  });

  it('looks nothing up on a local run: plain HTTP is missing, DNS and delivery events could not be checked', async () => {
    const lookups = fakeNetwork();
    const cookie = await signIn();
    const { JWT_SECRET: _sameSecret, ...settings } = READY;
    const res = await call('/api/admin/go-live', { cookie, env: settings as Record<string, string> });
    expect(res.status).toBe(200);
    const facts = (await res.json()) as GoLiveFacts;
    expect(facts.dns).toBeUndefined();
    const byId = Object.fromEntries(evaluateGoLive(facts).map((c) => [c.id, c]));
    expect(byId.https).toEqual({ id: 'https', state: 'missing', detail: 'This page is open on http://localhost' });
    expect(byId['site-url'].state).toBe('missing');
    for (const id of ['dns-spf', 'dns-dkim', 'dns-lockdown', 'dns-dmarc', 'delivery-events']) expect(byId[id].state).toBe('unknown');
    expect(lookups).toEqual([]);
  });
});
