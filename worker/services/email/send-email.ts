import { eq, sql } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import { builtOnce, slot } from '../../db/built-once';
import { type Db, getDb } from '../../db/client';
import { insertWhen, previousChanged, type RowInBatch } from '../../db/granted-batch';
import { emailLog } from '../../db/schema';
import type { Bindings } from '../../env';
import { MailChannelsError, MailChannelsTransport, mailChannelsConfig } from './mailchannels';
import { OutboxTransport } from './outbox';
import { safeErrorSummary } from '../platform/log-safe';
import type { EmailTransport, OutgoingEmail, SendOutcome } from './types';

const HEADER_UNSAFE = /[\r\n]/;

/** Refuses CR/LF in any field that ends up in a mail header (header injection). */
export function assertHeaderSafe(message: OutgoingEmail): void {
  const fields = [message.to, message.toName ?? '', message.subject, message.replyTo ?? '', ...Object.entries(message.headers ?? {}).flat()];
  if (fields.some((value) => HEADER_UNSAFE.test(value))) {
    throw new Error('E-mail header fields must not contain line breaks');
  }
}

/**
 * The attachments as the log keeps them (email_log.attachments): a JSON array of
 * { filename, contentType, content } exactly as handed to the transport, or null when there are none.
 */
function attachmentsJson(message: OutgoingEmail): string | null {
  if (!message.attachments?.length) return null;
  return JSON.stringify(message.attachments.map(({ filename, contentType, content }) => ({ filename, contentType, content })));
}

/** The transport this deployment uses: MailChannels when an API key is configured, else the D1 outbox. */
export function emailTransport(env: Bindings): EmailTransport {
  const config = mailChannelsConfig(env);
  return config ? new MailChannelsTransport(config) : new OutboxTransport();
}

/**
 * Sends one message and records it in the e-mail log: written as 'queued' before the transport is
 * called, then updated to sent / stored / failed. Never throws: callers (contact form, booking)
 * must not fail because mail did.
 */
export async function sendEmail(env: Bindings, message: OutgoingEmail, transport = emailTransport(env)): Promise<SendOutcome> {
  const db = getDb(env.DB);
  try {
    assertHeaderSafe(message);
  } catch (error) {
    const [row] = await db
      .insert(emailLog)
      .values({ to: message.to.replace(/[\r\n]/g, ' '), subject: message.subject.replace(/[\r\n]/g, ' '), kind: message.kind, status: 'failed', transport: transport.name, error: (error as Error).message, textBody: message.text, htmlBody: message.html, attachments: attachmentsJson(message) })
      .returning({ id: emailLog.id });
    return { ok: false, logId: row.id, status: 'failed', error: (error as Error).message };
  }
  const [row] = await db
    .insert(emailLog)
    .values({
      to: message.to,
      toName: message.toName ?? null,
      replyTo: message.replyTo ?? null,
      subject: message.subject,
      kind: message.kind,
      status: 'queued',
      transport: transport.name,
      textBody: message.text,
      htmlBody: message.html,
      headers: message.headers ? JSON.stringify(message.headers) : null,
      attachments: attachmentsJson(message),
    })
    .returning({ id: emailLog.id });
  try {
    const result = await transport.send(message);
    await db
      .update(emailLog)
      .set({ status: result.status, providerId: result.providerId ?? null, updatedAt: new Date() })
      .where(eq(emailLog.id, row.id));
    return { ok: true, logId: row.id, status: result.status };
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    await db.update(emailLog).set({ status: 'failed', error: detail.slice(0, 1000), updatedAt: new Date() }).where(eq(emailLog.id, row.id));
    return { ok: false, logId: row.id, status: 'failed', error: detail };
  }
}

export interface BatchSendOutcome extends SendOutcome {
  /** For failures: true when sending again cannot deliver twice (the provider certainly refused it). */
  retryable: boolean;
  /** For a message sent: the provider's id of it. */
  providerId?: string;
}

