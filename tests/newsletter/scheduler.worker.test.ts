import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { currentPeriod } from '../../worker/services/newsletter/scheduler';
import { client, cronTick, signIn } from '../harness/worker/helpers';
import { fakeMailChannels, mailChannelsEnv, type RecordedRequest } from '../harness/worker/mailchannels-fake';

// March 2026: the 1st is a Sunday, so the slot is Monday 2 March, 9:00 AM Eastern (EST, UTC-5).
const SLOT = Date.UTC(2026, 2, 2, 14, 0);
const HOUR = 3_600_000;

async function addSubscribers(n: number) {
  await env.DB.batch(
    Array.from({ length: n }, (_, i) => env.DB.prepare("INSERT INTO newsletter_subscriptions (email, active) VALUES (?, 'true')").bind(`s${i}@example.com`)),
  );
}

async function setRunning(running: boolean) {
  const cookie = await signIn();
  expect((await client({ cookie }).api.admin.scheduler[':action{start|stop|trigger}'].$post({ param: { action: running ? 'start' : 'stop' } })).status).toBe(200);
}

async function newsletters() {
  return (await env.DB.prepare('SELECT id, period_key, trigger, status, recipient_count FROM sent_newsletters ORDER BY id').all<Record<string, unknown>>()).results;
}

const recipients = (requests: RecordedRequest[]) => requests.map((r) => r.body.personalizations[0].to[0].email);

describe('scheduler (the Cron Trigger)', () => {
  it('lazily creates its state row, stopped', async () => {
    expect(await env.DB.prepare('SELECT count(*) AS n FROM scheduler_settings').first<{ n: number }>()).toEqual({ n: 0 });
    await cronTick(SLOT);
    expect(await env.DB.prepare('SELECT id, running FROM scheduler_settings').all()).toMatchObject({ results: [{ id: 1, running: 0 }] });
    await addSubscribers(2);
    await cronTick(SLOT);
    expect(await newsletters()).toEqual([]);
  });

  it('sends when running and due, once per period even when the cron fires twice or concurrently', async () => {
    await addSubscribers(5);
    await setRunning(true);
    const requests = fakeMailChannels();
    const testEnv = mailChannelsEnv();
    await cronTick(SLOT - HOUR, testEnv); // 8:00 AM: not yet due
    expect(await newsletters()).toEqual([]);
    await cronTick(SLOT, testEnv);
    await cronTick(SLOT, testEnv); // the same tick delivered twice
    await Promise.all([cronTick(SLOT + HOUR, testEnv), cronTick(SLOT + HOUR, testEnv), cronTick(SLOT + 2 * HOUR, testEnv)]);
    const rows = await newsletters();
    expect(rows).toEqual([{ id: 1, period_key: '2026-03', trigger: 'scheduled', status: 'sent', recipient_count: 5 }]);
    expect(recipients(requests).sort()).toEqual(['s0@example.com', 's1@example.com', 's2@example.com', 's3@example.com', 's4@example.com']);
  });

  it('catches up a missed slot within the week, but not later, and sends again next month', async () => {
    await addSubscribers(1);
    await setRunning(true);
    await cronTick(SLOT + 8 * 24 * HOUR); // 10 March: the March slot is over a week old
    expect(await newsletters()).toEqual([]);
    await cronTick(SLOT + 3 * 24 * HOUR); // 5 March: caught up
    // April 2026: the 1st is a Wednesday, the slot Monday 6 April 9:00 EDT (UTC-4).
    await cronTick(Date.UTC(2026, 3, 6, 13, 0));
    expect((await newsletters()).map((r) => r.period_key)).toEqual(['2026-03', '2026-04']);
  });

  it('does not send while stopped', async () => {
    await addSubscribers(1);
    await setRunning(true);
    await setRunning(false);
    await cronTick(SLOT);
    expect(await newsletters()).toEqual([]);
  });

  it('a manual trigger and the cron in the same period send one newsletter', async () => {
    await addSubscribers(3);
    await setRunning(true);
    const cookie = await signIn();
    const trigger = await client({ cookie }).api.admin.scheduler[':action{start|stop|trigger}'].$post({ param: { action: 'trigger' } });
    expect(trigger.status).toBe(200);
    expect(((await trigger.json()) as { message: string }).message).toMatch(/^Scheduled newsletter triggered/);
    // The cron fires at this period's slot (the trigger used the real clock's period).
    const period = currentPeriod();
    const [year, month] = period.key.split('-').map(Number);
    const firstWeekday = new Date(Date.UTC(year, month - 1, 1)).getUTCDay();
    const firstMonday = 1 + ((1 - firstWeekday + 7) % 7);
    await cronTick(Date.UTC(year, month - 1, firstMonday, 16, 0));
    const again = await client({ cookie }).api.admin.scheduler[':action{start|stop|trigger}'].$post({ param: { action: 'trigger' } });
    expect(again.status).toBe(409);
    const rows = await newsletters();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ period_key: period.key, recipient_count: 3 });
    const mails = await env.DB.prepare("SELECT count(*) AS n FROM email_log WHERE kind = 'newsletter'").first<{ n: number }>();
    expect(mails?.n).toBe(3);
  });

  it('each tick resumes an unfinished send, one batch at a time', async () => {
    await addSubscribers(25);
    const requests = fakeMailChannels();
    const testEnv = mailChannelsEnv({ NEWSLETTER_BATCH_SIZE: '10' });
    const cookie = await signIn();
    // The admin's send delivers the first batch in the request; the cron does the rest.
    const res = await client({ cookie }).api.admin['send-newsletter'].$post({ json: { subject: 'Big one', content: '<p>Hello</p>' } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ recipientCount: 25, status: 'sent' }); // outbox env: default batch of 40
    await env.DB.prepare("UPDATE sent_newsletters SET status = 'sending'").run();
    await env.DB.prepare("UPDATE newsletter_deliveries SET status = 'pending'").run();
    await cronTick(SLOT + 20 * 24 * HOUR, testEnv);
    expect(recipients(requests)).toHaveLength(10);
    await cronTick(SLOT + 20 * 24 * HOUR, testEnv);
    await cronTick(SLOT + 20 * 24 * HOUR, testEnv);
    await cronTick(SLOT + 20 * 24 * HOUR, testEnv);
    expect(new Set(recipients(requests)).size).toBe(25);
    expect(recipients(requests)).toHaveLength(25);
    expect((await newsletters())[0]).toMatchObject({ status: 'sent', recipient_count: 25 });
  });

  it('keeps pruning old login attempts', async () => {
    await env.DB.prepare("INSERT INTO login_attempts (key, window_start, count, blocked_until) VALUES ('user:x', 0, 3, 0)").run();
    await cronTick(SLOT);
    expect(await env.DB.prepare('SELECT count(*) AS n FROM login_attempts').first<{ n: number }>()).toEqual({ n: 0 });
  });
});
