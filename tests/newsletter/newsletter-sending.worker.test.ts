import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { getDb } from '../../worker/db/client';
import type { EmailTransport } from '../../worker/mail-types';
import { sendNewsletterBatch } from '../../worker/services/newsletter/sender';
import { createNewsletter, INTERRUPTED_ERROR, UNSUBSCRIBED_ERROR } from '../../worker/services/newsletter/store';
import { fakeMailChannels, mailChannelsEnv, type RecordedRequest } from '../harness/worker/mailchannels-fake';

async function addSubscribers(n: number) {
  const statements = Array.from({ length: n }, (_, i) =>
    env.DB.prepare("INSERT INTO newsletter_subscriptions (email, active, confirmed_at) VALUES (?, 'true', 1)").bind(`r${String(i).padStart(4, '0')}@example.com`),
  );
  for (let i = 0; i < statements.length; i += 100) await env.DB.batch(statements.slice(i, i + 100));
}

/** `subscribers` confirmed subscribers and a manual newsletter to them, sent under these settings. */
async function newsletterTo(subscribers: number, subject: string, settings: Partial<Cloudflare.Env>) {
  await addSubscribers(subscribers);
  const testEnv = mailChannelsEnv(settings);
  const db = getDb(testEnv.DB);
  const created = await createNewsletter(db, { subject, content: '<p>Hi</p>', trigger: 'manual' });
  return { testEnv, db, created };
}

function recipients(requests: RecordedRequest[]): string[] {
  return requests.map((r) => r.body.personalizations[0].to[0].email);
}

function duplicates(list: string[]): string[] {
  const seen = new Set<string>();
  return list.filter((e) => (seen.has(e) ? true : (seen.add(e), false)));
}

async function newsletterRow(id: number) {
  return env.DB.prepare('SELECT * FROM sent_newsletters WHERE id = ?').bind(id).first<Record<string, number | string>>();
}

async function deliveryCounts(id: number) {
  const rows = await env.DB.prepare('SELECT status, count(*) AS n FROM newsletter_deliveries WHERE newsletter_id = ? GROUP BY status').bind(id).all<{ status: string; n: number }>();
  return Object.fromEntries(rows.results.map((r) => [r.status, r.n]));
}