/** Messages written to the e-mail log as 'queued' (or 'failed', for an unsafe header), not yet handed over. */
export interface LoggedMessages {
  messages: OutgoingEmail[];
  logIds: number[];
  /** Per message: why it was refused before the transport (CR/LF in a header field), or null. */
  unsafe: (string | null)[];
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

/** Why a message is refused before the transport (CR/LF in a header field), or null. */
function headerRefusal(message: OutgoingEmail): string | null {
  try {
    assertHeaderSafe(message);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

/**
 * The e-mail log row of a message: 'queued' with everything the transport needs to send it later
 * (the outbox, worker/services/email/outbox-sweep.ts), or 'failed' with the reason when a header
 * field is unsafe; 'stored' at once with a transport whose whole effect is that row (storesWhenQueued).
 */
function logRow(transport: EmailTransport, message: OutgoingEmail, unsafe: string | null) {
  return {
    to: unsafe ? message.to.replace(/[\r\n]/g, ' ') : message.to,
    toName: message.toName && !unsafe ? message.toName : null,
    replyTo: message.replyTo && !unsafe ? message.replyTo : null,
    subject: unsafe ? message.subject.replace(/[\r\n]/g, ' ') : message.subject,
    kind: message.kind,
    status: unsafe ? ('failed' as const) : transport.storesWhenQueued ? ('stored' as const) : ('queued' as const),
    error: unsafe,
    transport: transport.name,
    textBody: message.text,
    htmlBody: message.html,
    headers: message.headers && !unsafe ? JSON.stringify(message.headers) : null,
    attachments: attachmentsJson(message),
  };
}

/**
 * A stand-in for the id of a row that the same batch has yet to insert, for a message built before
 * the insert (worker/db/one-call-write.ts): random per request, so no text a visitor typed can
 * contain it, and only letters and digits, so HTML escaping and one-line flattening leave it as it is.
 */
export const rowIdMarker = () => `rowid${crypto.randomUUID().replaceAll('-', '')}`;

/** The message with every `marker` in its subject and bodies replaced by the row's id. */
export const withRowId = (message: OutgoingEmail, marker: string, id: number): OutgoingEmail => ({
  ...message,
  subject: message.subject.replaceAll(marker, String(id)),
  text: message.text.replaceAll(marker, String(id)),
  html: message.html?.replaceAll(marker, String(id)),
});

/** When a message about a row in the batch is queued: while the row stands, or when the statement just before changed a row (a claim was granted). */
export type QueueCondition = 'row-stands' | 'previous-changed';

/**
 * The statement queuing one message in the outbox (email_log, 'queued'; 'failed' at once when a
 * header field holds CR/LF) inside the batch that writes the row it is about (`row`): written only
 * when `when` holds, with every `marker` in its subject and bodies replaced by the row's id.
 * RETURNING the log row's id, or no row. Built once per isolate (worker/db/built-once.ts).
 */
export function queuedMailStatement(db: Db, transport: EmailTransport, message: OutgoingEmail, marker: string, row: RowInBatch, when: QueueCondition) {
  const unsafe = headerRefusal(message);
  const statement = builtOnce(
    `queued-mail:${row.kind}:${when}`,
    () => {
      // The row's id, as the marker's replacement (replace() of a NULL html body stays NULL).
      const id = (name: string) => sql`replace(${slot(name)}, ${slot('marker')}, ${row.id})`;
      return insertWhen(
        db,
        emailLog,
        {
          to: slot('to'),
          toName: slot('toName'),
          replyTo: slot('replyTo'),
          subject: id('subject'),
          kind: slot('kind'),
          status: slot('status'),
          error: slot('error'),
          transport: slot('transport'),
          textBody: id('textBody'),
          htmlBody: id('htmlBody'),
          headers: slot('headers'),
          attachments: slot('attachments'),
        },
        when === 'row-stands' ? row.stands : previousChanged,
      ).returning({ id: emailLog.id });
    },
    { ...logRow(transport, message, unsafe), marker, ...row.values },
  );
  return { statement, unsafe };
}

/**
 * The statement queuing one message in the outbox inside a caller's batch, written only when the
 * statement just before it changed a row (a claim was granted). RETURNING the log row's id, or no row.
 */
export function queuedMailIfPreviousChanged(db: Db, transport: EmailTransport, message: OutgoingEmail) {
  const unsafe = headerRefusal(message);
  return { statement: insertWhen(db, emailLog, logRow(transport, message, unsafe), previousChanged).returning({ id: emailLog.id }), unsafe };
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
        const detail = error instanceof Error ? error.message : String(error);
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
const UPDATE_OUTCOMES = `UPDATE email_log
  SET status = o.status, error = o.error, provider_id = o.provider_id, updated_at = ?2
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
  settle: (outcomes: BatchSendOutcome[]) => BatchItem<'sqlite'>[] = () => [],
): Promise<BatchSendOutcome[]> {
  const outcomes = await handOver(transport, logged);
  const now = new Date();
  const updates: BatchItem<'sqlite'>[] = outcomeRows(outcomes, logged.unsafe).map((o) =>
    db.update(emailLog).set({ status: o.status, error: o.error, providerId: o.providerId, updatedAt: now }).where(eq(emailLog.id, o.logId)),
  );
  const statements = [...updates, ...settle(outcomes)];
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
  settle: (outcomes: BatchSendOutcome[]) => BatchItem<'sqlite'>[] = () => [],
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
