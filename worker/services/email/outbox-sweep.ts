import type { Bindings } from '../../env';
import { deliverQueued, emailTransport, writeOutcomes } from './delivery';
import type { OutgoingEmail } from '../../mail-types';
import { passJob } from '../platform/jobs';

// The cron's half of the outbox (docs/architecture.md, Writes): a visitor's e-mails are queued in
// the e-mail log with the write that causes them and delivered by the request after its answer
// (deliverAfterAnswer). When that invocation ended first (waitUntil work is best effort), the rows
// are still 'queued': each tick sends the oldest of them, once they have waited OUTBOX_GRACE_MS
// (far longer than any request's delivery can take), at most OUTBOX_SWEEP_PER_TICK a tick.
// The cron's own e-mails are not swept: newsletter issues and appointment reminders are sent within
// the tick, each under its own ledger (worker/services/newsletter/sender.ts,
// worker/services/appointments/reminders.ts), which decides whether one goes out again.

/** How long a queued e-mail is left to its request before the cron sends it. */
export const OUTBOX_GRACE_MS = 5 * 60 * 1000;

/**
 * E-mails one tick sweeps at most. The tick shares the Workers subrequest limit with the reminders
 * and the newsletter batch: a sweep spends N + 2 (one claim, N sends, one write of the outcomes).
 */
export const OUTBOX_SWEEP_PER_TICK = 10;

export interface SweepStats {
  swept: number;
  sent: number;
  failed: number;
  /** D1 calls and e-mail requests this sweep made (the cron gives the newsletter batch the rest). */
  subrequests: number;
}

interface QueuedRow {
  id: number;
  outbox_message: string | null;
}

// Claims the rows by moving their updated_at to now: a second sweep (or a tick that ends before it
// has written the outcomes) leaves them for another grace period; the outcome write only changes a
// row still 'queued', so a row its request settled in the meantime is not written twice.
// The message is read whole from outbox_message: the log's own columns hold it without its links'
// secrets (worker/mail-redaction.ts). A row without one (it cannot be sent as it was queued) is failed.
const CLAIM_QUEUED = `UPDATE email_log SET updated_at = ?1
  WHERE id IN (SELECT id FROM email_log WHERE status = 'queued' AND kind NOT IN ('newsletter', 'appointment-reminder') AND updated_at <= ?2 ORDER BY updated_at, id LIMIT ?3)
  RETURNING id, outbox_message`;

/** The message as it was queued: everything the transport is handed (JSON nulls, from migration 0019's copy, are absent fields). */
function queuedMessage(row: QueuedRow): OutgoingEmail | null {
  if (!row.outbox_message) return null;
  const parsed = JSON.parse(row.outbox_message) as Record<string, unknown>;
  return Object.fromEntries(Object.entries(parsed).filter(([, value]) => value !== null)) as unknown as OutgoingEmail;
}

const LOST = 'The message was not kept for sending';

/** Sends the e-mails still 'queued' OUTBOX_GRACE_MS after they were queued, the oldest first. */
export async function sweepOutbox(env: Bindings, now: Date = new Date(), limit = OUTBOX_SWEEP_PER_TICK): Promise<SweepStats> {
  const { results } = await env.DB.prepare(CLAIM_QUEUED)
    .bind(now.getTime(), now.getTime() - OUTBOX_GRACE_MS, limit)
    .all<QueuedRow>();
  if (results.length === 0) return { swept: 0, sent: 0, failed: 0, subrequests: 1 };
  const kept = results.flatMap((row) => {
    const message = queuedMessage(row);
    return message ? [{ id: row.id, message }] : [];
  });
  const lost = results.filter((row) => !row.outbox_message).map((row) => ({ logId: row.id, status: 'failed' as const, error: LOST, providerId: null }));
  const messages = kept.map((k) => k.message);
  const logged = { messages, logIds: kept.map((k) => k.id), unsafe: messages.map(() => null) };
  const outcomes = messages.length ? await deliverQueued(env.DB, emailTransport(env), logged) : [];
  // Rows queued without their message (none since migration 0019 moved them) cannot be sent.
  if (lost.length) await writeOutcomes(env.DB, lost, now);
  const sent = outcomes.filter((o) => o.ok).length;
  return { swept: results.length, sent, failed: results.length - sent, subrequests: results.length + 2 + (lost.length ? 1 : 0) };
}

/** The sweep as a row of the cron's table (worker/cron.ts). */
export const outboxSweepJob = passJob('Outbox sweep', ({ env, at }) => sweepOutbox(env, at), (stats) => stats.swept > 0);
