import { env } from 'cloudflare:test';
import { describe, expect, it, vi } from 'vitest';
import { getDb } from '../../worker/db/client';
import { KEY_FETCH_INTERVAL_MS, NO_ACCOUNT_ID_MESSAGE, UNKNOWN_KEY_TTL_MS } from '../../worker/services/email/delivery-webhook';
import { parseSignatureInput } from '../../worker/services/email/webhook-signature';
import { sendNewsletterBatch } from '../../worker/services/newsletter/sender';
import { createNewsletter } from '../../worker/services/newsletter/store';
import { signLinkToken } from '../../worker/services/newsletter/tokens';
import { client, signIn } from '../harness/worker/helpers';
import { callWith, fakeMailChannels, mailChannelsEnv } from '../harness/worker/mailchannels-fake';
import {
  fakeMailChannelsWebhooks,
  generateEd25519,
  mcEvent,
  postSignedEvents,
  postWebhook,
} from '../harness/worker/mailchannels-webhook-fake';

type SubscriberRow = {
  email: string;
  active: string;
  suppressed_at: number | null;
  suppression_reason: string | null;
  suppression_detail: string | null;
  soft_bounces: number;
};
type LogRow = { id: number; delivery_status: string | null; delivery_detail: string | null; delivery_updated_at: number | null };

async function addSubscriber(email: string, active = true) {
  await env.DB.prepare("INSERT INTO newsletter_subscriptions (email, active, confirmed_at) VALUES (?, ?, 1)").bind(email, active ? 'true' : 'false').run();
}

async function addSubscribers(...emails: string[]) {
  for (const email of emails) await addSubscriber(email);
}

/** An e-mail log entry as sendEmail leaves it after MailChannels accepted the message. */
async function addLogEntry(to: string, providerId: string): Promise<number> {
  const row = await env.DB.prepare(
    "INSERT INTO email_log (\"to\", subject, kind, status, transport, provider_id, text_body) VALUES (?, 'Hello', 'newsletter', 'sent', 'mailchannels', ?, 'Hi') RETURNING id",
  )
    .bind(to, providerId)
    .first<{ id: number }>();
  return row!.id;
}

const subscriber = (email: string) => env.DB.prepare('SELECT * FROM newsletter_subscriptions WHERE email = ?').bind(email).first<SubscriberRow>();
const logEntry = (id: number) => env.DB.prepare('SELECT * FROM email_log WHERE id = ?').bind(id).first<LogRow>();
const eventCount = async () => (await env.DB.prepare('SELECT count(*) AS n FROM delivery_events').first<{ n: number }>())!.n;

const HARD_BOUNCE = { status: '550', reason: '5.1.1 The email account that you tried to reach does not exist' };
const SOFT_BOUNCE = { status: '452', reason: '4.2.2 Mailbox full' };

async function setup() {
  const fake = await fakeMailChannelsWebhooks();
  return { fake, testEnv: mailChannelsEnv() };
}

/** Moves the worker's clock (Date.now) forward by `ms` until the returned spy is restored. */
function laterBy(ms: number) {
  const realNow = Date.now.bind(Date);
  return vi.spyOn(Date, 'now').mockImplementation(() => realNow() + ms);
}

