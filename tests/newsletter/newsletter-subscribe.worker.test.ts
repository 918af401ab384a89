import { env } from 'cloudflare:test';
import { exports } from 'cloudflare:workers';
import { beforeEach, describe, expect, it } from 'vitest';
import { SignJWT } from 'jose';
import { LINK_TTL_SECONDS, signLinkToken } from '../../worker/services/newsletter/tokens';
import { call, client, ORIGIN } from '../harness/worker/helpers';
import { callWithEnv } from '../harness/worker/submission-helpers';
import { fakeMailbox, MAILBOX_ENV } from '../harness/worker/mailbox-fake';

// Links in e-mails use SITE_URL (wrangler.jsonc "vars"; a developer's .dev.vars may override it).
const SITE = env.SITE_URL.replace(/\/+$/, '');

async function subscriber(email: string) {
  return env.DB.prepare('SELECT * FROM newsletter_subscriptions WHERE email = ?').bind(email).first<Record<string, unknown>>();
}

// The confirmation e-mails go to the mailbox (the e-mail log keeps no token:
// tests/harness/worker/mailbox-fake.ts), each test's own.
let mailbox: ReturnType<typeof fakeMailbox>;
beforeEach(() => {
  mailbox = fakeMailbox();
});

/** The confirmation links mailed to `email` in this test, oldest first. */
async function confirmationLinks(email: string): Promise<string[]> {
  return mailbox.to(email, 'newsletter-confirmation').map((m) => /(https?:\/\/\S+\/newsletter\/confirm\?token=\S+)/.exec(m.text)![1]);
}

/** Presses the confirmation page's button for a link from an e-mail: POST /api/newsletter/confirm. */
async function confirm(link: string) {
  return client().api.newsletter.confirm.$post({ json: { token: new URL(link).searchParams.get('token')! } });
}

/** A token as older links were signed: with the address in clear (claim `em`). */
async function legacyToken(purpose: 'newsletter-confirm' | 'newsletter-unsubscribe', id: number, email: string, now = new Date()) {
  const iat = Math.floor(now.getTime() / 1000);
  return new SignJWT({ em: email, ms: now.getTime() })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(String(id))
    .setIssuer('warrendale-cpa')
    .setAudience(purpose)
    .setIssuedAt(iat)
    .setExpirationTime(iat + LINK_TTL_SECONDS[purpose])
    .sign(new TextEncoder().encode(env.JWT_SECRET));
}

/** Opens a link from an e-mail against the real worker, without following the redirect. */
async function open(link: string) {
  const url = new URL(link);
  return exports.default.fetch(new Request(`${ORIGIN}${url.pathname}${url.search}`, { redirect: 'manual' }));
}

const SUBSCRIBE_ANSWER = { message: 'Thank you! Please check your inbox and click the link in our e-mail to confirm your subscription.' };

