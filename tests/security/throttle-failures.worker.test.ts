import { env } from 'cloudflare:test';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { hashIp } from '../../worker/services/limits/client-ip';
import { SIGNUP_WINDOW_MS } from '../../worker/services/newsletter/signup-throttle';
import { IP_WINDOW_SECONDS } from '../../worker/services/limits/submission-limits';
import { newSessionId, postChat, storedTurns } from '../harness/worker/chat-helpers';
import { cronTick } from '../harness/worker/helpers';
import { callWithEnv, nextWeekday } from '../harness/worker/submission-helpers';

// docs/decisions/0006: a failing throttle store never turns a valid submission into a 5xx, and no
// burst passes a limit because a store refused a write. The real worker runs with env.THROTTLE
// replaced at the binding boundary by a KV that fails the way production KV does. The chat
// throttle is in D1 (chat_windows): a KV failure no longer touches it.

/** A KV namespace that is down: every operation throws. Counts the calls it refused. */
function brokenKv() {
  const calls: string[] = [];
  const fail = (operation: string) => async () => {
    calls.push(operation);
    throw new Error(`KV ${operation.toUpperCase()} failed: 503 Service Unavailable`);
  };
  const kv = { get: fail('get'), getWithMetadata: fail('getWithMetadata'), put: fail('put'), delete: fail('delete'), list: fail('list') };
  return { kv: kv as unknown as KVNamespace, calls };
}

/**
 * A KV namespace with production's per-key write limit: a second put to the same key within one
 * second throws as KV does ("KV PUT failed: 429 Too Many Requests"); otherwise a plain store.
 */
function rapidWriteRefusingKv() {
  const values = new Map<string, string>();
  const lastWriteAt = new Map<string, number>();
  const refused: string[] = [];
  let writes = 0;
  const kv = {
    get: async (key: string) => values.get(key) ?? null,
    put: async (key: string, value: string) => {
      const now = Date.now();
      const last = lastWriteAt.get(key);
      if (last !== undefined && now - last < 1000) {
        refused.push(key);
        throw new Error('KV PUT failed: 429 Too Many Requests');
      }
      lastWriteAt.set(key, now);
      values.set(key, value);
      writes++;
    },
    delete: async (key: string) => {
      values.delete(key);
    },
    list: async () => ({ keys: [...values.keys()].map((name) => ({ name })), list_complete: true, cacheStatus: null }),
  };
  return { kv: kv as unknown as KVNamespace, values, refused, writes: () => writes };
}

const contact = { name: 'Jane Visitor', email: 'jane@example.com', message: 'I need help with my 2025 return.' };
const booking = {
  name: 'Sam Client',
  email: 'sam@example.com',
  serviceType: 'Individual Tax Return',
  date: nextWeekday(7),
  timeSlot: '10:00 AM',
};

const countRows = async (table: string) => (await env.DB.prepare(`SELECT count(*) AS n FROM ${table}`).first<{ n: number }>())!.n;