describe('POST /api/webhooks/mailchannels: signature verification', () => {
  it('applies a correctly signed hard bounce: the subscriber is suppressed and the log entry updated', async () => {
    const { fake, testEnv } = await setup();
    await addSubscriber('gone@example.com');
    const logId = await addLogEntry('gone@example.com', 'req-gone');

    const at = Math.floor(Date.now() / 1000) - 30;
    const res = await postSignedEvents(testEnv, fake, [mcEvent('hard-bounced', 'gone@example.com', 'req-gone', { ...HARD_BOUNCE, timestamp: at })]);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ received: 1, applied: 1, duplicates: 0, ignored: 0, otherAccount: 0 });

    expect(await subscriber('gone@example.com')).toMatchObject({
      active: 'false',
      suppressed_at: at * 1000,
      suppression_reason: 'bounced',
      suppression_detail: `hard-bounced: 550 ${HARD_BOUNCE.reason}`,
    });
    expect(await logEntry(logId)).toMatchObject({ delivery_status: 'hard-bounced', delivery_detail: `550 ${HARD_BOUNCE.reason}`, delivery_updated_at: at * 1000 });
  });

  it('refuses a tampered body with 401 and changes nothing', async () => {
    const { fake, testEnv } = await setup();
    await addSubscriber('victim@example.com');
    const signedBody = JSON.stringify([mcEvent('delivered', 'victim@example.com', 'req-1')]);
    const headers = await fake.sign(signedBody);
    const tampered = JSON.stringify([mcEvent('complained', 'victim@example.com', 'req-1')]);

    const res = await postWebhook(testEnv, tampered, headers);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ message: 'The body does not match its Content-Digest' });

    // A tampered body with a recomputed digest: the signature (over the old digest) no longer verifies.
    const digest = (await fake.sign(tampered))['content-digest'];
    const res2 = await postWebhook(testEnv, tampered, { ...headers, 'content-digest': digest });
    expect(res2.status).toBe(401);
    expect(await res2.json()).toEqual({ message: 'The signature does not verify' });
    // A truncated signature is refused the same way, not answered 500.
    const truncated = headers.signature.replace(/=:(.{8}).*:$/, '=:$1:');
    expect((await postWebhook(testEnv, signedBody, { ...headers, signature: truncated })).status).toBe(401);

    expect(await subscriber('victim@example.com')).toMatchObject({ active: 'true', suppressed_at: null });
    expect(await eventCount()).toBe(0);
  });

  it('refuses events signed by another key pair under the same key id', async () => {
    const { fake, testEnv } = await setup();
    await addSubscriber('victim@example.com');
    const attacker = await generateEd25519();
    const res = await postSignedEvents(testEnv, fake, [mcEvent('complained', 'victim@example.com', 'req-1')], { privateKey: attacker.privateKey });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ message: 'The signature does not verify' });
    expect(await subscriber('victim@example.com')).toMatchObject({ active: 'true', suppressed_at: null });
  });

  it('refuses a key id MailChannels does not know', async () => {
    const { fake, testEnv } = await setup();
    const attacker = await generateEd25519();
    const res = await postSignedEvents(testEnv, fake, [mcEvent('complained', 'x@example.com', 'req-1')], {
      privateKey: attacker.privateKey,
      keyId: 'attacker-key',
    });
    expect(res.status).toBe(401);
  });

  it('refuses stale signatures and signatures from the future', async () => {
    const { fake, testEnv } = await setup();
    await addSubscriber('victim@example.com');
    const now = Math.floor(Date.now() / 1000);
    const events = [mcEvent('complained', 'victim@example.com', 'req-1')];

    const stale = await postSignedEvents(testEnv, fake, events, { created: now - 301 });
    expect(stale.status).toBe(401);
    expect(await stale.json()).toEqual({ message: 'The signature has expired' });
    const future = await postSignedEvents(testEnv, fake, events, { created: now + 600 });
    expect(future.status).toBe(401);
    // Inside the window (4 minutes old) it is accepted.
    const fresh = await postSignedEvents(testEnv, fake, events, { created: now - 240 });
    expect(fresh.status).toBe(200);
    expect(await subscriber('victim@example.com')).toMatchObject({ suppression_reason: 'complained' });
  });

  it('refuses unsigned requests and requests missing one of the three headers', async () => {
    const { fake, testEnv } = await setup();
    await addSubscriber('victim@example.com');
    const body = JSON.stringify([mcEvent('complained', 'victim@example.com', 'req-1')]);
    const headers = await fake.sign(body);

    const unsigned = await postWebhook(testEnv, body, { 'content-type': 'application/json' });
    expect(unsigned.status).toBe(401);
    expect(await unsigned.json()).toEqual({ message: 'The request is not signed' });
    for (const missing of ['content-digest', 'signature-input', 'signature']) {
      const partial = Object.fromEntries(Object.entries(headers).filter(([name]) => name !== missing));
      expect((await postWebhook(testEnv, body, partial)).status, missing).toBe(401);
    }
    // A signature that does not cover the body's digest proves nothing about the body.
    const uncovered = headers['signature-input'].replace('("content-digest")', '("@method")');
    expect((await postWebhook(testEnv, body, { ...headers, 'signature-input': uncovered })).status).toBe(401);
    expect(fake.keyFetches).toBe(0); // none of these reached MailChannels
    expect(await subscriber('victim@example.com')).toMatchObject({ active: 'true', suppressed_at: null });
  });

  it('a replayed request is answered 200 and applies nothing twice', async () => {
    const { fake, testEnv } = await setup();
    await addSubscriber('full@example.com');
    const body = JSON.stringify([mcEvent('soft-bounced', 'full@example.com', 'req-1', SOFT_BOUNCE)]);
    const headers = await fake.sign(body);

    const first = await postWebhook(testEnv, body, headers);
    expect(await first.json()).toEqual({ received: 1, applied: 1, duplicates: 0, ignored: 0, otherAccount: 0 });
    const replay = await postWebhook(testEnv, body, headers);
    expect(replay.status).toBe(200);
    expect(await replay.json()).toEqual({ received: 1, applied: 0, duplicates: 1, ignored: 0, otherAccount: 0 });
    expect(await subscriber('full@example.com')).toMatchObject({ soft_bounces: 1, active: 'true' });
    expect(await eventCount()).toBe(1);
  });

  it('accepts cross-site POSTs (MailChannels is another site) and large arrays', async () => {
    const { fake, testEnv } = await setup();
    const body = JSON.stringify([mcEvent('processed', 'a@example.com', 'req-1')]);
    const res = await postWebhook(testEnv, body, { ...(await fake.sign(body)), origin: 'https://mailchannels.net', 'sec-fetch-site': 'cross-site' });
    expect(res.status).toBe(200);
  });
});

