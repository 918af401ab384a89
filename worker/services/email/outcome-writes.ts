// The outcome of a visitor's e-mail (sent, stored or failed) reaches the admin's e-mail log after
// the answer (worker/services/email/send-email.ts deliverAfterAnswer). Written one request at a time,
// that is one more D1 call per contact message, booking or chat hand-off. Under load, many of those
// outcomes are known within a few milliseconds of each other in the same isolate, so they are
// written together: ONE UPDATE for every outcome waiting (docs/decisions/0006).
//
// How, without one request ever waiting on a promise another request settles (workerd may cancel
// such a wait, and I/O belongs to the request that started it):
// - each request keeps its own outcomes in a shared list and polls their state with its own timers;
// - when none of the isolate's transports is still running, or its outcomes have waited `windowMs`,
//   the request takes every waiting outcome and writes them with its own D1 call;
// - the write is guarded (`status = 'queued'`), so writing an outcome twice changes nothing: a request
//   whose outcomes another request took and never finished writing (its invocation ended) writes
//   them itself after `stallMs`;
// - a failed write gives the other requests' outcomes back for them to write; the writer's own stay
//   'queued' in the log and the failure is thrown to its caller, as a single request's write would.
// With no other transport running (a quiet site), an outcome is written at once, after one turn of
// the event loop.

/** One e-mail's outcome, for its 'queued' row in email_log. */
export interface OutcomeRow {
  logId: number;
  status: 'sent' | 'stored' | 'failed';
  error: string | null;
  providerId: string | null;
}

interface Waiting extends OutcomeRow {
  /** When the outcome was known (email_log.updated_at), in ms. */
  at: number;
  state: 'waiting' | 'writing' | 'written' | 'lost';
}

export interface OutcomeWriterOptions {
  /** How long a ready outcome waits for transports still running in the isolate. */
  windowMs: number;
  /** How long a request waits for another request writing its outcomes before writing them itself. */
  stallMs: number;
  /** The most outcomes one UPDATE carries (one JSON parameter). */
  maxPerWrite: number;
  /** How often a waiting request looks at its outcomes. */
  tickMs: number;
}

const DEFAULT_OPTIONS: OutcomeWriterOptions = { windowMs: 50, stallMs: 5_000, maxPerWrite: 100, tickMs: 5 };

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

// Every outcome in one statement: the list travels as one JSON parameter ([logId, status, error,
// providerId, at] per outcome), whatever its length (D1 binds at most 100 parameters).
const UPDATE_OUTCOMES = `UPDATE email_log
  SET status = o.status, error = o.error, provider_id = o.provider_id, updated_at = o.at
  FROM (SELECT value ->> 0 AS id, value ->> 1 AS status, value ->> 2 AS error, value ->> 3 AS provider_id, value ->> 4 AS at
        FROM json_each(?1)) AS o
  WHERE email_log.id = o.id AND email_log.status = 'queued'`;

/** Writes outcomes to their 'queued' rows in one D1 call; a row no longer 'queued' is left as it is. */
export async function writeOutcomes(d1: D1Database, rows: (OutcomeRow & { at: number })[]): Promise<void> {
  if (rows.length === 0) return;
  const list = rows.map((r) => [r.logId, r.status, r.error, r.providerId, r.at]);
  await d1.prepare(UPDATE_OUTCOMES).bind(JSON.stringify(list)).run();
}

export class OutcomeWriter {
  private readonly options: OutcomeWriterOptions;
  /** Outcomes known and not yet taken by a write, in the order they became known. */
  private waiting: Waiting[] = [];
  /** Transports of this isolate that have yet to answer (see `during`). */
  private running = 0;

  constructor(options: Partial<OutcomeWriterOptions> = {}) {
    this.options = { ...DEFAULT_OPTIONS, ...options };
  }

  /** Runs a transport hand-off; while it runs, ready outcomes wait (up to windowMs) to be written with its own. */
  async during<T>(work: () => Promise<T>): Promise<T> {
    this.running++;
    try {
      return await work();
    } finally {
      this.running--;
    }
  }

  /**
   * Records the outcomes in the e-mail log, alone or together with other requests' outcomes.
   * Resolves once they are written; rejects when this request's own write failed (the rows stay
   * 'queued'). Call it from the request's own waitUntil work.
   */
  async record(d1: D1Database, outcomes: OutcomeRow[]): Promise<void> {
    if (outcomes.length === 0) return;
    const at = Date.now();
    const mine: Waiting[] = outcomes.map((o) => ({ ...o, at, state: 'waiting' }));
    this.waiting.push(...mine);
    const { windowMs, stallMs, tickMs } = this.options;
    // One turn of the event loop first: outcomes that became known in the same turn (deliveries
    // whose answers came together) join this one before anything is written.
    await sleep(0);
    for (;;) {
      if (mine.every((o) => o.state === 'written')) return;
      const waited = Date.now() - at;
      if (mine.some((o) => o.state === 'waiting')) {
        if (this.running === 0 || waited >= windowMs) await this.writeWaiting(d1, mine);
        else await sleep(Math.min(tickMs, windowMs - waited));
        continue;
      }
      if (mine.some((o) => o.state === 'lost')) throw new Error('the e-mail outcome write failed');
      // Another request took them and has not finished writing: after stallMs, write them again.
      if (waited >= stallMs) {
        await writeOutcomes(d1, mine);
        for (const o of mine) o.state = 'written';
        return;
      }
      await sleep(tickMs);
    }
  }

  /** Takes the waiting outcomes (this request's first, then the others', up to maxPerWrite) and writes them. */
  private async writeWaiting(d1: D1Database, mine: Waiting[]): Promise<void> {
    const own = mine.filter((o) => o.state === 'waiting');
    const others = this.waiting.filter((o) => !own.includes(o)).slice(0, Math.max(0, this.options.maxPerWrite - own.length));
    const taken = [...own, ...others];
    this.waiting = this.waiting.filter((o) => !taken.includes(o));
    for (const o of taken) o.state = 'writing';
    try {
      await writeOutcomes(d1, taken);
      for (const o of taken) o.state = 'written';
    } catch (error) {
      // This request's outcomes are lost (their rows stay 'queued'); the others go back to their
      // own requests, which write them themselves.
      for (const o of own) o.state = 'lost';
      for (const o of others) o.state = 'waiting';
      this.waiting.unshift(...others);
      throw error;
    }
  }
}

/** The isolate's writer: every visitor request's e-mail outcomes go through it. */
export const outcomeWriter = new OutcomeWriter();
