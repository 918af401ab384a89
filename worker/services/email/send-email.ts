import { eq } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import { type Db, getDb } from '../../db/client';
import { emailLog } from '../../db/schema';
import type { Bindings } from '../../env';
import { MailChannelsError, MailChannelsTransport, mailChannelsConfig } from './mailchannels';
import { OutboxTransport } from './outbox';
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

/**
 * sendEmail for many messages at once with a fixed number of D1 calls, for the newsletter: one
 * batched insert logs every message as 'queued' before any is sent, the messages go out in
 * parallel, then one batched write records each outcome together with the caller's own
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
  const unsafe = messages.map((message) => {
    try {
      assertHeaderSafe(message);
      return null;
    } catch (error) {
      return (error as Error).message;
    }
  });
  const inserts = messages.map((message, i) =>
    db
      .insert(emailLog)
      .values({
        to: unsafe[i] ? message.to.replace(/[\r\n]/g, ' ') : message.to,
        subject: unsafe[i] ? message.subject.replace(/[\r\n]/g, ' ') : message.subject,
        kind: message.kind,
        status: unsafe[i] ? 'failed' : 'queued',
        error: unsafe[i],
        transport: transport.name,
        textBody: message.text,
        htmlBody: message.html,
        headers: message.headers && !unsafe[i] ? JSON.stringify(message.headers) : null,
        attachments: attachmentsJson(message),
      })
      .returning({ id: emailLog.id }),
  );
  const inserted = await db.batch(inserts as [(typeof inserts)[number], ...(typeof inserts)[number][]]);
  const logIds = inserted.map((rows) => rows[0].id);

  const outcomes = await Promise.all(
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

  const now = new Date();
  const updates: BatchItem<'sqlite'>[] = outcomes
    .filter((_, i) => !unsafe[i])
    .map((o) =>
      db
        .update(emailLog)
        .set({
          status: o.status,
          error: o.error ?? null,
          providerId: (o as BatchSendOutcome & { providerId?: string }).providerId ?? null,
          updatedAt: now,
        })
        .where(eq(emailLog.id, o.logId)),
    );
  const statements = [...updates, ...settle(outcomes)];
  if (statements.length) await db.batch(statements as [BatchItem<'sqlite'>, ...BatchItem<'sqlite'>[]]);
  return outcomes;
}