describe('Signature-Input parsing (RFC 9421 structured fields)', () => {
  it('reads each member: label, covered components, parameters, and its text for @signature-params', () => {
    const header = 'other=("@method" "@path");created=1;keyid="x", sig_mc=("content-digest");created=1700000000;alg="ed25519";keyid="k-1"';
    expect(parseSignatureInput(header)).toEqual([
      { label: 'other', components: ['@method', '@path'], params: { created: 1, keyid: 'x' }, raw: '("@method" "@path");created=1;keyid="x"' },
      {
        label: 'sig_mc',
        components: ['content-digest'],
        params: { created: 1700000000, alg: 'ed25519', keyid: 'k-1' },
        raw: '("content-digest");created=1700000000;alg="ed25519";keyid="k-1"',
      },
    ]);
    expect(parseSignatureInput('sig=content-digest;created=1')).toEqual([]);
  });

  it('verifies the member that covers the digest when the headers carry several signatures', async () => {
    const { fake, testEnv } = await setup();
    await addSubscriber('angry@example.com');
    const body = JSON.stringify([mcEvent('complained', 'angry@example.com', 'req-1')]);
    const headers = await fake.sign(body);
    const res = await postWebhook(testEnv, body, {
      ...headers,
      'signature-input': `old=("@method");created=1;keyid="gone", ${headers['signature-input']}`,
      signature: `old=:${btoa('x')}:, ${headers.signature}`,
    });
    expect(res.status).toBe(200);
    expect(await subscriber('angry@example.com')).toMatchObject({ suppression_reason: 'complained' });
  });
});

describe('POST /api/webhooks/mailchannels: the signing key', () => {
  it('is fetched once and then read from the cache', async () => {
    const { fake, testEnv } = await setup();
    for (let i = 0; i < 3; i++) {
      expect((await postSignedEvents(testEnv, fake, [mcEvent('delivered', 'a@example.com', `req-${i}`)])).status).toBe(200);
    }
    expect(fake.keyFetches).toBe(1);
  });

  it('answers 503 when the key cannot be fetched (so MailChannels retries), and applies nothing', async () => {
    const { fake, testEnv } = await setup();
    await addSubscriber('gone@example.com');
    const events = [mcEvent('hard-bounced', 'gone@example.com', 'req-1', HARD_BOUNCE)];
    for (const state of ['error', 'network-error'] as const) {
      fake.keyEndpoint = state;
      const res = await postSignedEvents(testEnv, fake, events);
      expect(res.status, state).toBe(503);
      expect(await res.json()).toEqual({ message: 'The signing key is unavailable; try again later' });
    }
    expect(await subscriber('gone@example.com')).toMatchObject({ active: 'true', suppressed_at: null });
    expect(await eventCount()).toBe(0);

    // MailChannels' retry, once the key endpoint is back (and the isolate's fetch interval over), applies the events.
    fake.keyEndpoint = 'up';
    const later = laterBy(KEY_FETCH_INTERVAL_MS + 1000);
    try {
      expect((await postSignedEvents(testEnv, fake, events)).status).toBe(200);
    } finally {
      later.mockRestore();
    }
    expect(await subscriber('gone@example.com')).toMatchObject({ active: 'false', suppression_reason: 'bounced' });
  });
});

