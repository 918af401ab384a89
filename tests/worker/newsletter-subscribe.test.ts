import { env } from 'cloudflare:test';
import { exports } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { signLinkToken } from '../../worker/services/newsletter/tokens';
import { call, ORIGIN } from './helpers';
import { callWithEnv } from './submission-helpers';

// Links in e-mails use SITE_URL (wrangler.toml [vars]; a developer's .dev.vars may override it).
const SITE = env.SITE_URL.replace(/\/+$/, '');

async function subscriber(email: string) {
  return env.DB.prepare('SELECT * FROM newsletter_subscriptions WHERE email = ?').bind(email).first<Record<string, unknown>>();
}

async function confirmationLinks(email: string): Promise<string[]> {
  const rows = await env.DB.prepare("SELECT text_body FROM email_log WHERE kind = 'newsletter-confirmation' AND \"to\" = ? ORDER BY id").bind(email).all<{ text_body: string }>();
  return rows.results.map((r) => /(https?:\/\/\S+\/api\/newsletter\/confirm\?token=\S+)/.exec(r.text_body)![1]);
}

/** Opens a link from an e-mail against the real worker, without following the redirect. */
async function open(link: string) {
  const url = new URL(link);
  return exports.default.fetch(new Request(`${ORIGIN}${url.pathname}${url.search}`, { redirect: 'manual' }));
}

const SUBSCRIBE_ANSWER = { message: 'Thank you! Please check your inbox and click the link in our e-mail to confirm your subscription.' };

