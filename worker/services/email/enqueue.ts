import type { BatchItem } from 'drizzle-orm/batch';
import { getDb } from '../../db/client';
import type { LoggedMessages } from '../../db/queued-mail';
import type { Bindings } from '../../env';
import type { EmailTransport, OutgoingEmail } from '../../mail-types';
import { safeErrorSummary } from '../platform/log-safe';
import { type BatchSendOutcome, deliverLogged, deliverQueued, emailTransport, logQueued } from './delivery';

// The one way mail leaves the worker (docs/architecture.md, "Writes" and "Doors and the floor").
// Every message is first a row of the e-mail log, 'queued' with all the transport needs: either in
// the batch of the write that causes it (worker/db/one-call-write.ts, and the newsletter's
// confirmations: the write hands its `QueuedMail` here), or, after a write committed, logged here in
// one batched insert. Then the transport gets it, after the answer (`after`, the request's
// waitUntil) or at once, and one statement records every outcome. What an invocation does not
// finish, the cron's sweep sends (./outbox-sweep.ts): nothing is lost, nothing goes out twice.

export type { BatchSendOutcome } from './delivery';

/** What runs work after the answer has gone: the invocation's ExecutionContext (its waitUntil). */
export type AfterAnswer = Pick<ExecutionContext, 'waitUntil'>;

/** Messages a write already queued in its own batch: the transport it queued them for and their log rows. */
export interface QueuedMail {
  transport: EmailTransport;
  logged: LoggedMessages;
}

/** Where messages leave from: the bindings, and the request's waitUntil when delivery may follow the answer. */
export interface Outbox {
  env: Bindings;
  /** Deliver after the answer; without it the messages are delivered before enqueue returns (the cron, or a caller that reports the outcome). */
  after?: AfterAnswer;
  /** The transport (tests hand a failing one); the deployment's own by default (./delivery.ts, emailTransport). */
  transport?: EmailTransport;
  /**
   * The caller's own statements, written in the same batch as the outcomes (the newsletter's and the
   * reminders' ledgers): delivered at once, and a failure to log or record throws, so the ledger
   * never says what the log does not.
   */
  settle?: (outcomes: BatchSendOutcome[], logIds: number[]) => BatchItem<'sqlite'>[];
}

/**
 * Queues `mail` and hands it to the transport. Answers each message's outcome when delivered at
 * once; nothing when delivery follows the answer. Without `settle` it never throws: a broken mail
 * path (even a broken e-mail log) is reported on the console and the caller's request, whose own
 * write is committed, still succeeds (an empty answer: nothing was logged).
 */
export async function enqueue(outbox: Outbox, mail: OutgoingEmail[] | QueuedMail): Promise<BatchSendOutcome[]> {
  const transport = 'logged' in mail ? mail.transport : (outbox.transport ?? emailTransport(outbox.env));
  const messages = 'logged' in mail ? mail.logged.messages : mail;
  if (messages.length === 0) return [];
  const db = getDb(outbox.env.DB);
  // Queued already by the write's batch, or logged now in one batched insert.
  const log = async () => ('logged' in mail ? mail.logged : logQueued(db, transport, messages));
  if (outbox.settle) return deliverLogged(db, transport, await log(), outbox.settle);
  let logged: LoggedMessages;
  try {
    logged = await log();
  } catch (error) {
    console.error('E-mail not logged, not sent', messages.map((m) => m.kind).join(','), safeErrorSummary(error));
    return [];
  }
  // Logged 'stored' already (the offline transport): nothing to hand over, no outcome to write.
  if (transport.storesWhenQueued) return logged.logIds.map((logId, i) => storedOutcome(logId, logged.unsafe[i]));
  if (!outbox.after) return deliverQueued(outbox.env.DB, transport, logged);
  outbox.after.waitUntil(deliverQueued(outbox.env.DB, transport, logged));
  return [];
}

const storedOutcome = (logId: number, unsafe: string | null): BatchSendOutcome =>
  unsafe ? { ok: false, logId, status: 'failed', error: unsafe, retryable: false } : { ok: true, logId, status: 'stored', retryable: false };
