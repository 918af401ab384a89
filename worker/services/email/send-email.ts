import { eq, sql, type SQL } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import { builtOnce, slot } from '../../db/built-once';
import { type Db, getDb } from '../../db/client';
import { insertIfPreviousChanged, insertWhen, mixedBatch, previousChanged, type MixedBatchItem } from '../../db/granted-batch';
import { emailLog } from '../../db/schema';
import type { Bindings } from '../../env';
import { MailChannelsError, MailChannelsTransport, mailChannelsConfig } from './mailchannels';
import { OutboxTransport } from './outbox';
import { type OutcomeRow, outcomeWriter } from './outcome-writes';
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

/** The e-mail log row of a message: 'queued', or 'failed' with the reason when a header field is unsafe. */
function logRow(transport: EmailTransport, message: OutgoingEmail, unsafe: string | null) {
  return {
    to: unsafe ? message.to.replace(/[\r\n]/g, ' ') : message.to,
    subject: unsafe ? message.subject.replace(/[\r\n]/g, ' ') : message.subject,
    kind: message.kind,
    status: unsafe ? ('failed' as const) : ('queued' as const),
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
 * the insert: random per request, so no text a visitor typed can contain it, and only letters and
 * digits, so HTML escaping and one-line flattening leave it as it is.
 */
export const rowIdMarker = () => `rowid${crypto.randomUUID().replaceAll('-', '')}`;

/** The message with every `marker` in its subject and bodies replaced by the row's id. */
export const withRowId = (message: OutgoingEmail, marker: string, id: number): OutgoingEmail => ({
  ...message,
  subject: message.subject.replaceAll(marker, String(id)),
  text: message.text.replaceAll(marker, String(id)),
  html: message.html?.replaceAll(marker, String(id)),
});

/** One message logged in a caller's batch (queuedLogAfterInsert), waiting for its log row's id. */
export interface PendingLog {
  /** The INSERT into email_log, for the caller's batch; RETURNING the log row's id, or no row. */
  statement: ReturnType<typeof queuedLogInsert>;
  /** The logged message once the batch has run: `rows` is what the statement returned, `rowId` the new row's id. */
  logged(rows: { id: number }[], rowId: number): LoggedMessages | null;
}

/**
 * Where a batch's earlier statement put the row a message is about: its id as SQL, and the condition
 * that it stands. The statements using them are built once per isolate (worker/db/built-once.ts), so
 * `id` and `stands` take what differs from one row to the next as placeholders (slot), with their
 * values in `values`, and `kind` names the way the row is found.
 */
export interface RowInBatch {
  /** The stand-in for the row's id in the message (rowIdMarker). */
  marker: string;
  /** How `id` and `stands` find the row: the same kind, the same SQL. */
  kind: string;
  /** The row's id, as an SQL expression. */
  id: SQL;
  /** True (as SQL) when the row was written and is still there. */
  stands: SQL;
  /** The values of the placeholders in `id` and `stands`. */
  values: Record<string, unknown>;
}

/**
 * E-mails about a row logged in the batch that writes it, after the statements that may refuse the
 * row or take it back (a unique index, a recheck): `statements` must therefore each guard themselves
 * on the row still standing (e.g. RowInBatch.stands, over an id chosen before the insert), so a
 * refused row logs and claims nothing. `logged` reads their results once the batch has run and the
 * row stands; `stepByStep` does the same work the long way, for a row already committed
 * (worker/services/limits/submission-limits.ts storeSubmission's step-by-step path), never throwing.
 */
export interface MailAfterRow {
  statements: MixedBatchItem[];
  logged(results: unknown[], rowId: number): LoggedMessages | null;
  stepByStep(rowId: number): Promise<LoggedMessages | null>;
}

/** The row written by the statement just before: last_insert_rowid(), when that statement changed a row. */
const justInserted = (marker: string): RowInBatch => ({ marker, kind: 'just-inserted', id: sql`last_insert_rowid()`, stands: previousChanged, values: {} });

/** When a message about a row in the batch is logged: while the row stands, or when the statement just before changed a row (a claim was granted). */
export type LogCondition = 'row-stands' | 'previous-changed';

function queuedLogInsert(db: Db, values: ReturnType<typeof logRow>, row: RowInBatch, when: LogCondition) {
  return builtOnce(
    `queued-log:${row.kind}:${when}`,
    () => {
      // The row's id, as the marker's replacement (replace() of a NULL html body stays NULL).
      const id = (name: string) => sql`replace(${slot(name)}, ${slot('marker')}, ${row.id})`;
      return insertWhen(
        db,
        emailLog,
        {
          to: slot('to'),
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
    { ...values, marker: row.marker, ...row.values },
  );
}

/**
 * logQueued for one message about a row the same batch inserts, as a statement that must follow
 * that insert directly: it is written only when the insert wrote the row (changes() > 0), and the
 * `marker` (rowIdMarker) in its subject and bodies becomes the row's id (last_insert_rowid()).
 * So the row and the trace of its e-mail commit together, in one D1 call.
 */
export function queuedLogAfterInsert(db: Db, transport: EmailTransport, message: OutgoingEmail, marker: string): PendingLog {
  return queuedLogWhen(db, transport, message, justInserted(marker), 'previous-changed');
}

/**
 * logQueued for one message about a row an earlier statement of the same batch wrote (`row`), not
 * necessarily the one just before: written only when `when` holds (the row stands, or a claim
 * just before it was granted), with the marker in its subject and bodies replaced by the row's id.
 */
export function queuedLogWhen(db: Db, transport: EmailTransport, message: OutgoingEmail, row: RowInBatch, when: LogCondition): PendingLog {
  const unsafe = headerRefusal(message);
  return {
    statement: queuedLogInsert(db, logRow(transport, message, unsafe), row, when),
    logged: (rows, rowId) => (rows[0] ? { messages: [withRowId(message, row.marker, rowId)], logIds: [rows[0].id], unsafe: [unsafe] } : null),
  };
}

/** Several logged groups as one, in order (null for a group not logged); null when none was. */
export function joinLogged(groups: (LoggedMessages | null)[]): LoggedMessages | null {
  const logged = groups.filter((g): g is LoggedMessages => g !== null);
  if (logged.length === 0) return null;
  return { messages: logged.flatMap((g) => g.messages), logIds: logged.flatMap((g) => g.logIds), unsafe: logged.flatMap((g) => g.unsafe) };
}

/**
 * logQueued for `claimed`, a message that may go out only under a claim (the day's cap on mail to
 * unverified addresses), and `always`, messages that go out regardless, in ONE D1 call:
 * a batch of the claim, then `claimed`'s log row only when the claim changed a row (was granted),
 * then the others' log rows. Without a claim (`claim` null: the cap is 0) `claimed` is not logged.
 * The logged messages keep the order [claimed, ...always]. `granted` says whether `claimed` was.
 */
export async function logQueuedUnderClaim(
  d1: D1Database,
  transport: EmailTransport,
  claim: D1PreparedStatement | null,
  claimed: OutgoingEmail,
  always: OutgoingEmail[],
): Promise<{ logged: LoggedMessages; granted: boolean }> {
  const db = getDb(d1);
  const unsafe = [claimed, ...always].map(headerRefusal);
  const statements: MixedBatchItem[] = [
    ...(claim ? [claim, insertIfPreviousChanged(db, emailLog, logRow(transport, claimed, unsafe[0])).returning({ id: emailLog.id })] : []),
    ...always.map((message, i) => db.insert(emailLog).values(logRow(transport, message, unsafe[i + 1])).returning({ id: emailLog.id })),
  ];
  const results = await mixedBatch(d1, statements);
  const claimedRows = claim ? (results.splice(0, 2)[1] as { id: number }[]) : [];
  const logIds = (results as { id: number }[][]).map((rows) => rows[0].id);
  const granted = claimedRows.length > 0;
  return {
    logged: granted ? { messages: [claimed, ...always], logIds: [claimedRows[0].id, ...logIds], unsafe } : { messages: always, logIds, unsafe: unsafe.slice(1) },
    granted,
  };
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
        return { ok: true, logId, status: result.status, providerId: result.providerId, retryable: false } as BatchSendOutcome;
      } catch (error) {
        const detail = error instanceof Error ? error.message : String(error);
        const retryable = error instanceof MailChannelsError ? error.retryable : false;
        return { ok: false, logId, status: 'failed', error: detail.slice(0, 1000), retryable };
      }
    }),
  );
}

/** The outcomes to write to the e-mail log: all but the unsafe messages', whose rows already say 'failed'. */
const outcomeRows = (outcomes: BatchSendOutcome[], unsafe: (string | null)[]): OutcomeRow[] =>
  outcomes
    .filter((_, i) => !unsafe[i])
    .map((o) => ({ logId: o.logId, status: o.status, error: o.error ?? null, providerId: (o as BatchSendOutcome & { providerId?: string }).providerId ?? null }));

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
 * change through an appointment link, a newsletter sign-up), sent without making the visitor wait
 * for the transport:
 * - before the answer, one batched insert logs every message as 'queued'. This write stays in the
 *   request on purpose: if the platform ends the invocation after the answer (waitUntil work is
 *   best effort), the admin's e-mail log still shows each message that never left, as 'queued',
 *   instead of no trace at all. It costs one D1 call whatever the number of messages;
 * - after the answer, within the same invocation (`ctx.waitUntil`), the messages go to the
 *   transport in parallel and one write records each as sent, stored or failed, together with the
 *   outcomes of other requests of the isolate that are ready at the same time (outcome-writes.ts).
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
 * The second half of sendAfterAnswer, for messages already logged as 'queued' (logQueued, or in the
 * caller's own batch with queuedLogAfterInsert): after the answer, within the same invocation, the
 * transport in parallel, then the outcomes' write, shared with other requests' (outcome-writes.ts).
 */
export function deliverAfterAnswer(env: Bindings, ctx: AfterAnswer, transport: EmailTransport, logged: LoggedMessages): void {
  const { messages } = logged;
  const deliver = async () => {
    const outcomes = await outcomeWriter.during(() => handOver(transport, logged));
    // Written with the outcomes of other requests finishing at the same time (outcome-writes.ts).
    await outcomeWriter.record(env.DB, outcomeRows(outcomes, logged.unsafe));
    return outcomes;
  };
  ctx.waitUntil(
    deliver().then(
      (outcomes) => {
        for (const [i, outcome] of outcomes.entries()) if (!outcome.ok) console.error('E-mail not sent', messages[i].kind, safeErrorSummary(outcome.error));
      },
      // The outcomes could not be recorded: the log keeps these messages as 'queued'.
      (error) => console.error('E-mail outcome not recorded', messages.map((m) => m.kind).join(','), safeErrorSummary(error)),
    ),
  );
}
