import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import worker from '../../worker/index';
import { OutcomeWriter, writeOutcomes } from '../../worker/services/email/outcome-writes';
import { ORIGIN } from './helpers';
import { fakeMailChannels, mailChannelsEnv } from './mailchannels-fake';

// The outcomes of visitors' e-mails that become known at the same time are written to the
// e-mail log together, in one D1 call (worker/services/email/outcome-writes.ts), and no outcome is
// lost or written over when a write fails or stalls.

type RunBehaviour = 'real' | 'fail' | 'hang';

/**
 * The real D1 binding, counting the outcome writes (UPDATE email_log ... FROM json_each) that reach
 * it; `behaviours` decides, write by write, whether one runs, fails like an outage or never answers.
 */
function outcomeDb(behaviours: RunBehaviour[] = []) {
  const writes: number[] = [];
  const db = new Proxy(env.DB, {
    get(target, key) {
      if (key === 'prepare')
        return (query: string) => {
          const real = target.prepare(query);
          if (!query.includes('json_each')) return real;
          return {
            bind: (...params: unknown[]) => ({
              run: () => {
                writes.push((JSON.parse(params[0] as string) as unknown[]).length);
                const behaviour = behaviours[writes.length - 1] ?? 'real';
                if (behaviour === 'fail') return Promise.reject(new Error('D1_ERROR: simulated outage'));
                if (behaviour === 'hang') return new Promise(() => {});
                return real.bind(...params).run();
              },
            }),
          };
        };
      const value = Reflect.get(target, key);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { db, writes };
}

/** A 'queued' row in the e-mail log, as a visitor form writes it before its answer. */
async function queuedRow(kind = 'contact-notification'): Promise<number> {
  const row = await env.DB.prepare(
    `INSERT INTO email_log ("to", subject, kind, status, transport, text_body) VALUES ('firm@example.com', 'New contact message', ?1, 'queued', 'outbox', 'Body') RETURNING id`,
  )
    .bind(kind)
    .first<{ id: number }>();
  return row!.id;
}

const statusOf = async (id: number) =>
  (await env.DB.prepare('SELECT status, error, provider_id AS providerId FROM email_log WHERE id = ?1').bind(id).first<{ status: string; error: string | null; providerId: string | null }>())!;

/** A transport hand-off that ends when the test says so. */
function handOff() {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return { done, finish };
}

const stored = (logId: number) => ({ logId, status: 'stored' as const, error: null, providerId: null });

describe('OutcomeWriter', () => {
  it('writes a lone outcome at once, without waiting out its window', async () => {
    // A window of a minute: if a lone outcome waited for it, this test would time out.
    const writer = new OutcomeWriter({ windowMs: 60_000 });
    const { db, writes } = outcomeDb();
    const id = await queuedRow();
    await writer.record(db, [stored(id)]);
    expect(writes).toEqual([1]);
    expect((await statusOf(id)).status).toBe('stored');
  });

  it('writes the outcomes of deliveries that finish together in one D1 call', async () => {
    const writer = new OutcomeWriter({ windowMs: 60_000 });
    const { db, writes } = outcomeDb();
    const ids = await Promise.all(Array.from({ length: 10 }, () => queuedRow()));
    const transport = handOff();
    const recorded = ids.map(async (id) => {
      await writer.during(() => transport.done);
      await writer.record(db, [{ logId: id, status: 'sent', error: null, providerId: `req-${id}` }]);
    });
    transport.finish();
    await Promise.all(recorded);
    // The first nine wait for the tenth (its transport still runs), which writes all ten.
    expect(writes).toEqual([10]);
    for (const id of ids) expect(await statusOf(id)).toEqual({ status: 'sent', error: null, providerId: `req-${id}` });
  });

  it('does not wait longer than its window for a transport that is still running', async () => {
    const writer = new OutcomeWriter({ windowMs: 20 });
    const { db, writes } = outcomeDb();
    const id = await queuedRow();
    // Never finishes: the outcome that is ready must not wait for it.
    void writer.during(() => new Promise<void>(() => {}));
    await writer.record(db, [stored(id)]);
    expect(writes).toEqual([1]);
    expect((await statusOf(id)).status).toBe('stored');
  });

  /** Two deliveries whose transports finish one after the other; whichever request polls first writes both outcomes. */
  async function twoDeliveries(writer: OutcomeWriter, db: D1Database) {
    const ids = [await queuedRow(), await queuedRow()];
    const transports = [handOff(), handOff()];
    const records = ids.map((id, i) =>
      writer
        .during(() => transports[i].done)
        .then(() => writer.record(db, [stored(id)]))
        .then(() => id),
    );
    transports[0].finish();
    await new Promise((resolve) => setTimeout(resolve, 10));
    transports[1].finish();
    return { ids, records };
  }

  it('a failed write loses only the writer’s own outcome; the other request writes its own', async () => {
    const writer = new OutcomeWriter({ windowMs: 60_000 });
    const { db, writes } = outcomeDb(['fail']);
    const { ids, records } = await twoDeliveries(writer, db);
    const results = await Promise.allSettled(records);
    // One request wrote both outcomes and that write failed; the other then wrote its own.
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(writes).toEqual([2, 1]);
    const written = ids[results.findIndex((r) => r.status === 'fulfilled')];
    const lost = ids[results.findIndex((r) => r.status === 'rejected')];
    // The failed writer's row stays 'queued' (the admin sees the message never confirmed); the other is written.
    expect((await statusOf(lost)).status).toBe('queued');
    expect((await statusOf(written)).status).toBe('stored');
  });

  it('a request whose outcome another request took and never finished writing writes it itself', async () => {
    const writer = new OutcomeWriter({ windowMs: 60_000, stallMs: 50 });
    const { db, writes } = outcomeDb(['hang']);
    const { records } = await twoDeliveries(writer, db);
    // One request took both outcomes and its write never answers (its invocation ended); the other
    // writes its own once stallMs has passed.
    const written = await Promise.race(records);
    expect(writes).toEqual([2, 1]);
    expect((await statusOf(written)).status).toBe('stored');
  });

  it('never writes over a row that is no longer queued', async () => {
    const id = await queuedRow();
    await writeOutcomes(env.DB, [{ ...stored(id), at: Date.now() }]);
    await writeOutcomes(env.DB, [{ logId: id, status: 'failed', error: 'late duplicate', providerId: null, at: Date.now() }]);
    expect(await statusOf(id)).toEqual({ status: 'stored', error: null, providerId: null });
  });
});

describe('contact messages whose e-mails are handed over together', () => {
  it('have every outcome in the e-mail log, written in fewer D1 calls than messages', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    fakeMailChannels(async (_request, index) => {
      await gate;
      return Response.json({ request_id: `req-${index}` }, { status: 202 });
    });
    const { db, writes } = outcomeDb();
    const testEnv = { ...mailChannelsEnv({ MAILCHANNELS_TIMEOUT_MS: '60000', SUBMISSIONS_PER_IP_PER_WINDOW: '100' }), DB: db };
    const sent = await Promise.all(
      Array.from({ length: 8 }, async (_, i) => {
        const ctx = createExecutionContext();
        const res = await worker.fetch(
          new Request(`${ORIGIN}/api/contact`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', origin: ORIGIN, 'cf-connecting-ip': '203.0.113.60' },
            body: JSON.stringify({ name: `Visitor ${i}`, email: `visitor${i}@example.com`, phone: '', message: 'Do you prepare payroll filings?' }),
          }),
          testEnv,
          ctx,
        );
        return { status: res.status, ctx };
      }),
    );
    expect(sent.map((s) => s.status)).toEqual(Array(8).fill(201));
    release();
    await Promise.all(sent.map((s) => waitOnExecutionContext(s.ctx)));
    const log = (await env.DB.prepare("SELECT status FROM email_log WHERE kind = 'contact-notification'").all<{ status: string }>()).results;
    expect(log.map((r) => r.status)).toEqual(Array(8).fill('sent'));
    // Eight outcomes, written together: usually one call, a few more on a slow machine where the
    // answers straddle the 50 ms window; one per message would be eight.
    expect(writes.reduce((a, b) => a + b, 0)).toBe(8);
    expect(writes.length).toBeLessThanOrEqual(4);
  });
});
