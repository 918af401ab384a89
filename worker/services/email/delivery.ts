import { eq } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import type { Db } from '../../db/client';
import { emailLog } from '../../db/schema';
import type { Bindings } from '../../env';
import { MailChannelsError, MailChannelsTransport, mailChannelsConfig } from './mailchannels';
import { OutboxTransport } from './outbox';
import { LocalMailboxTransport, localMailboxUrl } from './local-mailbox';
import { firmNameOf } from './sender-name';
import { safeErrorSummary } from '../platform/log-safe';
import type { EmailTransport, OutgoingEmail, SendOutcome } from '../../mail-types';
import { headerRefusal, logRow, type LoggedMessages } from '../../db/queued-mail';
import { redactSecrets } from '../../mail-redaction';

/**
 * The transport this deployment uses: MailChannels when an API key is configured (From: the firm's
 * published name, ./sender-name.ts); else, in local development, the local mailbox (an .eml file per message,
 * worker/services/email/local-mailbox.ts); else the D1 outbox, which keeps only the log's copy.
 */
export function emailTransport(env: Bindings): EmailTransport {
  const firmName = firmNameOf(env);
  const config = mailChannelsConfig(env);
  if (config) return new MailChannelsTransport(config, firmName);
  const mailbox = localMailboxUrl(env);
  return mailbox ? new LocalMailboxTransport(mailbox, env.MAIL_FROM, firmName) : new OutboxTransport();
}

export interface BatchSendOutcome extends SendOutcome {
  /** For failures: true when sending again cannot deliver twice (the provider certainly refused it). */
  retryable: boolean;
  /** For a message sent: the provider's id of it. */
  providerId?: string;
}

/**
 * Writes every message to the e-mail log in one batched insert: 'queued', or 'failed' at once when
 * a header field holds CR/LF (such a message is never handed to the transport).
 */
export async function logQueued(db: Db, transport: EmailTransport, messages: OutgoingEmail[]): Promise<LoggedMessages> {
  if (messages.length === 0) return { messages, logIds: [], unsafe: [] };
  const unsafe = messages.map(headerRefusal);
  const inserts = messages.map((message, i) => db.insert(emailLog).values(logRow(transport, message, unsafe[i])).returning({ id: emailLog.id }));
  const inserted = await db.batch(inserts as [(typeof inserts)[number], ...(typeof inserts)[number][]]);
  return { messages, logIds: inserted.map((rows) => rows[0].id), unsafe };
}

/**
 * Hands the logged messages to the transport in parallel. A message refused before the transport
 * (`unsafe`) is a failure at once; a transport error is a failure with its reason.
 */
export async function handOver(transport: EmailTransport, { messages, logIds, unsafe }: LoggedMessages): Promise<BatchSendOutcome[]> {
  return Promise.all(
    messages.map(async (message, i): Promise<BatchSendOutcome> => {
      const logId = logIds[i];
      if (unsafe[i]) return { ok: false, logId, status: 'failed', error: unsafe[i]!, retryable: false };
      try {
        const result = await transport.send(message);
        return { ok: true, logId, status: result.status, providerId: result.providerId, retryable: false };
      } catch (error) {
        // A provider's refusal may quote the message: its secrets stay out of the log.
        const detail = redactSecrets(error instanceof Error ? error.message : String(error));
        const retryable = error instanceof MailChannelsError ? error.retryable : false;
        return { ok: false, logId, status: 'failed', error: detail.slice(0, 1000), retryable };
      }
    }),
  );
}

/** One e-mail's outcome, for its 'queued' row in email_log. */
interface OutcomeRow {
  logId: number;
  status: 'sent' | 'stored' | 'failed';
  error: string | null;
  providerId: string | null;
}

/** The outcomes to write to the e-mail log: all but the unsafe messages', whose rows already say 'failed'. */
const outcomeRows = (outcomes: BatchSendOutcome[], unsafe: (string | null)[]): OutcomeRow[] =>
  outcomes.filter((_, i) => !unsafe[i]).map((o) => ({ logId: o.logId, status: o.status, error: o.error ?? null, providerId: o.providerId ?? null }));

// Every outcome in one statement: the list travels as one JSON parameter ([logId, status, error,
// providerId] per outcome), whatever its length (D1 binds at most 100 parameters). Only a row
// still 'queued' changes: an outcome written twice (the request's and the cron's sweep) changes nothing.
// The whole message (outbox_message) goes in the same write: handed over, or failed for good.
const UPDATE_OUTCOMES = `UPDATE email_log
  SET status = o.status, error = o.error, provider_id = o.provider_id, outbox_message = NULL, updated_at = ?2
  FROM (SELECT value ->> 0 AS id, value ->> 1 AS status, value ->> 2 AS error, value ->> 3 AS provider_id FROM json_each(?1)) AS o
  WHERE email_log.id = o.id AND email_log.status = 'queued'`;

/** Writes outcomes to their 'queued' rows in one D1 call; a row no longer 'queued' is left as it is. */
export async function writeOutcomes(d1: D1Database, rows: OutcomeRow[], at = new Date()): Promise<void> {
  if (rows.length === 0) return;
  const list = rows.map((r) => [r.logId, r.status, r.error, r.providerId]);
  await d1.prepare(UPDATE_OUTCOMES).bind(JSON.stringify(list), at.getTime()).run();
}

/**
 * Hands the logged messages to the transport in parallel, then records each outcome in one batched
 * write together with the caller's own statements (`settle`).
 */
export async function deliverLogged(
  db: Db,
  transport: EmailTransport,
  logged: LoggedMessages,
  settle: (outcomes: BatchSendOutcome[], logIds: number[]) => BatchItem<'sqlite'>[] = () => [],
): Promise<BatchSendOutcome[]> {
  const outcomes = await handOver(transport, logged);
  const now = new Date();
  const updates: BatchItem<'sqlite'>[] = outcomeRows(outcomes, logged.unsafe).map((o) =>
    db.update(emailLog).set({ status: o.status, error: o.error, providerId: o.providerId, outboxMessage: null, updatedAt: now }).where(eq(emailLog.id, o.logId)),
  );
  const statements = [...updates, ...settle(outcomes, logged.logIds)];
  if (statements.length) await db.batch(statements as [BatchItem<'sqlite'>, ...BatchItem<'sqlite'>[]]);
  return outcomes;
}

/** Delivery of queued messages after the answer, and the sweep's: hand over, write the outcomes, report failures. Never throws. */
export async function deliverQueued(d1: D1Database, transport: EmailTransport, logged: LoggedMessages): Promise<BatchSendOutcome[]> {
  const { messages } = logged;
  try {
    const outcomes = await handOver(transport, logged);
    await writeOutcomes(d1, outcomeRows(outcomes, logged.unsafe));
    for (const [i, outcome] of outcomes.entries()) if (!outcome.ok) console.error('E-mail not sent', messages[i].kind, safeErrorSummary(outcome.error));
    return outcomes;
  } catch (error) {
    // The outcomes could not be recorded: the log keeps these messages as 'queued'.
    console.error('E-mail outcome not recorded', messages.map((m) => m.kind).join(','), safeErrorSummary(error));
    return [];
  }
}