let warn: MockInstance<typeof console.warn>;
let error: MockInstance<typeof console.error>;
beforeEach(() => {
  warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
  error = vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** Every line logged through console.warn and console.error, as text. */
const logged = () => [...warn.mock.calls, ...error.mock.calls].map((args) => args.map(String).join(' '));

/** One network's three windows in `table` (two ended, the current one): a cron tick deletes the ended two. */
async function expectCronKeepsOnlyCurrentWindow(table: 'submission_windows' | 'signup_windows', windowMs: number) {
  const current = Math.floor(Date.now() / windowMs) * windowMs;
  await env.DB.batch(
    [current - 2 * windowMs, current - windowMs, current].map((start) =>
      env.DB.prepare(`INSERT INTO ${table} (ip_hash, window_start, count) VALUES (?, ?, 3)`).bind('0123456789abcdef0123456789abcdef', start),
    ),
  );
  await cronTick(Date.now());
  const left = await env.DB.prepare(`SELECT window_start FROM ${table}`).all<{ window_start: number }>();
  expect(left.results).toEqual([{ window_start: current }]);
}

describe('a throttle store that throws on every read and write', () => {
  it('stores a contact message and a booking (the form limits are not in KV at all)', async () => {
    const { kv, calls } = brokenKv();
    const sent = await callWithEnv({ THROTTLE: kv }, '/api/contact', { body: contact });
    expect(sent.status).toBe(201);
    const booked = await callWithEnv({ THROTTLE: kv }, '/api/appointments', { body: booking });
    expect(booked.status).toBe(201);
    expect(await env.DB.prepare('SELECT name FROM contact_messages').all()).toMatchObject({ results: [{ name: 'Jane Visitor' }] });
    expect(await env.DB.prepare('SELECT name, time_slot FROM appointments').all()).toMatchObject({ results: [{ name: 'Sam Client', time_slot: '10:00 AM' }] });
    expect(calls).toEqual([]);
  });

  it('answers, stores and counts a chat message (the chat throttle is in D1, not KV)', async () => {
    const { kv, calls } = brokenKv();
    const sessionId = newSessionId();
    const res = await postChat({ message: 'What are your office hours?', sessionId }, { env: { THROTTLE: kv, AI: undefined }, ip: '198.51.100.77' });
    expect(res.status).toBe(200);
    expect(await storedTurns(sessionId)).toHaveLength(2);
    expect(calls).toEqual([]);
    expect(await env.DB.prepare('SELECT ip_hash, count FROM chat_windows').all()).toMatchObject({
      results: [{ ip_hash: await hashIp('198.51.100.77', env.JWT_SECRET), count: 1 }],
    });
  });

  it('signs up a newsletter subscriber without touching KV (the sign-up throttle is in D1)', async () => {
    const { kv, calls } = brokenKv();
    const res = await callWithEnv({ THROTTLE: kv }, '/api/newsletter/subscribe', { body: { email: 'reader@example.com' } });
    expect(res.status).toBe(200);
    expect(await env.DB.prepare('SELECT email, active FROM newsletter_subscriptions').first()).toEqual({ email: 'reader@example.com', active: 'false' });
    expect(calls).toEqual([]);
    expect(await env.DB.prepare('SELECT count FROM signup_windows').first()).toEqual({ count: 1 });
  });
});

describe('a throttle store that refuses a second write to a key within a second', () => {
  it('a burst of chat messages from one network gets exactly its allowance: 25 simultaneous with a limit of 20 answer 20', async () => {
    // Under the former KV counter the refused writes let every one of these through.
    const { kv, refused } = rapidWriteRefusingKv();
    const sessions = Array.from({ length: 25 }, () => newSessionId());
    const responses = await Promise.all(
      sessions.map((sessionId, i) =>
        postChat({ message: `Question ${i}: what are your hours?`, sessionId }, { env: { THROTTLE: kv, AI: undefined, CHAT_MESSAGES_PER_WINDOW: '20' }, ip: `2001:db8:5:5::${i + 1}` }),
      ),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(20);
    expect(statuses.filter((s) => s === 429)).toHaveLength(5);
    expect(await countRows('chat_messages')).toBe(40);
    expect(refused).toEqual([]);
  }, 30_000);

  it('messages sent one right after another are all answered and counted', async () => {
    const { kv } = rapidWriteRefusingKv();
    const sessionId = newSessionId();
    for (let i = 0; i < 4; i++) {
      const res = await postChat({ message: `Follow-up ${i} about hours`, sessionId }, { env: { THROTTLE: kv, AI: undefined }, ip: '198.51.100.79' });
      expect(res.status).toBe(200);
    }
    expect(await storedTurns(sessionId)).toHaveLength(8);
    expect(await env.DB.prepare('SELECT count FROM chat_windows').first()).toEqual({ count: 4 });
  });

  it('a chat message is not let through when its count cannot be taken', async () => {
    await env.DB.prepare('DROP TABLE chat_windows').run();
    const sessionId = newSessionId();
    const res = await postChat({ message: 'What are your office hours?', sessionId }, { env: { AI: undefined }, ip: '198.51.100.81' });
    expect(res.status).toBe(500);
    expect(await storedTurns(sessionId)).toEqual([]);
  });

  it('a burst of newsletter sign-ups from one IP stores every address within the allowance', async () => {
    const { kv, refused } = rapidWriteRefusingKv();
    const emails = Array.from({ length: 4 }, (_, i) => `burst${i}@example.com`);
    const responses = await Promise.all(emails.map((email) => callWithEnv({ THROTTLE: kv }, '/api/newsletter/subscribe', { body: { email }, ip: '198.51.100.80' })));
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(await countRows('newsletter_subscriptions')).toBe(4);
    expect(refused).toEqual([]);
  });

  it('forms sent in quick succession from one IP are stored up to the per-IP limit, then 429, never a 5xx', async () => {
    const { kv } = rapidWriteRefusingKv();
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await callWithEnv({ THROTTLE: kv, SUBMISSIONS_PER_IP_PER_WINDOW: '5' }, '/api/contact', { body: contact, ip: '192.0.2.40' })).status);
    for (const timeSlot of ['9:00 AM', '11:00 AM', '1:00 PM']) {
      statuses.push((await callWithEnv({ THROTTLE: kv, SUBMISSIONS_PER_IP_PER_WINDOW: '5' }, '/api/appointments', { body: { ...booking, timeSlot }, ip: '192.0.2.40' })).status);
    }
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429, 429]);
    expect(await countRows('contact_messages')).toBe(4);
    expect(await countRows('appointments')).toBe(1);
  });
});

