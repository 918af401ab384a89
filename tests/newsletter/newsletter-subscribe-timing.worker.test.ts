import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import worker from '../../worker/index';
import { ORIGIN } from '../harness/worker/helpers';

// Subscribing once answered a known address faster than a new one (17 vs 23 ms median), so
// the answer's timing told who subscribes. A timing test would be flaky; this one is structural:
// the D1 binding is wrapped so that every call waits for the test to let it run, and a call is let
// run before the answer only when the answer cannot come without it. The D1 work the answer waits
// for must then be the same, statement by statement, whatever the state of the address.

type Held = { sql: string; release: () => void };

/** A D1 binding whose every call (statement or batch) waits in `pending` until released. */
function heldD1(real: D1Database) {
  const pending: Held[] = [];
  const realOf = new WeakMap<object, D1PreparedStatement>();
  const sqlOf = new WeakMap<object, string>();
  const held = <T>(sql: string, run: () => Promise<T>): Promise<T> => new Promise<void>((release) => pending.push({ sql, release })).then(run);
  const wrap = (statement: D1PreparedStatement, sql: string): D1PreparedStatement => {
    const wrapped = {
      bind: (...values: unknown[]) => wrap(statement.bind(...values), sql),
      first: (column?: string) => held(sql, () => (column === undefined ? statement.first() : statement.first(column))),
      all: () => held(sql, () => statement.all()),
      run: () => held(sql, () => statement.run()),
      raw: (options?: { columnNames?: boolean }) => held(sql, () => statement.raw(options as { columnNames: true })),
    };
    realOf.set(wrapped, statement);
    sqlOf.set(wrapped, sql);
    return wrapped as unknown as D1PreparedStatement;
  };
  const d1 = {
    prepare: (sql: string) => wrap(real.prepare(sql), sql),
    batch: (statements: D1PreparedStatement[]) =>
      held(`batch: ${statements.map((s) => sqlOf.get(s)).join(' ; ')}`, () => real.batch(statements.map((s) => realOf.get(s) ?? s))),
    exec: (query: string) => held(query, () => real.exec(query)),
  };
  return { d1: d1 as unknown as D1Database, pending };
}

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * POSTs a sign-up with the held binding. Before the answer, a waiting call is released only after
 * the answer has had time to come without it; after the answer, every call is released as it comes
 * until the invocation's waitUntil work is done. Returns the answer and the SQL run on each side.
 */
async function subscribeHeld(email: string) {
  const { d1, pending } = heldD1(env.DB);
  const ctx = createExecutionContext();
  const request = new Request(`${ORIGIN}/api/newsletter/subscribe`, {
    method: 'POST',
    headers: { origin: ORIGIN, 'content-type': 'application/json', 'cf-connecting-ip': '203.0.113.60' },
    body: JSON.stringify({ email }),
  });
  let answered = false;
  const answer = Promise.resolve(worker.fetch(request, { ...env, DB: d1 }, ctx)).then((res) => {
    answered = true;
    return res;
  });
  const before: string[] = [];
  while (!answered) {
    // The answer's own path runs no timers: 50 ms is ample for it to come when it waits on nothing held.
    await Promise.race([answer, tick(50)]);
    if (answered) break;
    const call = pending.shift();
    if (!call) continue;
    before.push(call.sql);
    call.release();
  }
  const res = await answer;
  const after: string[] = [];
  let done = false;
  const finished = waitOnExecutionContext(ctx).then(() => (done = true));
  while (!done) {
    for (const call of pending.splice(0)) {
      after.push(call.sql);
      call.release();
    }
    await Promise.race([finished, tick(5)]);
  }
  return { status: res.status, body: await res.json(), before, after };
}

const subscriberRow = (email: string) => env.DB.prepare('SELECT * FROM newsletter_subscriptions WHERE email = ?').bind(email).first<Record<string, unknown>>();
const confirmations = async (email: string) =>
  (await env.DB.prepare("SELECT count(*) AS n FROM email_log WHERE kind = 'newsletter-confirmation' AND \"to\" = ?").bind(email).first<{ n: number }>())!.n;

describe('a sign-up answers a known address as it answers a new one', () => {
  it('the same answer after the same D1 work, for a new, a pending, an active, an unsubscribed and a suppressed address; the rest after the answer', async () => {
    const long = Date.now() - 60 * 60 * 1000;
    await env.DB.batch([
      env.DB.prepare("INSERT INTO newsletter_subscriptions (email, active, subscription_date) VALUES ('active@example.com', 'true', ?1)").bind(long),
      env.DB.prepare("INSERT INTO newsletter_subscriptions (email, active, subscription_date, confirmation_sent_at) VALUES ('pending@example.com', 'false', ?1, ?1)").bind(long),
      env.DB.prepare("INSERT INTO newsletter_subscriptions (email, active, subscription_date, unsubscribed_at) VALUES ('left@example.com', 'false', ?1, ?1)").bind(long),
      env.DB.prepare(
        "INSERT INTO newsletter_subscriptions (email, active, subscription_date, suppressed_at, suppression_reason) VALUES ('bounced@example.com', 'false', ?1, ?1, 'bounced')",
      ).bind(long),
    ]);
    const fresh = await subscribeHeld('new@example.com');
    // The first sign-up of an address writes its row before the answer, and mails it after.
    expect(fresh.before.filter((sql) => /newsletter_subscriptions/i.test(sql)).map((sql) => sql.split(' ')[0].toLowerCase())).toEqual(['insert', 'select']);
    expect(fresh.before.some((sql) => /email_log|daily_counters|^update/i.test(sql))).toBe(false);
    expect(fresh.after.some((sql) => /email_log/i.test(sql))).toBe(true);
    expect(fresh.after.some((sql) => /daily_counters/i.test(sql))).toBe(true);
    expect(await subscriberRow('new@example.com')).toMatchObject({ active: 'false' });
    expect(await confirmations('new@example.com')).toBe(1);

    for (const email of ['active@example.com', 'pending@example.com', 'left@example.com', 'bounced@example.com', 'new@example.com']) {
      const known = await subscribeHeld(email);
      expect(known.status, email).toBe(fresh.status);
      expect(known.body, email).toEqual(fresh.body);
      expect(known.before, email).toEqual(fresh.before);
    }
    // What each got after the answer is as before: a confirmation for the pending one past its 10
    // minutes and the unsubscribed one, nothing for the active, the suppressed or the repeat.
    expect(await confirmations('pending@example.com')).toBe(1);
    expect(await confirmations('left@example.com')).toBe(1);
    expect(await confirmations('active@example.com')).toBe(0);
    expect(await confirmations('bounced@example.com')).toBe(0);
    expect(await confirmations('new@example.com')).toBe(1);
    expect(fresh.body).toEqual({ message: 'Thank you! Please check your inbox and click the link in our e-mail to confirm your subscription.' });
  });
});
