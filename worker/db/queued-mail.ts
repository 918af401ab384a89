import { builtOnce, slot } from './built-once';
import type { Db } from './client';
import { insertWhen, previousChanged, type RowInBatch } from './granted-batch';
import { emailLog } from './schema';
import type { EmailTransport, OutgoingEmail } from '../mail-types';
import { loggedCopy } from '../mail-redaction';

// The e-mail log as an outbox, at the database's level: the row a message is queued as, and the
// statements that queue it inside a caller's batch (worker/db/one-call-write.ts, the newsletter
// sign-up). Sending, and writing the outcome, is worker/services/email/enqueue.ts.

const HEADER_UNSAFE = /[\r\n]/;

/** Refuses CR/LF in any field that ends up in a mail header (header injection). */
export function assertHeaderSafe(message: OutgoingEmail): void {
  const fields = [message.to, message.toName ?? '', message.fromName ?? '', message.subject, message.replyTo ?? '', ...Object.entries(message.headers ?? {}).flat()];
  if (fields.some((value) => HEADER_UNSAFE.test(value))) {
    throw new Error('E-mail header fields must not contain line breaks');
  }
}

/**
 * The attachments as the log keeps them (email_log.attachments): a JSON array of
 * { filename, contentType, content } exactly as handed to the transport, or null when there are none.
 */
export function attachmentsJson(message: OutgoingEmail): string | null {
  if (!message.attachments?.length) return null;
  return JSON.stringify(message.attachments.map(({ filename, contentType, content }) => ({ filename, contentType, content })));
}

/**
 * The whole message as email_log.outbox_message keeps it while it waits for its transport: what
 * the transport is handed, so the cron's sweep can send it as it was queued.
 */
export function outboxMessageJson(message: OutgoingEmail): string {
  return JSON.stringify(message);
}

/** Messages written to the e-mail log as 'queued' (or 'failed', for an unsafe header), not yet handed over. */
export interface LoggedMessages {
  messages: OutgoingEmail[];
  logIds: number[];
  /** Per message: why it was refused before the transport (CR/LF in a header field), or null. */
  unsafe: (string | null)[];
}

/** Why a message is refused before the transport (CR/LF in a header field), or null. */
export function headerRefusal(message: OutgoingEmail): string | null {
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
 * The body columns hold the message without its links' secrets (worker/mail-redaction.ts); only a
 * 'queued' row holds the whole message, in outbox_message, until its outcome is written.
 */
export function logRow(transport: EmailTransport, message: OutgoingEmail, unsafe: string | null) {
  const status = unsafe ? ('failed' as const) : transport.storesWhenQueued ? ('stored' as const) : ('queued' as const);
  const logged = loggedCopy(message);
  return {
    to: unsafe ? message.to.replace(/[\r\n]/g, ' ') : message.to,
    toName: message.toName && !unsafe ? message.toName : null,
    fromName: message.fromName && !unsafe ? message.fromName : null,
    replyTo: message.replyTo && !unsafe ? message.replyTo : null,
    subject: unsafe ? message.subject.replace(/[\r\n]/g, ' ') : message.subject,
    kind: message.kind,
    status,
    error: unsafe,
    transport: transport.name,
    textBody: logged.text,
    htmlBody: logged.html ?? null,
    headers: logged.headers && !unsafe ? JSON.stringify(logged.headers) : null,
    attachments: attachmentsJson(message),
    outboxMessage: status === 'queued' ? outboxMessageJson(message) : null,
  };
}

/** When a message about a row in the batch is queued: while the row stands, or when the statement just before changed a row (a claim was granted). */
export type QueueCondition = 'row-stands' | 'previous-changed';

/**
 * The statement queuing one message in the outbox (email_log, 'queued'; 'failed' at once when a
 * header field holds CR/LF) inside the batch that writes the row it is about (`row`): written only
 * when `when` holds, the message stored as it is (it was built before the row, from what the row
 * holds, not its id). RETURNING the log row's id, or no row. Built once per isolate
 * (worker/db/built-once.ts).
 */
export function queuedMailStatement(db: Db, transport: EmailTransport, message: OutgoingEmail, row: RowInBatch, when: QueueCondition) {
  const unsafe = headerRefusal(message);
  const statement = builtOnce(
    `queued-mail:${row.kind}:${when}`,
    () =>
      insertWhen(
        db,
        emailLog,
        {
          to: slot('to'),
          toName: slot('toName'),
          fromName: slot('fromName'),
          replyTo: slot('replyTo'),
          subject: slot('subject'),
          kind: slot('kind'),
          status: slot('status'),
          error: slot('error'),
          transport: slot('transport'),
          textBody: slot('textBody'),
          htmlBody: slot('htmlBody'),
          headers: slot('headers'),
          attachments: slot('attachments'),
          outboxMessage: slot('outboxMessage'),
        },
        when === 'row-stands' ? row.stands : previousChanged,
      ).returning({ id: emailLog.id }),
    { ...logRow(transport, message, unsafe), ...row.values },
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