describe('POST /api/newsletter/subscribe', () => {
  it('creates a pending subscriber and mails a confirmation link; the link activates it', async () => {
    const res = await call('/api/newsletter/subscribe', { body: { email: 'New.Person@Example.com', name: 'New Person' } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(SUBSCRIBE_ANSWER);
    expect(await subscriber('new.person@example.com')).toMatchObject({ active: 'false', name: 'New Person', confirmed_at: null });

    const [link] = await confirmationLinks('new.person@example.com');
    expect(link.startsWith(`${SITE}/api/newsletter/confirm?token=`)).toBe(true);
    const confirmed = await open(link);
    expect(confirmed.status).toBe(303);
    expect(confirmed.headers.get('location')).toBe('/newsletter/confirmed');
    const row = await subscriber('new.person@example.com');
    expect(row).toMatchObject({ active: 'true' });
    expect(row?.confirmed_at).toBeTypeOf('number');
    // Following it again is harmless.
    expect((await open(link)).headers.get('location')).toBe('/newsletter/confirmed');
  });

  it("links to the request's origin only when a deployment has no SITE_URL", async () => {
    expect(SITE).toMatch(/^https?:\/\/[^/]+$/);
    expect((await callWithEnv({ SITE_URL: '' }, '/api/newsletter/subscribe', { body: { email: 'no-site@example.com' } })).status).toBe(200);
    const [link] = await confirmationLinks('no-site@example.com');
    expect(link.startsWith(`${ORIGIN}/api/newsletter/confirm?token=`)).toBe(true);
  });

  it('answers the same for new, pending and active addresses and never creates a second row', async () => {
    const answers = [];
    answers.push(await (await call('/api/newsletter/subscribe', { body: { email: 'dup@example.com' } })).json());
    answers.push(await (await call('/api/newsletter/subscribe', { body: { email: 'DUP@example.com' } })).json());
    await env.DB.prepare("UPDATE newsletter_subscriptions SET active = 'true' WHERE email = 'dup@example.com'").run();
    const active = await call('/api/newsletter/subscribe', { body: { email: 'dup@example.com' } });
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
      const res = await call('/api/newsletter/subscribe', { body: { email } });
      expect(res.status, email).toBe(400);
      expect(((await res.json()) as { message: string }).message).toBe('Please enter a valid email address');
    }
    const crlf = await call('/api/newsletter/subscribe', { body: { email: 'a@example.com\r\nBcc: b@example.com' } });
    expect(crlf.status).toBe(400);
    const count = await env.DB.prepare('SELECT count(*) AS n FROM email_log').first<{ n: number }>();
    expect(count?.n).toBe(0);
  });

  it('limits sign-ups per IP', async () => {
    for (let i = 0; i < 10; i++) {
      expect((await call('/api/newsletter/subscribe', { body: { email: `p${i}@example.com` }, ip: '198.51.100.1' })).status).toBe(200);
    }
    expect((await call('/api/newsletter/subscribe', { body: { email: 'p11@example.com' }, ip: '198.51.100.1' })).status).toBe(429);
    expect((await call('/api/newsletter/subscribe', { body: { email: 'p11@example.com' }, ip: '198.51.100.2' })).status).toBe(200);
  });
});

describe('confirmation links', () => {
  it('reject forged, tampered, wrong-purpose and expired tokens', async () => {
    await call('/api/newsletter/subscribe', { body: { email: 'tok@example.com' } });
    const row = (await subscriber('tok@example.com'))!;
    const [link] = await confirmationLinks('tok@example.com');
    const token = new URL(link).searchParams.get('token')!;
    const forged = await signLinkToken('another-secret-that-is-long-enough-000000', 'newsletter-confirm', { id: Number(row.id), email: 'tok@example.com' });
    const wrongPurpose = await signLinkToken(env.JWT_SECRET, 'newsletter-unsubscribe', { id: Number(row.id), email: 'tok@example.com' });
    const expired = await signLinkToken(env.JWT_SECRET, 'newsletter-confirm', { id: Number(row.id), email: 'tok@example.com' }, new Date(Date.now() - 8 * 24 * 3600 * 1000));
    const otherEmail = await signLinkToken(env.JWT_SECRET, 'newsletter-confirm', { id: Number(row.id), email: 'someone@example.com' });
    const tampered = token.slice(0, -3) + (token.endsWith('AAA') ? 'BBB' : 'AAA');
    for (const bad of ['', 'garbage', tampered, forged, wrongPurpose, expired, otherEmail]) {
      const res = await open(`${ORIGIN}/api/newsletter/confirm?token=${encodeURIComponent(bad)}`);
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toBe('/newsletter/invalid-link');
    }
    expect((await subscriber('tok@example.com'))?.active).toBe('false');
  });

  it('an old confirmation link cannot re-subscribe someone who unsubscribed later', async () => {
    await call('/api/newsletter/subscribe', { body: { email: 'late@example.com' } });
    const [link] = await confirmationLinks('late@example.com');
    await open(link);
    const row = (await subscriber('late@example.com'))!;
    const unsubscribeToken = await signLinkToken(env.JWT_SECRET, 'newsletter-unsubscribe', { id: Number(row.id), email: 'late@example.com' });
    expect((await call('/api/newsletter/unsubscribe', { body: { token: unsubscribeToken } })).status).toBe(200);
    expect((await open(link)).headers.get('location')).toBe('/newsletter/invalid-link');
    expect((await subscriber('late@example.com'))?.active).toBe('false');
    // Signing up again sends a fresh link, which works.
    await env.DB.prepare("UPDATE newsletter_subscriptions SET confirmation_sent_at = 0 WHERE email = 'late@example.com'").run();
    await call('/api/newsletter/subscribe', { body: { email: 'late@example.com' } });
    const links = await confirmationLinks('late@example.com');
    expect(links).toHaveLength(2);
    expect((await open(links[1])).headers.get('location')).toBe('/newsletter/confirmed');
    expect(await subscriber('late@example.com')).toMatchObject({ active: 'true', unsubscribed_at: null });
  });
});

describe('unsubscribe', () => {
  async function activeSubscriber(email: string) {
    await env.DB.prepare("INSERT INTO newsletter_subscriptions (email, active, confirmed_at) VALUES (?, 'true', 1)").bind(email).run();
    const row = (await subscriber(email))!;
    return signLinkToken(env.JWT_SECRET, 'newsletter-unsubscribe', { id: Number(row.id), email });
  }

  it('GET checks the link and changes nothing (mail scanners follow links)', async () => {
    const token = await activeSubscriber('scan@example.com');
    const res = await call(`/api/newsletter/unsubscribe?token=${encodeURIComponent(token)}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ valid: true, email: 's***@example.com' });
    expect((await subscriber('scan@example.com'))?.active).toBe('true');
    expect(await (await call('/api/newsletter/unsubscribe?token=nope')).json()).toEqual({ valid: false });
  });

  it('POST with the JSON token (the page button) unsubscribes, idempotently', async () => {
    const token = await activeSubscriber('button@example.com');
    const res = await call('/api/newsletter/unsubscribe', { body: { token } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: 'You have been unsubscribed' });
    const row = await subscriber('button@example.com');
    expect(row?.active).toBe('false');
    expect(row?.unsubscribed_at).toBeTypeOf('number');
    expect((await call('/api/newsletter/unsubscribe', { body: { token } })).status).toBe(200);
  });

  it('accepts an RFC 8058 one-click POST from a mail provider (cross-site, form body, token in the URL)', async () => {
    const token = await activeSubscriber('oneclick@example.com');
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
    const expired = await signLinkToken(env.JWT_SECRET, 'newsletter-unsubscribe', { id: Number(row.id), email: 'keep@example.com' }, new Date(Date.now() - 366 * 24 * 3600 * 1000));
    const confirmToken = await signLinkToken(env.JWT_SECRET, 'newsletter-confirm', { id: Number(row.id), email: 'keep@example.com' });
    for (const body of [{}, { token: '' }, { token: 'x.y.z' }, { token: token + 'x' }, { token: expired }, { token: confirmToken }]) {
      const res = await call('/api/newsletter/unsubscribe', { body });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { message: string }).message).toBe('This unsubscribe link is invalid or has expired');
    }
    expect((await subscriber('keep@example.com'))?.active).toBe('true');
  });

  it('answers a token of the wrong type or length as a wrong token (GET: not valid; POST: 400)', async () => {
    const token = await activeSubscriber('typed@example.com');
    for (const body of [{ token: 42 }, { token: [token] }, { token: 'x'.repeat(2049) }]) {
      const res = await call('/api/newsletter/unsubscribe', { body });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { message: string }).message).toBe('This unsubscribe link is invalid or has expired');
    }
    const twice = await call(`/api/newsletter/unsubscribe?token=${encodeURIComponent(token)}&token=${encodeURIComponent(token)}`);
    expect(await twice.json()).toEqual({ valid: false });
    const long = await call(`/api/newsletter/unsubscribe?token=${'x'.repeat(2049)}`);
    expect(long.status).toBe(200);
    expect(await long.json()).toEqual({ valid: false });
    expect((await subscriber('typed@example.com'))?.active).toBe('true');
  });

  it('accepts the token from a plain HTML form body too', async () => {
    const token = await activeSubscriber('form@example.com');
    const res = await call('/api/newsletter/unsubscribe', {
      method: 'POST',
      rawBody: new URLSearchParams({ token }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(200);
    expect((await subscriber('form@example.com'))?.active).toBe('false');
  });
});
