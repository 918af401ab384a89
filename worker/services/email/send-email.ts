import { eq } from 'drizzle-orm';
import { getDb } from '../../db/client';
import { emailLog } from '../../db/schema';
import type { Bindings } from '../../env';
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

/** The transport this deployment uses. */
export function emailTransport(_env: Bindings): EmailTransport {
  return new OutboxTransport();
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
      .values({ to: message.to.replace(HEADER_UNSAFE, ' '), subject: message.subject.replace(HEADER_UNSAFE, ' '), kind: message.kind, status: 'failed', transport: transport.name, error: (error as Error).message, textBody: message.text, htmlBody: message.html })
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