describe('delivery events: what each one does', () => {
  it('delivered, soft-bounced and a temporary drop update the log entry only', async () => {
    const { fake, testEnv } = await setup();
    await addSubscribers('ok@example.com', 'later@example.com', 'blocked@example.com');
    const ok = await addLogEntry('ok@example.com', 'req-ok');
    const later = await addLogEntry('later@example.com', 'req-later');
    const blocked = await addLogEntry('blocked@example.com', 'req-blocked');
    const other = await addLogEntry('ok@example.com', 'req-other');

    const res = await postSignedEvents(testEnv, fake, [
      mcEvent('processed', 'ok@example.com', 'req-ok'),
      mcEvent('delivered', 'ok@example.com', 'req-ok'),
      mcEvent('soft-bounced', 'later@example.com', 'req-later', SOFT_BOUNCE),
      mcEvent('dropped', 'blocked@example.com', 'req-blocked', { status: '421', reason: 'Temporarily deferred by policy' }),
      mcEvent('open', 'ok@example.com', 'req-ok'),
      mcEvent('brand-new-event', 'ok@example.com', 'req-ok'),
    ]);
    expect(await res.json()).toEqual({ received: 6, applied: 3, duplicates: 0, ignored: 3, otherAccount: 0 });

    expect(await logEntry(ok)).toMatchObject({ delivery_status: 'delivered', delivery_detail: null });
    expect(await logEntry(later)).toMatchObject({ delivery_status: 'soft-bounced', delivery_detail: `452 ${SOFT_BOUNCE.reason}` });
    expect(await logEntry(blocked)).toMatchObject({ delivery_status: 'dropped', delivery_detail: '421 Temporarily deferred by policy' });
    expect(await logEntry(other)).toMatchObject({ delivery_status: null }); // another message to the same address
    expect(await subscriber('ok@example.com')).toMatchObject({ active: 'true', suppressed_at: null, soft_bounces: 0 });
    expect(await subscriber('later@example.com')).toMatchObject({ active: 'true', suppressed_at: null, soft_bounces: 1 });
    expect(await subscriber('blocked@example.com')).toMatchObject({ active: 'true', suppressed_at: null });
  });

  it('a complaint and a permanent drop suppress the address', async () => {
    const { fake, testEnv } = await setup();
    await addSubscribers('angry@example.com', 'listed@example.com', 'dead@example.com');
    const angry = await addLogEntry('angry@example.com', 'req-a');

    await postSignedEvents(testEnv, fake, [
      mcEvent('delivered', 'angry@example.com', 'req-a'),
      mcEvent('complained', 'angry@example.com', 'req-a', { timestamp: Math.floor(Date.now() / 1000) + 1 }),
      mcEvent('dropped', 'listed@example.com', 'req-l', { reason: 'Recipient is on the suppression list' }),
      mcEvent('dropped', 'dead@example.com', 'req-d', { status: '5.1.1', reason: 'Invalid recipient' }),
    ]);
    expect(await subscriber('angry@example.com')).toMatchObject({ active: 'false', suppression_reason: 'complained', suppression_detail: 'complained' });
    expect(await logEntry(angry)).toMatchObject({ delivery_status: 'complained' });
    expect(await subscriber('listed@example.com')).toMatchObject({
      active: 'false',
      suppression_reason: 'bounced',
      suppression_detail: 'dropped: Recipient is on the suppression list',
    });
    expect(await subscriber('dead@example.com')).toMatchObject({ active: 'false', suppression_reason: 'bounced', suppression_detail: 'dropped: 5.1.1 Invalid recipient' });
  });

  it('an older event arriving late does not overwrite the log entry', async () => {
    const { fake, testEnv } = await setup();
    const log = await addLogEntry('late@example.com', 'req-1');
    const now = Math.floor(Date.now() / 1000);
    await postSignedEvents(testEnv, fake, [mcEvent('delivered', 'late@example.com', 'req-1', { timestamp: now })]);
    await postSignedEvents(testEnv, fake, [mcEvent('soft-bounced', 'late@example.com', 'req-1', { ...SOFT_BOUNCE, timestamp: now - 60 })]);
    expect(await logEntry(log)).toMatchObject({ delivery_status: 'delivered', delivery_updated_at: now * 1000 });
  });

  it('three soft-bounced messages in a row suppress; a delivery in between starts the count again', async () => {
    const { fake, testEnv } = await setup();
    await addSubscribers('flaky@example.com', 'full@example.com');
    const t = Math.floor(Date.now() / 1000);
    const soft = (to: string, req: string, dt: number) => mcEvent('soft-bounced', to, req, { ...SOFT_BOUNCE, timestamp: t + dt });

    // flaky: two soft bounces, a delivery, two more: never three in a row.
    await postSignedEvents(testEnv, fake, [soft('flaky@example.com', 'f1', 0), soft('flaky@example.com', 'f2', 1)]);
    await postSignedEvents(testEnv, fake, [mcEvent('delivered', 'flaky@example.com', 'f3', { timestamp: t + 2 }), soft('flaky@example.com', 'f4', 3)]);
    await postSignedEvents(testEnv, fake, [soft('flaky@example.com', 'f5', 4)]);
    expect(await subscriber('flaky@example.com')).toMatchObject({ active: 'true', suppressed_at: null, soft_bounces: 2 });

    // full: MailChannels reports several soft bounces for one message while it retries; they count once.
    await postSignedEvents(testEnv, fake, [soft('full@example.com', 'm1', 0), soft('full@example.com', 'm1', 600), soft('full@example.com', 'm1', 1200)]);
    expect(await subscriber('full@example.com')).toMatchObject({ active: 'true', soft_bounces: 1 });
    await postSignedEvents(testEnv, fake, [soft('full@example.com', 'm2', 1300)]);
    expect(await subscriber('full@example.com')).toMatchObject({ active: 'true', soft_bounces: 2 });
    await postSignedEvents(testEnv, fake, [soft('full@example.com', 'm3', 1400)]);
    expect(await subscriber('full@example.com')).toMatchObject({
      active: 'false',
      soft_bounces: 3,
      suppressed_at: (t + 1400) * 1000,
      suppression_reason: 'bounced',
      suppression_detail: `3 soft bounces in a row; last: 452 ${SOFT_BOUNCE.reason}`,
    });
  });

  it('events of another MailChannels account are ignored (MAILCHANNELS_ACCOUNT_ID)', async () => {
    const { fake, testEnv } = await setup();
    await addSubscribers('mine@example.com', 'theirs@example.com');
    const res = await postSignedEvents(testEnv, fake, [
      mcEvent('complained', 'mine@example.com', 'req-1'),
      mcEvent('complained', 'theirs@example.com', 'req-2', { customer_handle: 'someone-else' }),
    ]);
    expect(await res.json()).toMatchObject({ applied: 1, ignored: 1, otherAccount: 1 });
    expect(await subscriber('mine@example.com')).toMatchObject({ active: 'false' });
    expect(await subscriber('theirs@example.com')).toMatchObject({ active: 'true' });
  });

  it('applies a full array of 1,000 events (D1 parameter limits), once', async () => {
    const { fake, testEnv } = await setup();
    const emails = Array.from({ length: 1000 }, (_, i) => `r${i}@example.com`);
    const inserts = emails.map((email) => env.DB.prepare("INSERT INTO newsletter_subscriptions (email, active) VALUES (?, 'true')").bind(email));
    for (let i = 0; i < inserts.length; i += 100) await env.DB.batch(inserts.slice(i, i + 100));
    const events = emails.map((email, i) => mcEvent(i % 2 ? 'hard-bounced' : 'delivered', email, `req-${i}`, i % 2 ? HARD_BOUNCE : {}));

    const res = await postSignedEvents(testEnv, fake, events);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ received: 1000, applied: 1000, duplicates: 0, ignored: 0, otherAccount: 0 });
    const suppressed = await env.DB.prepare("SELECT count(*) AS n FROM newsletter_subscriptions WHERE suppression_reason = 'bounced' AND active = 'false'").first<{ n: number }>();
    expect(suppressed!.n).toBe(500);
    expect(await eventCount()).toBe(1000);
  });
});