describe('POST /api/newsletter/subscribe', () => {
  it('creates a pending subscriber and mails a confirmation link to a page whose button activates it', async () => {
    const res = await client({ env: MAILBOX_ENV }).api.newsletter.subscribe.$post({ json: { email: 'New.Person@Example.com', name: 'New Person' } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(SUBSCRIBE_ANSWER);
    expect(await subscriber('new.person@example.com')).toMatchObject({ active: 'false', name: 'New Person', confirmed_at: null });

    const [link] = await confirmationLinks('new.person@example.com');
    expect(link.startsWith(`${SITE}/newsletter/confirm?token=`)).toBe(true);
    const confirmed = await confirm(link);
    expect(confirmed.status).toBe(200);
    expect(await confirmed.json()).toEqual({ message: 'Your subscription is confirmed' });
    const row = await subscriber('new.person@example.com');
    expect(row).toMatchObject({ active: 'true' });
    expect(row?.confirmed_at).toBeTypeOf('number');
    // Pressing it again is harmless.
    expect((await confirm(link)).status).toBe(200);
  });

  it("links to the request's origin only when a deployment has no SITE_URL", async () => {
    expect(SITE).toMatch(/^https?:\/\/[^/]+$/);
    expect((await callWithEnv({ SITE_URL: '', ...MAILBOX_ENV }, '/api/newsletter/subscribe', { body: { email: 'no-site@example.com' } })).status).toBe(200);
    const [link] = await confirmationLinks('no-site@example.com');
    expect(link.startsWith(`${ORIGIN}/newsletter/confirm?token=`)).toBe(true);
  });

  it('answers the same for new, pending and active addresses and never creates a second row', async () => {
    const answers = [];
    answers.push(await (await client({ env: MAILBOX_ENV }).api.newsletter.subscribe.$post({ json: { email: 'dup@example.com' } })).json());
    answers.push(await (await client({ env: MAILBOX_ENV }).api.newsletter.subscribe.$post({ json: { email: 'DUP@example.com' } })).json());
    await env.DB.prepare("UPDATE newsletter_subscriptions SET active = 'true' WHERE email = 'dup@example.com'").run();
    const active = await client({ env: MAILBOX_ENV }).api.newsletter.subscribe.$post({ json: { email: 'dup@example.com' } });
    expect(active.status).toBe(200);
    answers.push(await active.json());
    expect(answers).toEqual([SUBSCRIBE_ANSWER, SUBSCRIBE_ANSWER, SUBSCRIBE_ANSWER]);
    const rows = await env.DB.prepare("SELECT count(*) AS n FROM newsletter_subscriptions WHERE email = 'dup@example.com'").first<{ n: number }>();
    expect(rows?.n).toBe(1);
    // The repeat within 10 minutes and the active address got no further e-mail.
    expect(await confirmationLinks('dup@example.com')).toHaveLength(1);
  });

  it('validates the address with the message of docs/product.md §9', async () => {
    for (const email of ['', 'not-an-email', 'a@b', 'x'.repeat(250) + '@example.com']) {
      const res = await client({ env: MAILBOX_ENV }).api.newsletter.subscribe.$post({ json: { email } });
      expect(res.status, email).toBe(400);
      expect(((await res.json()) as { message: string }).message).toBe('Please enter a valid email address');
    }
    const crlf = await client({ env: MAILBOX_ENV }).api.newsletter.subscribe.$post({ json: { email: 'a@example.com\r\nBcc: b@example.com' } });
    expect(crlf.status).toBe(400);
    const count = await env.DB.prepare('SELECT count(*) AS n FROM email_log').first<{ n: number }>();
    expect(count?.n).toBe(0);
  });

  it('limits sign-ups per IP', async () => {
    for (let i = 0; i < 10; i++) {
      expect((await client({ ip: '198.51.100.1', env: MAILBOX_ENV }).api.newsletter.subscribe.$post({ json: { email: `p${i}@example.com` } })).status).toBe(200);
    }
    expect((await client({ ip: '198.51.100.1', env: MAILBOX_ENV }).api.newsletter.subscribe.$post({ json: { email: 'p11@example.com' } })).status).toBe(429);
    expect((await client({ ip: '198.51.100.2', env: MAILBOX_ENV }).api.newsletter.subscribe.$post({ json: { email: 'p11@example.com' } })).status).toBe(200);
  });
});

describe('confirmation links', () => {
  it('reject forged, tampered, wrong-purpose and expired tokens', async () => {
    await client({ env: MAILBOX_ENV }).api.newsletter.subscribe.$post({ json: { email: 'tok@example.com' } });
    const row = (await subscriber('tok@example.com'))!;
    const [link] = await confirmationLinks('tok@example.com');
    const token = new URL(link).searchParams.get('token')!;
    const forged = await signLinkToken('another-secret-that-is-long-enough-000000', 'newsletter-confirm', { id: Number(row.id) });
    const wrongPurpose = await signLinkToken(env.JWT_SECRET, 'newsletter-unsubscribe', { id: Number(row.id) });
    const expired = await signLinkToken(env.JWT_SECRET, 'newsletter-confirm', { id: Number(row.id) }, new Date(Date.now() - 8 * 24 * 3600 * 1000));
    const otherEmail = await legacyToken('newsletter-confirm', Number(row.id), 'someone@example.com');
    const otherId = await signLinkToken(env.JWT_SECRET, 'newsletter-confirm', { id: Number(row.id) + 1000 });
    const tampered = token.slice(0, -3) + (token.endsWith('AAA') ? 'BBB' : 'AAA');
    for (const body of [{}, { token: '' }, { token: 'garbage' }, { token: tampered }, { token: forged }, { token: wrongPurpose }, { token: expired }, { token: otherEmail }, { token: otherId }]) {
      const res = await client().api.newsletter.confirm.$post({ json: body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(await res.json()).toEqual({ message: 'This confirmation link is invalid or has expired' });
    }
    expect((await subscriber('tok@example.com'))?.active).toBe('false');
  });

  it('an old confirmation link cannot re-subscribe someone who unsubscribed later', async () => {
    await client({ env: MAILBOX_ENV }).api.newsletter.subscribe.$post({ json: { email: 'late@example.com' } });
    const [link] = await confirmationLinks('late@example.com');
    await confirm(link);
    const row = (await subscriber('late@example.com'))!;
    const unsubscribeToken = await signLinkToken(env.JWT_SECRET, 'newsletter-unsubscribe', { id: Number(row.id) });
    expect((await client().api.newsletter.unsubscribe.$post({ json: { token: unsubscribeToken } })).status).toBe(200);
    expect((await confirm(link)).status).toBe(400);
    expect((await subscriber('late@example.com'))?.active).toBe('false');
    // Signing up again sends a fresh link, which works.
    await env.DB.prepare("UPDATE newsletter_subscriptions SET confirmation_sent_at = 0 WHERE email = 'late@example.com'").run();
    await client({ env: MAILBOX_ENV }).api.newsletter.subscribe.$post({ json: { email: 'late@example.com' } });
    const links = await confirmationLinks('late@example.com');
    expect(links).toHaveLength(2);
    expect((await confirm(links[1])).status).toBe(200);
    expect(await subscriber('late@example.com')).toMatchObject({ active: 'true', unsubscribed_at: null });
  });
});

describe('opt-in that link scanners cannot complete, with tokens that name nobody', () => {
  it('a GET of the link, old form or new, changes nothing: the old one forwards to the page with the button', async () => {
    await client({ env: MAILBOX_ENV }).api.newsletter.subscribe.$post({ json: { email: 'scanner@example.com' } });
    const [link] = await confirmationLinks('scanner@example.com');
    const token = new URL(link).searchParams.get('token')!;
    // What a mail scanner does: open the e-mailed link, and the link as e-mails carried it before.
    const page = await open(link);
    expect(page.status).not.toBe(303);
    const old = await open(`${ORIGIN}/api/newsletter/confirm?token=${encodeURIComponent(token)}`);
    expect(old.status).toBe(303);
    expect(old.headers.get('location')).toBe(`/newsletter/confirm?token=${encodeURIComponent(token)}`);
    expect((await open(`${ORIGIN}/api/newsletter/confirm`)).headers.get('location')).toBe('/newsletter/invalid-link');
    expect(await subscriber('scanner@example.com')).toMatchObject({ active: 'false', confirmed_at: null });
    expect((await confirm(link)).status).toBe(200);
    expect((await subscriber('scanner@example.com'))?.active).toBe('true');
  });

  it('the tokens in the e-mails carry the subscriber id, never the address', async () => {
    await client({ env: MAILBOX_ENV }).api.newsletter.subscribe.$post({ json: { email: 'opaque.person@example.com' } });
    const row = (await subscriber('opaque.person@example.com'))!;
    const [link] = await confirmationLinks('opaque.person@example.com');
    const token = new URL(link).searchParams.get('token')!;
    const [header, payload] = token.split('.').slice(0, 2).map((part) => atob(part.replace(/-/g, '+').replace(/_/g, '/')));
    expect(`${header}${payload}`).not.toContain('@');
    expect(`${header}${payload}`).not.toMatch(/opaque/i);
    expect(JSON.parse(payload)).toMatchObject({ sub: String(row.id), aud: 'newsletter-confirm' });
    expect(JSON.parse(payload)).not.toHaveProperty('em');
  });

  it('links mailed before the change (address in the token) stay valid until they expire, for their own address only', async () => {
    await env.DB.prepare("INSERT INTO newsletter_subscriptions (email, active, confirmed_at) VALUES ('legacy@example.com', 'true', 1)").run();
    const row = (await subscriber('legacy@example.com'))!;
    const wrongAddress = await legacyToken('newsletter-unsubscribe', Number(row.id), 'other@example.com');
    expect((await client().api.newsletter.unsubscribe.$post({ json: { token: wrongAddress } })).status).toBe(400);
    const expired = await legacyToken('newsletter-unsubscribe', Number(row.id), 'legacy@example.com', new Date(Date.now() - 366 * 24 * 3600 * 1000));
    expect((await client().api.newsletter.unsubscribe.$post({ json: { token: expired } })).status).toBe(400);
    expect((await subscriber('legacy@example.com'))?.active).toBe('true');
    const valid = await legacyToken('newsletter-unsubscribe', Number(row.id), 'legacy@example.com');
    expect((await client().api.newsletter.unsubscribe.$post({ json: { token: valid } })).status).toBe(200);
    expect((await subscriber('legacy@example.com'))?.active).toBe('false');
  });
});

describe('unsubscribe', () => {
  async function activeSubscriber(email: string) {
    await env.DB.prepare("INSERT INTO newsletter_subscriptions (email, active, confirmed_at) VALUES (?, 'true', 1)").bind(email).run();
    const row = (await subscriber(email))!;
    return signLinkToken(env.JWT_SECRET, 'newsletter-unsubscribe', { id: Number(row.id) });
  }

  it('GET checks the link and changes nothing (mail scanners follow links)', async () => {
    const token = await activeSubscriber('scan@example.com');
    const res = await client().api.newsletter.unsubscribe.$get({ query: { token } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ valid: true, email: 's***@example.com' });
    expect((await subscriber('scan@example.com'))?.active).toBe('true');
    expect(await (await client().api.newsletter.unsubscribe.$get({ query: { token: 'nope' } })).json()).toEqual({ valid: false });
  });

  it('POST with the JSON token (the page button) unsubscribes, idempotently', async () => {
    const token = await activeSubscriber('button@example.com');
    const res = await client().api.newsletter.unsubscribe.$post({ json: { token } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: 'You have been unsubscribed' });
    const row = await subscriber('button@example.com');
    expect(row?.active).toBe('false');
    expect(row?.unsubscribed_at).toBeTypeOf('number');
    expect((await client().api.newsletter.unsubscribe.$post({ json: { token } })).status).toBe(200);
  });

  it('accepts an RFC 8058 one-click POST from a mail provider (cross-site, form body, token in the URL)', async () => {
    const token = await activeSubscriber('oneclick@example.com');
    // Raw call: a form-encoded body, as a mail provider sends it.
    const res = await call(`/api/newsletter/unsubscribe?token=${encodeURIComponent(token)}`, {
      method: 'POST',
      rawBody: 'List-Unsubscribe=One-Click',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://mail.provider.example', 'sec-fetch-site': 'cross-site' },
    });
    expect(res.status).toBe(200);
    expect((await subscriber('oneclick@example.com'))?.active).toBe('false');
  });

  it('refuses bad, expired and confirmation tokens with 400 and changes nothing', async () => {
    const token = await activeSubscriber('keep@example.com');
    const row = (await subscriber('keep@example.com'))!;
    const expired = await signLinkToken(env.JWT_SECRET, 'newsletter-unsubscribe', { id: Number(row.id) }, new Date(Date.now() - 366 * 24 * 3600 * 1000));
    const confirmToken = await signLinkToken(env.JWT_SECRET, 'newsletter-confirm', { id: Number(row.id) });
    for (const body of [{}, { token: '' }, { token: 'x.y.z' }, { token: token + 'x' }, { token: expired }, { token: confirmToken }]) {
      const res = await client().api.newsletter.unsubscribe.$post({ json: body });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { message: string }).message).toBe('This unsubscribe link is invalid or has expired');
    }
    expect((await subscriber('keep@example.com'))?.active).toBe('true');
  });

  it('answers a token of the wrong type or length as a wrong token (GET: not valid; POST: 400)', async () => {
    const token = await activeSubscriber('typed@example.com');
    for (const body of [{ token: 42 }, { token: [token] }, { token: 'x'.repeat(2049) }]) {
      // Raw call: the body is malformed on purpose, which the typed client would not compile.
      const res = await call('/api/newsletter/unsubscribe', { body });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { message: string }).message).toBe('This unsubscribe link is invalid or has expired');
    }
    // Raw call: the token twice in the query, which the typed client cannot send.
    const twice = await call(`/api/newsletter/unsubscribe?token=${encodeURIComponent(token)}&token=${encodeURIComponent(token)}`);
    expect(await twice.json()).toEqual({ valid: false });
    const long = await client().api.newsletter.unsubscribe.$get({ query: { token: 'x'.repeat(2049) } });
    expect(long.status).toBe(200);
    expect(await long.json()).toEqual({ valid: false });
    expect((await subscriber('typed@example.com'))?.active).toBe('true');
  });

  it('accepts the token from a plain HTML form body too', async () => {
    const token = await activeSubscriber('form@example.com');
    // Raw call: a form-encoded body, as an HTML form sends it.
    const res = await call('/api/newsletter/unsubscribe', {
      method: 'POST',
      rawBody: new URLSearchParams({ token }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(200);
    expect((await subscriber('form@example.com'))?.active).toBe('false');
  });
});
