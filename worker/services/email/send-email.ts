import { eq } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import { type Db, getDb } from '../../db/client';
import { emailLog } from '../../db/schema';
import type { Bindings } from '../../env';
import { MailChannelsError, MailChannelsTransport, mailChannelsConfig } from './mailchannels';
import { OutboxTransport } from './outbox';
import { LocalMailboxTransport, localMailboxUrl } from './local-mailbox';
import { firmNameOf } from './sender-name';
import { safeErrorSummary } from '../platform/log-safe';
import type { EmailTransport, OutgoingEmail, SendOutcome } from '../../mail-types';
import { assertHeaderSafe, attachmentsJson, headerRefusal, logRow, outboxMessageJson, type LoggedMessages } from '../../db/queued-mail';
import { loggedCopy, redactSecrets } from '../../mail-redaction';

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

/**
 * Sends one message and records it in the e-mail log: written as 'queued' before the transport is
 * called, then updated to sent / stored / failed. Never throws: callers (contact form, booking)
 * must not fail because mail did.
 */
export async function sendEmail(env: Bindings, message: OutgoingEmail, transport = emailTransport(env)): Promise<SendOutcome> {
  const db = getDb(env.DB);
  const logged = loggedCopy(message);
  try {
    assertHeaderSafe(message);
  } catch (error) {
    const [row] = await db
      .insert(emailLog)
      .values({ to: message.to.replace(/[\r\n]/g, ' '), subject: message.subject.replace(/[\r\n]/g, ' '), kind: message.kind, status: 'failed', transport: transport.name, error: (error as Error).message, textBody: logged.text, htmlBody: logged.html, attachments: attachmentsJson(message) })
      .returning({ id: emailLog.id });
    return { ok: false, logId: row.id, status: 'failed', error: (error as Error).message };
  }
  // Logged without its links' secrets (worker/mail-redaction.ts); the whole message is in
  // outbox_message only until the write that records the hand-over.
  const [row] = await db
    .insert(emailLog)
    .values({
      to: message.to,
      toName: message.toName ?? null,
      fromName: message.fromName ?? null,
      replyTo: message.replyTo ?? null,
      subject: message.subject,
      kind: message.kind,
      status: 'queued',
      transport: transport.name,
      textBody: logged.text,
      htmlBody: logged.html,
      headers: logged.headers ? JSON.stringify(logged.headers) : null,
      attachments: attachmentsJson(message),
      outboxMessage: transport.storesWhenQueued ? null : outboxMessageJson(message),
    })
    .returning({ id: emailLog.id });
  try {
    const result = await transport.send(message);
    await db
      .update(emailLog)
      .set({ status: result.status, providerId: result.providerId ?? null, outboxMessage: null, updatedAt: new Date() })
      .where(eq(emailLog.id, row.id));
    return { ok: true, logId: row.id, status: result.status };
  } catch (error) {
    const detail = redactSecrets(error instanceof Error ? error.message : String(error));
    await db.update(emailLog).set({ status: 'failed', error: detail.slice(0, 1000), outboxMessage: null, updatedAt: new Date() }).where(eq(emailLog.id, row.id));
    return { ok: false, logId: row.id, status: 'failed', error: detail };
  }
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
async function handOver(transport: EmailTransport, { messages, logIds, unsafe }: LoggedMessages): Promise<BatchSendOutcome[]> {
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

/**
 * sendEmail for many messages at once with a fixed number of D1 calls, for the newsletter: one
 * batched insert logs every message as 'queued' before any is sent (logQueued), the messages go
 * out in parallel, then one batched write records each outcome together with the caller's own
 * statements (`settle`), so the log and the caller's ledger change in the same transaction.
 * Messages with CR/LF in a header field are logged as failed and never handed to the transport.
 */
export async function sendEmailBatch(
  db: Db,
  transport: EmailTransport,
  messages: OutgoingEmail[],
  settle: (outcomes: BatchSendOutcome[], logIds: number[]) => BatchItem<'sqlite'>[] = () => [],
): Promise<BatchSendOutcome[]> {
  if (messages.length === 0) return [];
  return deliverLogged(db, transport, await logQueued(db, transport, messages), settle);
}

/** What runs work after the answer has gone: the invocation's ExecutionContext (its waitUntil). */
export type AfterAnswer = Pick<ExecutionContext, 'waitUntil'>;

/**
 * The e-mails a visitor's stored request causes (a contact message, a booking, a chat hand-off, a
 * change through an appointment link, a newsletter sign-up) go through the outbox, without making
 * the visitor wait for the transport (docs/architecture.md, Writes):
 * - before the answer (or in the write's own batch, worker/db/one-call-write.ts), every message is
 *   written to the e-mail log as 'queued', with all the transport needs to send it;
 * - after the answer, within the same invocation (`ctx.waitUntil`), deliverAfterAnswer hands them
 *   to the transport in parallel and one write records each as sent, stored or failed;
 * - if the invocation ends first (waitUntil work is best effort), the cron's sweep sends what is
 *   still 'queued' (worker/services/email/outbox-sweep.ts): nothing is lost.
 * Never throws: a broken mail path (even a broken e-mail log) is logged and the visitor's request,
 * whose row is already committed, still succeeds.
 */
export async function sendAfterAnswer(env: Bindings, ctx: AfterAnswer, messages: OutgoingEmail[], transport = emailTransport(env)): Promise<void> {
  if (messages.length === 0) return;
  const logged = await logQueuedOrReport(getDb(env.DB), transport, messages);
  if (logged) deliverAfterAnswer(env, ctx, transport, logged);
}

/**
 * logQueued for mail about a row already committed: a broken e-mail log is reported on the
 * console and answered null (nothing sent), so it never fails the visitor's request.
 */
export async function logQueuedOrReport(db: Db, transport: EmailTransport, messages: OutgoingEmail[]): Promise<LoggedMessages | null> {
  try {
    return await logQueued(db, transport, messages);
  } catch (error) {
    console.error('E-mail not logged, not sent', messages.map((m) => m.kind).join(','), safeErrorSummary(error));
    return null;
  }
}

/**
 * The outbox's deliverer for messages this request queued (logQueued, or in its write's batch):
 * after the answer, within the same invocation, the transport in parallel, then ONE write of every
 * outcome, only to rows still 'queued'. When the invocation ends before that write, the rows stay
 * 'queued' and the cron's sweep sends them (worker/services/email/outbox-sweep.ts).
 */
export function deliverAfterAnswer(env: Bindings, ctx: AfterAnswer, transport: EmailTransport, logged: LoggedMessages): void {
  // Logged 'stored' already: nothing to hand over, no outcome to write.
  if (transport.storesWhenQueued) return;
  ctx.waitUntil(deliverQueued(env.DB, transport, logged));
}

/** deliverAfterAnswer's work, and the sweep's: hand over, write the outcomes, report failures. Never throws. */
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

/**
 * Sends after the record is safely stored. Never throws: a broken mail path (even a broken e-mail
 * log) is logged and the visitor's request still succeeds.
 */
export async function sendAfterStoring(env: Bindings, messages: OutgoingEmail[], transport?: EmailTransport): Promise<(SendOutcome | null)[]> {
  const results = await Promise.allSettled(messages.map((m) => (transport ? sendEmail(env, m, transport) : sendEmail(env, m))));
  return results.map((result, i) => {
    if (result.status === 'fulfilled') {
      if (!result.value.ok) console.error('E-mail not sent', messages[i].kind, safeErrorSummary(result.value.error));
      return result.value;
    }
    console.error('E-mail failed', messages[i].kind, safeErrorSummary(result.reason));
    return null;
  });
}