describe('a suppressed address', () => {
  it('gets nothing from the next send, is not counted as active, and cannot sign up again', async () => {
    await addSubscribers('stays@example.com', 'bounces@example.com');
    // The first newsletter goes out through MailChannels; each message gets its own request id.
    const sends = fakeMailChannels((_, i) => Response.json({ request_id: `req-${i}` }, { status: 202 }));
    const { fake, testEnv } = await setup();
    const db = getDb(testEnv.DB);
    await createNewsletter(db, { subject: 'First', content: '<p>One</p>', trigger: 'manual' });
    await sendNewsletterBatch(testEnv, db, { origin: 'https://northgatecpa.example' });
    expect(sends).toHaveLength(2);
    const bouncedIndex = sends.findIndex((r) => r.body.personalizations[0].to[0].email === 'bounces@example.com');

    // MailChannels reports the hard bounce for that message's request id.
    const res = await postSignedEvents(testEnv, fake, [mcEvent('hard-bounced', 'bounces@example.com', `req-${bouncedIndex}`, HARD_BOUNCE)]);
    expect(res.status).toBe(200);
    const log = await env.DB.prepare("SELECT delivery_status FROM email_log WHERE \"to\" = 'bounces@example.com' AND kind = 'newsletter'").first<LogRow>();
    expect(log!.delivery_status).toBe('hard-bounced');

    const cookie = await signIn();
    const stats = (await (await callWith(testEnv, '/api/admin/newsletter/stats', { cookie })).json()) as { activeSubscribers: number };
    expect(stats.activeSubscribers).toBe(1);

    const second = await createNewsletter(db, { subject: 'Second', content: '<p>Two</p>', trigger: 'manual' });
    expect(second.totalRecipients).toBe(1);
    await sendNewsletterBatch(testEnv, db, { origin: 'https://northgatecpa.example' });
    expect(sends.slice(2).map((r) => r.body.personalizations[0].to[0].email)).toEqual(['stays@example.com']);

    // Signing up again: the same public answer, no confirmation e-mail, still suppressed.
    const signup = await callWith(testEnv, '/api/newsletter/subscribe', { body: { email: 'Bounces@Example.com' } });
    expect(signup.status).toBe(200);
    expect(sends).toHaveLength(3);
    const confirmations = await env.DB.prepare("SELECT count(*) AS n FROM email_log WHERE kind = 'newsletter-confirmation'").first<{ n: number }>();
    expect(confirmations!.n).toBe(0);
    expect(await subscriber('bounces@example.com')).toMatchObject({ active: 'false', suppression_reason: 'bounced' });
  });

  it('is not reactivated by a confirmation link mailed before it bounced', async () => {
    const { fake, testEnv } = await setup();
    await env.DB.prepare("INSERT INTO newsletter_subscriptions (email, active) VALUES ('pending@example.com', 'false')").run();
    const row = await env.DB.prepare("SELECT id, email FROM newsletter_subscriptions WHERE email = 'pending@example.com'").first<{ id: number; email: string }>();
    const token = await signLinkToken(env.JWT_SECRET, 'newsletter-confirm', row!, new Date());
    await postSignedEvents(testEnv, fake, [mcEvent('hard-bounced', 'pending@example.com', 'req-c', HARD_BOUNCE)]);

    const res = await client().api.newsletter.confirm.$post({ json: { token } });
    expect(res.status).toBe(400);
    expect(await subscriber('pending@example.com')).toMatchObject({ active: 'false', suppression_reason: 'bounced' });
  });
});

