import type { Bindings } from '../../env';
import { deliverQueued, emailTransport } from './send-email';
import type { EmailAttachment, EmailKind, OutgoingEmail } from '../../mail-types';

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
  to: string;
  to_name: string | null;
  from_name: string | null;
  reply_to: string | null;
  subject: string;
  kind: string;
  text_body: string;
  html_body: string | null;
  headers: string | null;
  attachments: string | null;
}

// Claims the rows by moving their updated_at to now: a second sweep (or a tick that ends before it
// has written the outcomes) leaves them for another grace period; the outcome write only changes a
// row still 'queued', so a row its request settled in the meantime is not written twice.
const CLAIM_QUEUED = `UPDATE email_log SET updated_at = ?1
  WHERE id IN (SELECT id FROM email_log WHERE status = 'queued' AND kind NOT IN ('newsletter', 'appointment-reminder') AND updated_at <= ?2 ORDER BY updated_at, id LIMIT ?3)
  RETURNING id, "to", to_name, from_name, reply_to, subject, kind, text_body, html_body, headers, attachments`;

/** The message as it was queued: everything the transport is handed. */
function queuedMessage(row: QueuedRow): OutgoingEmail {
  return {
    to: row.to,
    ...(row.to_name ? { toName: row.to_name } : {}),
    ...(row.from_name ? { fromName: row.from_name } : {}),
    ...(row.reply_to ? { replyTo: row.reply_to } : {}),
    subject: row.subject,
    // Only the kinds the product sends are ever logged.
    kind: row.kind as EmailKind,
    text: row.text_body,
    ...(row.html_body !== null ? { html: row.html_body } : {}),
    ...(row.headers ? { headers: JSON.parse(row.headers) as Record<string, string> } : {}),
    ...(row.attachments ? { attachments: JSON.parse(row.attachments) as EmailAttachment[] } : {}),
  };
}

/** Sends the e-mails still 'queued' OUTBOX_GRACE_MS after they were queued, the oldest first. */
export async function sweepOutbox(env: Bindings, now: Date = new Date(), limit = OUTBOX_SWEEP_PER_TICK): Promise<SweepStats> {
  const { results } = await env.DB.prepare(CLAIM_QUEUED)
    .bind(now.getTime(), now.getTime() - OUTBOX_GRACE_MS, limit)
    .all<QueuedRow>();
  if (results.length === 0) return { swept: 0, sent: 0, failed: 0, subrequests: 1 };
  const messages = results.map(queuedMessage);
  const logged = { messages, logIds: results.map((row) => row.id), unsafe: messages.map(() => null) };
  const outcomes = await deliverQueued(env.DB, emailTransport(env), logged);
  const failed = outcomes.filter((o) => !o.ok).length;
  return { swept: results.length, sent: outcomes.length - failed, failed, subrequests: results.length + 2 };
}