describe('resumable newsletter sending', () => {
  it('sends in batches that stay under the subrequest limit, everyone exactly once', async () => {
    const requests = fakeMailChannels();
    const { testEnv, db, created } = await newsletterTo(100, 'Batch test', { NEWSLETTER_BATCH_SIZE: '40' });
    expect(created.totalRecipients).toBe(100);

    const ticks = [];
    for (let i = 0; i < 5; i++) ticks.push(await sendNewsletterBatch(testEnv, db, { origin: 'https://northgatecpa.example' }));
    expect(ticks.map((t) => t.claimed)).toEqual([40, 40, 20, 0, 0]);
    expect(ticks.map((t) => t.status)).toEqual(['sending', 'sending', 'sent', null, null]);
    for (const tick of ticks.slice(0, 3)) {
      expect(tick.providerRequests).toBe(tick.claimed);
      expect(tick.d1Calls).toBe(5);
      expect(tick.providerRequests + tick.d1Calls).toBeLessThanOrEqual(50);
    }
    const sentTo = recipients(requests);
    expect(sentTo).toHaveLength(100);
    expect(duplicates(sentTo)).toEqual([]);
    expect(await newsletterRow(created.id)).toMatchObject({ status: 'sent', recipient_count: 100, total_recipients: 100, failed_count: 0 });
    // Every message carries its own one-click unsubscribe link.
    const unsubscribeHeaders = new Set(requests.map((r) => r.body.headers?.['List-Unsubscribe']));
    expect(unsubscribeHeaders.size).toBe(100);
    expect(requests[0].body.headers?.['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
  });

  it('an invocation that dies after calling the provider: the next tick finishes the rest and nobody gets it twice', async () => {
    const { testEnv, db, created } = await newsletterTo(50, 'Crash test', { NEWSLETTER_BATCH_SIZE: '20', NEWSLETTER_CLAIM_LEASE_SECONDS: '60' });

    // First invocation: the provider receives all 20 messages, then the invocation dies before
    // recording anything (its responses never come back; the promise is abandoned).
    const requests = fakeMailChannels(() => new Promise<Response>(() => {}));
    void sendNewsletterBatch(testEnv, db, { origin: 'https://x.example' });
    await expect.poll(() => requests.length).toBe(20);
    expect(await deliveryCounts(created.id)).toEqual({ sending: 20, pending: 30 });

    // Next ticks, past the claim lease, with a provider that answers again.
    const later = fakeMailChannels();
    const future = new Date(Date.now() + 61_000);
    let status: string | null = 'sending';
    for (let i = 0; i < 5 && status !== 'sent'; i++) status = (await sendNewsletterBatch(testEnv, db, { origin: 'https://x.example', now: future })).status;
    expect(status).toBe('sent');

    const all = [...recipients(requests), ...recipients(later)];
    expect(duplicates(all)).toEqual([]);
    expect(new Set(all).size).toBe(50);
    expect(await deliveryCounts(created.id)).toEqual({ sent: 30, failed: 20 });
    const failed = await env.DB.prepare('SELECT DISTINCT error FROM newsletter_deliveries WHERE status = ?').bind('failed').all<{ error: string }>();
    expect(failed.results).toEqual([{ error: INTERRUPTED_ERROR }]);
    // recipientCount is what was confirmed delivered.
    expect(await newsletterRow(created.id)).toMatchObject({ status: 'sent', recipient_count: 30, failed_count: 20, total_recipients: 50 });
  });

  it('claims within the lease are left alone (an invocation still running is not duplicated)', async () => {
    const { testEnv, db, created } = await newsletterTo(10, 'Slow', { NEWSLETTER_BATCH_SIZE: '5', NEWSLETTER_CLAIM_LEASE_SECONDS: '60' });
    const slow = fakeMailChannels(() => new Promise<Response>(() => {}));
    void sendNewsletterBatch(testEnv, db, {});
    await expect.poll(() => slow.length).toBe(5);
    const fast = fakeMailChannels();
    await sendNewsletterBatch(testEnv, db, {});
    await sendNewsletterBatch(testEnv, db, {});
    expect(duplicates([...recipients(slow), ...recipients(fast)])).toEqual([]);
    expect(await deliveryCounts(created.id)).toEqual({ sending: 5, sent: 5 });
    expect((await newsletterRow(created.id))?.status).toBe('sending');
  });

  it('overlapping invocations (cron + manual) never claim the same recipient', async () => {
    const requests = fakeMailChannels();
    const { testEnv, db } = await newsletterTo(60, 'Race', { NEWSLETTER_BATCH_SIZE: '25' });
    await Promise.all([sendNewsletterBatch(testEnv, db), sendNewsletterBatch(testEnv, db), sendNewsletterBatch(testEnv, db)]);
    await sendNewsletterBatch(testEnv, db);
    const sentTo = recipients(requests);
    expect(duplicates(sentTo)).toEqual([]);
    expect(sentTo).toHaveLength(60);
  });

  it('retries what the provider certainly refused (5xx, 429), not what it may have accepted (timeout), and fails 4xx', async () => {
    const { testEnv, db, created } = await newsletterTo(8, 'Flaky', { NEWSLETTER_BATCH_SIZE: '10', MAILCHANNELS_TIMEOUT_MS: '100' });
    const firstAnswers: Record<string, number | 'hang' | 'network-error'> = {
      'r0000@example.com': 503,
      'r0001@example.com': 429,
      'r0002@example.com': 400,
      'r0003@example.com': 'hang',
      'r0004@example.com': 'network-error',
    };
    const seen = new Set<string>();
    const requests = fakeMailChannels((req) => {
      const to = req.body.personalizations[0].to[0].email;
      const first = !seen.has(to);
      seen.add(to);
      const answer = first ? firstAnswers[to] : undefined;
      if (answer === 'hang' || answer === 'network-error') return answer;
      if (typeof answer === 'number') return new Response('nope', { status: answer });
      return Response.json({ request_id: `id-${to}` }, { status: 202 });
    });
    const first = await sendNewsletterBatch(testEnv, db);
    expect(first).toMatchObject({ claimed: 8, sent: 3, failed: 2, retryLater: 3, status: 'sending' });
    const second = await sendNewsletterBatch(testEnv, db);
    expect(second).toMatchObject({ claimed: 3, sent: 3, failed: 0, status: 'sent' });
    const sentTo = recipients(requests);
    // 503, 429 and the refused connection were tried twice; the 400 and the timeout only once.
    expect(sentTo.filter((e) => e === 'r0000@example.com')).toHaveLength(2);
    expect(sentTo.filter((e) => e === 'r0002@example.com')).toHaveLength(1);
    expect(sentTo.filter((e) => e === 'r0003@example.com')).toHaveLength(1);
    expect(await newsletterRow(created.id)).toMatchObject({ status: 'sent', recipient_count: 6, failed_count: 2 });
    const log = await env.DB.prepare("SELECT status, count(*) AS n FROM email_log WHERE kind = 'newsletter' GROUP BY status").all<{ status: string; n: number }>();
    expect(Object.fromEntries(log.results.map((r) => [r.status, r.n]))).toEqual({ sent: 6, failed: 5 });
  });

  it('gives up on a recipient after three refused attempts', async () => {
    await addSubscribers(1);
    const testEnv = mailChannelsEnv();
    const db = getDb(testEnv.DB);
    const created = await createNewsletter(db, { subject: 'Down', content: '<p>Hi</p>', trigger: 'manual' });
    const requests = fakeMailChannels(() => new Response('down', { status: 500 }));
    for (let i = 0; i < 5; i++) await sendNewsletterBatch(testEnv, db);
    expect(requests).toHaveLength(3);
    expect(await newsletterRow(created.id)).toMatchObject({ status: 'sent', recipient_count: 0, failed_count: 1 });
  });

  it('skips people who unsubscribed while the newsletter was going out', async () => {
    const requests = fakeMailChannels();
    const { testEnv, db, created } = await newsletterTo(6, 'Leaving', { NEWSLETTER_BATCH_SIZE: '3' });
    await sendNewsletterBatch(testEnv, db);
    await env.DB.prepare("UPDATE newsletter_subscriptions SET active = 'false', unsubscribed_at = 1 WHERE email = 'r0005@example.com'").run();
    await sendNewsletterBatch(testEnv, db);
    expect(recipients(requests)).not.toContain('r0005@example.com');
    expect(await newsletterRow(created.id)).toMatchObject({ status: 'sent', recipient_count: 5, failed_count: 1 });
    const row = await env.DB.prepare("SELECT error FROM newsletter_deliveries WHERE email = 'r0005@example.com'").first<{ error: string }>();
    expect(row?.error).toBe(UNSUBSCRIBED_ERROR);
  });

  it('records a batch larger than the 100 parameters D1 binds per statement (batch size 150)', async () => {
    const { testEnv, db, created } = await newsletterTo(150, 'Paid plan', { NEWSLETTER_BATCH_SIZE: '150' });
    const sentTo: string[] = [];
    const transport: EmailTransport = {
      name: 'fake',
      send: async (message) => {
        sentTo.push(message.to);
        return { status: 'sent' };
      },
    };
    const stats = await sendNewsletterBatch(testEnv, db, { transport });
    expect(stats).toMatchObject({ claimed: 150, sent: 150, failed: 0, retryLater: 0, status: 'sent' });
    expect(sentTo).toHaveLength(150);
    expect(duplicates(sentTo)).toEqual([]);
    expect(await deliveryCounts(created.id)).toEqual({ sent: 150 });
    expect(await newsletterRow(created.id)).toMatchObject({ status: 'sent', recipient_count: 150, failed_count: 0, total_recipients: 150 });
    const log = await env.DB.prepare("SELECT status, count(*) AS n FROM email_log WHERE kind = 'newsletter' GROUP BY status").all<{ status: string; n: number }>();
    expect(log.results).toEqual([{ status: 'sent', n: 150 }]);
  });

  it('a newsletter with CR/LF in its subject is never handed to the provider', async () => {
    await addSubscribers(2);
    const requests = fakeMailChannels();
    const testEnv = mailChannelsEnv();
    const db = getDb(testEnv.DB);
    const created = await createNewsletter(db, { subject: 'Hi\r\nBcc: all@example.com', content: '<p>Hi</p>', trigger: 'manual' });
    await sendNewsletterBatch(testEnv, db);
    expect(requests).toHaveLength(0);
    expect(await newsletterRow(created.id)).toMatchObject({ status: 'sent', recipient_count: 0, failed_count: 2 });
  });
});