describe('admin: enabling delivery events', () => {
  it('enrolls this site URL with MailChannels and reports it', async () => {
    const { fake, testEnv } = await setup();
    const cookie = await signIn();
    const endpoint = `${testEnv.SITE_URL.replace(/\/+$/, '')}/api/webhooks/mailchannels`;

    const before = await callWith(testEnv, '/api/admin/delivery-events', { cookie });
    expect(before.status).toBe(200);
    expect(await before.json()).toMatchObject({ configured: true, enrolled: false, endpoint });

    const enroll = await callWith(testEnv, '/api/admin/delivery-events/enroll', { method: 'POST', cookie });
    expect(enroll.status).toBe(200);
    expect(await enroll.json()).toEqual({ enrolled: true, endpoint, message: `Delivery events enrolled: MailChannels will post them to ${endpoint}` });
    expect(fake.enrollments).toEqual([endpoint]);
    expect(fake.apiKeys.every((k) => k === 'test-mc-key')).toBe(true);

    expect(await (await callWith(testEnv, '/api/admin/delivery-events', { cookie })).json()).toMatchObject({ enrolled: true });
    // Enrolling again: MailChannels answers 409, which the admin sees as done.
    const again = await callWith(testEnv, '/api/admin/delivery-events/enroll', { method: 'POST', cookie });
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ enrolled: true, message: `Delivery events were already enrolled for ${endpoint}` });
    expect(fake.enrollments).toEqual([endpoint]);
  });

  it('without a MailChannels key says so and enrolls nothing', async () => {
    const fake = await fakeMailChannelsWebhooks();
    const cookie = await signIn();
    const status = await client({ cookie }).api.admin['delivery-events'].$get();
    expect(await status.json()).toMatchObject({ configured: false, enrolled: false });
    const enroll = await client({ cookie }).api.admin['delivery-events'].enroll.$post();
    expect(enroll.status).toBe(400);
    expect(await enroll.json()).toEqual({ message: 'Delivery events need the MailChannels API key (MAILCHANNELS_API_KEY)' });
    expect(fake.enrollments).toEqual([]);
  });

  it('passes on MailChannels failures with its words', async () => {
    const cookie = await signIn();
    const testEnv = mailChannelsEnv({ MAILCHANNELS_API_KEY: 'revoked' });
    vi.stubGlobal('fetch', async () => new Response('forbidden', { status: 403 }));
    const res = await callWith(testEnv, '/api/admin/delivery-events/enroll', { method: 'POST', cookie });
    expect(res.status).toBe(502);
    expect(await res.json()).toEqual({ message: 'MailChannels rejected the API key (403)' });
  });

  it('is closed to visitors without a session', async () => {
    const { fake, testEnv } = await setup();
    expect((await callWith(testEnv, '/api/admin/delivery-events')).status).toBe(401);
    expect((await callWith(testEnv, '/api/admin/delivery-events/enroll', { method: 'POST' })).status).toBe(401);
    expect(fake.enrollments).toEqual([]);
  });
});