describe('the per-IP form limit in D1', () => {
  it('holds exactly under concurrency: 20 simultaneous contacts from one IP with a limit of 5 store 5', async () => {
    const { kv } = rapidWriteRefusingKv();
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        callWithEnv({ THROTTLE: kv, SUBMISSIONS_PER_IP_PER_WINDOW: '5' }, '/api/contact', { body: { ...contact, name: `Visitor ${i}` }, ip: '192.0.2.50' }),
      ),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(15);
    const refusal = responses.find((r) => r.status === 429)!;
    expect(refusal.headers.get('retry-after')).toBe(String(IP_WINDOW_SECONDS));
    expect(((await refusal.json()) as { message: string }).message).toMatch(/Too many submissions/);
    expect(await countRows('contact_messages')).toBe(5);
    // The refused ones took no daily slot.
    expect(await env.DB.prepare("SELECT count FROM daily_counters WHERE counter = 'contact'").first()).toEqual({ count: 5 });
    const windows = await env.DB.prepare('SELECT ip_hash, count FROM submission_windows').all<{ ip_hash: string; count: number }>();
    expect(windows.results).toEqual([{ ip_hash: await hashIp('192.0.2.50', env.JWT_SECRET), count: 5 }]);
  }, 30_000);

  it('admits a valid submission and logs when the allowance cannot be counted; the daily cap still holds', async () => {
    await env.DB.prepare('DROP TABLE submission_windows').run();
    const cap = { DAILY_CONTACT_CAP: '1' };
    expect((await callWithEnv(cap, '/api/contact', { body: contact, ip: '192.0.2.60' })).status).toBe(201);
    expect(await countRows('contact_messages')).toBe(1);
    expect(logged()).toContainEqual(expect.stringContaining('[throttle] per-IP submission allowance unavailable, admitting the submission'));
    const over = await callWithEnv(cap, '/api/contact', { body: contact, ip: '192.0.2.60' });
    expect(over.status).toBe(429);
    expect(((await over.json()) as { message: string }).message).toMatch(/unusually high number of requests today/);
    expect(await countRows('contact_messages')).toBe(1);
  });

  it('the cron deletes windows that have ended and keeps the current one', async () => {
    await expectCronKeepsOnlyCurrentWindow('submission_windows', IP_WINDOW_SECONDS * 1000);
  });
});

describe('the newsletter sign-up allowance in D1', () => {
  it('admits a sign-up and logs when its per-network allowance cannot be counted', async () => {
    await env.DB.prepare('DROP TABLE signup_windows').run();
    const res = await callWithEnv({}, '/api/newsletter/subscribe', { body: { email: 'reader@example.com' } });
    expect(res.status).toBe(200);
    expect(await countRows('newsletter_subscriptions')).toBe(1);
    expect(logged()).toContainEqual(expect.stringContaining('[throttle] newsletter sign-up allowance unavailable'));
  });

  it('the cron deletes hours that have ended and keeps the current one', async () => {
    await expectCronKeepsOnlyCurrentWindow('signup_windows', SIGNUP_WINDOW_MS);
  });
});
