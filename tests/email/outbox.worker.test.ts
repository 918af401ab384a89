import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import worker from '../../worker/index';
import { rowsOf, runNamed } from '../../worker/db/one-call-write';
import { OUTBOX_GRACE_MS, OUTBOX_SWEEP_PER_TICK } from '../../worker/services/email/outbox-sweep';
import { cronTick, ORIGIN } from '../harness/worker/helpers';
import { fakeMailChannels, mailChannelsEnv } from '../harness/worker/mailchannels-fake';

// The write seam (worker/db/one-call-write.ts) reads a batch's results by name, and e-mail is an
// outbox: queued with the write, delivered by the request after its answer, and swept by the cron
// when that delivery never finished (worker/services/email/outbox-sweep.ts).

const MINUTE = 60_000;
const rows = async (sql: string) => (await env.DB.prepare(sql).all<Record<string, unknown>>()).results;

/** Posts the contact form; returns the invocation's context without waiting for its waitUntil work. */
async function postContact(testEnv: Cloudflare.Env) {
  const ctx = createExecutionContext();
  const res = await worker.fetch(
    new Request(`${ORIGIN}/api/contact`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: ORIGIN, 'cf-connecting-ip': '203.0.113.71' },
      body: JSON.stringify({ name: 'Quinn Outbox', email: 'quinn@example.com', phone: '', message: 'Please call me about my amended return.' }),
    }),
    testEnv,
    ctx,
  );
  return { res, ctx };
}

describe('a batch read by name', () => {
  it("gives each statement's result under its name, none for a name not in the batch", async () => {
    const results = await runNamed(env.DB, [
      { name: 'message', statement: env.DB.prepare("INSERT INTO contact_messages (name, email, message, created_at) VALUES ('Ada', 'ada@example.com', 'Hello there', 0) RETURNING id") },
      { name: 'count', statement: env.DB.prepare('SELECT count(*) AS n FROM contact_messages') },
    ]);
    expect(rowsOf(results, 'count')).toEqual([{ n: 1 }]);
    expect(rowsOf(results, 'message')).toEqual([{ id: expect.any(Number) }]);
    expect(rowsOf<string>(results, 'absent')).toEqual([]);
  });

  it('refuses two statements with one name', async () => {
    const statement = env.DB.prepare('SELECT 1 AS one');
    await expect(runNamed(env.DB, [{ name: 'same', statement }, { name: 'same', statement }])).rejects.toThrow(/same name/);
  });
});

describe('the outbox', () => {
  it('an e-mail whose request never delivered it is sent by the cron once its grace period is over, as it was queued', async () => {
    let release!: (answer: Response) => void;
    const late = new Promise<Response>((resolve) => (release = resolve));
    // The request's own delivery hangs (as when its invocation ends); the cron's goes through.
    const requests = fakeMailChannels((_, index) => (index === 0 ? late : Response.json({ request_id: 'req-swept' }, { status: 202 })));
    const testEnv = mailChannelsEnv({ MAILCHANNELS_TIMEOUT_MS: '60000' });
    const { res, ctx } = await postContact(testEnv);
    expect(res.status).toBe(201);
    expect(await rows('SELECT kind, status FROM email_log')).toEqual([{ kind: 'contact-notification', status: 'queued' }]);

    await cronTick(Date.now() + MINUTE, testEnv);
    expect(requests).toHaveLength(1);
    await cronTick(Date.now() + OUTBOX_GRACE_MS + MINUTE, testEnv);
    expect(requests).toHaveLength(2);
    expect(await rows('SELECT status, provider_id FROM email_log')).toEqual([{ status: 'sent', provider_id: 'req-swept' }]);
    // The swept e-mail is the queued one, Reply-To (the visitor) and the firm's name included.
    const [queued, swept] = requests.map((r) => r.body as typeof r.body & { reply_to?: { email: string } });
    expect(swept.subject).toBe(queued.subject);
    expect(swept.content).toEqual(queued.content);
    expect(swept.personalizations[0].to).toEqual(queued.personalizations[0].to);
    expect(swept.reply_to).toEqual({ email: 'quinn@example.com' });

    // The request's delivery answering late changes nothing: the row is no longer 'queued'.
    release(new Response('too late', { status: 500 }));
    await waitOnExecutionContext(ctx);
    expect(await rows('SELECT status, error FROM email_log')).toEqual([{ status: 'sent', error: null }]);
  });

  it('a sweep whose transport fails leaves the row failed with its reason, and no later tick sends it again', async () => {
    let release!: (answer: Response) => void;
    const late = new Promise<Response>((resolve) => (release = resolve));
    const requests = fakeMailChannels((_, index) => (index === 0 ? late : new Response('upstream unavailable', { status: 503 })));
    const testEnv = mailChannelsEnv({ MAILCHANNELS_TIMEOUT_MS: '60000' });
    const { ctx } = await postContact(testEnv);
    const sweptAt = Date.now() + OUTBOX_GRACE_MS + MINUTE;
    await cronTick(sweptAt, testEnv);
    expect(await rows('SELECT status, error FROM email_log')).toEqual([{ status: 'failed', error: expect.stringMatching(/MailChannels answered 503/) }]);
    await cronTick(sweptAt + OUTBOX_GRACE_MS + MINUTE, testEnv);
    expect(requests).toHaveLength(2);
    release(Response.json({ request_id: 'req-late' }, { status: 202 }));
    await waitOnExecutionContext(ctx);
    expect(await rows('SELECT status FROM email_log')).toEqual([{ status: 'failed' }]);
  });

  it("a tick sends at most OUTBOX_SWEEP_PER_TICK, the oldest first, and leaves the cron's own e-mails to their ledgers", async () => {
    const requests = fakeMailChannels();
    const testEnv = mailChannelsEnv();
    const old = Date.now() - OUTBOX_GRACE_MS - MINUTE;
    // A queued row holds its whole message in outbox_message, where the sweep reads it.
    const insert = env.DB.prepare(
      `INSERT INTO email_log ("to", subject, kind, status, transport, text_body, outbox_message, created_at, updated_at)
       VALUES (?1, 'Queued', ?2, 'queued', 'mailchannels', 'Body', json_object('to', ?1, 'subject', 'Queued', 'kind', ?2, 'text', 'Body'), ?3, ?3)`,
    );
    await env.DB.batch([
      insert.bind('issue@example.com', 'newsletter', old - 1000),
      insert.bind('reminded@example.com', 'appointment-reminder', old - 1000),
      ...Array.from({ length: OUTBOX_SWEEP_PER_TICK + 2 }, (_, i) => insert.bind(`visitor${i}@example.com`, 'contact-notification', old + i)),
    ]);
    await cronTick(Date.now(), testEnv);
    expect(requests.map((r) => r.body.personalizations[0].to[0].email)).toEqual(Array.from({ length: OUTBOX_SWEEP_PER_TICK }, (_, i) => `visitor${i}@example.com`));
    expect(await rows("SELECT \"to\" FROM email_log WHERE status = 'queued' ORDER BY id")).toEqual([
      { to: 'issue@example.com' },
      { to: 'reminded@example.com' },
      { to: `visitor${OUTBOX_SWEEP_PER_TICK}@example.com` },
      { to: `visitor${OUTBOX_SWEEP_PER_TICK + 1}@example.com` },
    ]);
  });
});