describe('only the firm\'s own delivery events count', () => {
  it('the route is off (404) when MailChannels is not configured: no key fetch, nothing applied', async () => {
    const fake = await fakeMailChannelsWebhooks();
    await addSubscriber('victim@example.com');
    // No MailChannels key (the outbox), even with an account id and a validly signed batch.
    const testEnv = { ...mailChannelsEnv(), MAILCHANNELS_API_KEY: '' };
    const res = await postSignedEvents(testEnv, fake, [mcEvent('complained', 'victim@example.com', 'req-1')]);
    expect(res.status).toBe(404);
    expect(fake.keyFetches).toBe(0);
    expect(await subscriber('victim@example.com')).toMatchObject({ active: 'true', suppressed_at: null });
    expect(await eventCount()).toBe(0);
  });

  it('without MAILCHANNELS_ACCOUNT_ID the webhook answers 503 and logs why, and the admin block says why', async () => {
    const fake = await fakeMailChannelsWebhooks();
    const testEnv = mailChannelsEnv({ MAILCHANNELS_ACCOUNT_ID: '' });
    await addSubscriber('victim@example.com');
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const res = await postSignedEvents(testEnv, fake, [mcEvent('dropped', 'victim@example.com', 'req-1', { reason: 'suppression list' })]);
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ message: 'Delivery events are not configured on this site yet; try again later' });
      expect(error.mock.calls.map((args) => args.map(String).join(' '))).toContainEqual(expect.stringContaining('MAILCHANNELS_ACCOUNT_ID'));
    } finally {
      error.mockRestore();
    }
    expect(fake.keyFetches).toBe(0);
    expect(await subscriber('victim@example.com')).toMatchObject({ active: 'true', suppressed_at: null });

    const cookie = await signIn();
    const status = await callWith(testEnv, '/api/admin/delivery-events', { cookie });
    expect(await status.json()).toMatchObject({ configured: true, accountIdSet: false, message: NO_ACCOUNT_ID_MESSAGE });
    const enroll = await callWith(testEnv, '/api/admin/delivery-events/enroll', { method: 'POST', cookie });
    expect(enroll.status).toBe(400);
    expect(await enroll.json()).toEqual({ message: NO_ACCOUNT_ID_MESSAGE });
    expect(fake.enrollments).toEqual([]);
  });

  it('a validly signed batch of another account (or of none) changes nothing and is counted in the answer and the log', async () => {
    const { fake, testEnv } = await setup();
    await addSubscriber('victim@example.com');
    const logId = await addLogEntry('victim@example.com', 'req-v');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const foreign = { reason: 'Recipient is on the suppression list', customer_handle: 'another-account' };
      const { customer_handle: _, ...withoutHandle } = mcEvent('complained', 'victim@example.com', 'req-v');
      const res = await postSignedEvents(testEnv, fake, [mcEvent('dropped', 'victim@example.com', 'req-v', foreign), withoutHandle]);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ received: 2, applied: 0, duplicates: 0, ignored: 2, otherAccount: 2 });
      expect(warn.mock.calls.map((args) => args.map(String).join(' '))).toContainEqual(
        expect.stringContaining('2 event(s) of another MailChannels account ignored'),
      );
    } finally {
      warn.mockRestore();
    }
    expect(await subscriber('victim@example.com')).toMatchObject({ active: 'true', suppressed_at: null });
    expect(await logEntry(logId)).toMatchObject({ delivery_status: null });
    expect(await eventCount()).toBe(0);
  });

  it('the digest covers the raw bytes: a byte-order mark prepended to a signed body no longer verifies', async () => {
    const { fake, testEnv } = await setup();
    await addSubscriber('victim@example.com');
    const body = JSON.stringify([mcEvent('complained', 'victim@example.com', 'req-1')]);
    const headers = await fake.sign(body);
    const res = await postWebhook(testEnv, `\uFEFF${body}`, headers);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ message: 'The body does not match its Content-Digest' });
    expect(fake.keyFetches).toBe(0);
    expect(await subscriber('victim@example.com')).toMatchObject({ active: 'true', suppressed_at: null });
    // The same bytes signed as they travel verify (the mark is then part of what was signed).
    const signedWithMark = await postWebhook(testEnv, `\uFEFF${body}`, await fake.sign(`\uFEFF${body}`));
    expect(signedWithMark.status).toBe(200);
  });

  it('a key id MailChannels does not know is remembered: asking again makes no fetch until the memory ends', async () => {
    const { fake, testEnv } = await setup();
    const attacker = await generateEd25519();
    const events = [mcEvent('complained', 'x@example.com', 'req-1')];
    const forged = { privateKey: attacker.privateKey, keyId: 'made-up-key' };
    expect((await postSignedEvents(testEnv, fake, events, forged)).status).toBe(401);
    expect(fake.keyFetches).toBe(1);
    // Past the fetch interval, the same unknown id is refused from memory.
    let later = laterBy(KEY_FETCH_INTERVAL_MS + 1000);
    try {
      const again = await postSignedEvents(testEnv, fake, events, forged);
      expect(again.status).toBe(401);
      expect(await again.json()).toEqual({ message: 'Unknown signing key' });
      expect(fake.keyFetches).toBe(1);
    } finally {
      later.mockRestore();
    }
    // Once the memory has ended, MailChannels is asked again (a key id may be published later).
    later = laterBy(UNKNOWN_KEY_TTL_MS + 1000);
    try {
      expect((await postSignedEvents(testEnv, fake, events, forged)).status).toBe(401);
      expect(fake.keyFetches).toBe(2);
    } finally {
      later.mockRestore();
    }
  });

  it('random key ids cause no fetch storm: at most one key fetch per interval per isolate; the real key verifies after it', async () => {
    const { fake, testEnv } = await setup();
    await addSubscriber('victim@example.com');
    const attacker = await generateEd25519();
    const events = [mcEvent('complained', 'victim@example.com', 'req-1')];
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => postSignedEvents(testEnv, fake, events, { privateKey: attacker.privateKey, keyId: `random-${i}-${crypto.randomUUID()}` })),
    );
    expect(fake.keyFetches).toBe(1);
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(1); // the one fetched: unknown
    expect(statuses.filter((s) => s === 503)).toHaveLength(39); // the rest: try again later
    expect(await subscriber('victim@example.com')).toMatchObject({ active: 'true', suppressed_at: null });

    // Inside the interval even the real key waits (503, MailChannels retries); after it, it is fetched and verifies.
    expect((await postSignedEvents(testEnv, fake, events)).status).toBe(503);
    const later = laterBy(KEY_FETCH_INTERVAL_MS + 1000);
    try {
      expect((await postSignedEvents(testEnv, fake, events)).status).toBe(200);
      expect(fake.keyFetches).toBe(2);
      // Served from memory from now on, whatever the interval.
      expect((await postSignedEvents(testEnv, fake, [mcEvent('delivered', 'victim@example.com', 'req-2')])).status).toBe(200);
      expect(fake.keyFetches).toBe(2);
    } finally {
      later.mockRestore();
    }
    expect(await subscriber('victim@example.com')).toMatchObject({ active: 'false', suppression_reason: 'complained' });
  });
});
