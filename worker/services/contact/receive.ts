import type { RowInBatch } from '../../db/granted-batch';
import type { BatchStatement } from '../../db/one-call-write';
import { contactMessages } from '../../db/schema';
import type { Bindings } from '../../env';
import { type AfterAnswer, enqueue } from '../email/enqueue';
import { IP_WINDOW_SECONDS, storeSubmission, type SubmissionGate } from '../limits/submission-limits';
import { publishedContent } from '../content';
import { contactNotificationEmail, type ContactOrigin } from './emails';
import { newMessageId } from './replies';

// A contact message received (docs/product.md §2): from the contact form, or a visitor's chat
// hand-off (§4.2), whose message is the conversation's transcript. Stored first, then the firm is
// told: ONE D1 call (worker/services/limits/submission-limits.ts) holds the limits, the message,
// today's submitter record and the firm's notification queued in the outbox; the notification goes
// out after the visitor's answer (worker/services/email/enqueue.ts).

/** What the visitor wrote (validated by core/schemas/contact.ts or core/schemas/chat.ts). */
export interface ContactMessageInput {
  name: string;
  email: string;
  phone?: string | null;
  message: string;
}

/** Over the network's window or the day's contact cap (429, Retry-After `retryAfter` seconds): nothing stored. */
export type ContactMessageLimited = { ok: false; reason: 'limited'; message: string; retryAfter: number };

export type ReceivedContactMessage =
  | { ok: true }
  | ContactMessageLimited
  /** The gate refused it (409, a conversation already handed off): nothing counted or stored. */
  | { ok: false; reason: 'refused'; message: string };

export interface ReceiveOptions {
  origin?: ContactOrigin;
  /** A condition judged before anything is claimed, in the same transaction (one hand-off per conversation). */
  gate?: SubmissionGate;
  /** One more statement about the stored message in the same transaction (the session marked as handed off). */
  after?: (row: RowInBatch) => BatchStatement;
}

/**
 * Stores a contact message from the network `ipHash` under the contact form's limits, with the
 * firm's notification; the notification is handed to the transport after the answer (`afterAnswer`).
 */
export async function receiveContactMessage(
  env: Bindings,
  afterAnswer: AfterAnswer,
  ipHash: string,
  input: ContactMessageInput,
  options: ReceiveOptions = {},
): Promise<ReceivedContactMessage> {
  // The firm's facts as published, read before the write (no D1 call while this isolate has them).
  const { firm } = await publishedContent(env);
  // The notification's Message-ID is stored with the message: the thread root of the inbox's replies.
  const values = { name: input.name, email: input.email, phone: input.phone || null, message: input.message, messageId: newMessageId(env), createdAt: new Date() };
  const result = await storeSubmission(env, 'contact', ipHash, {
    table: contactMessages,
    values,
    emails: { always: [contactNotificationEmail(firm, values, options.origin)] },
    phone: firm.contact.phone,
    after: options.after,
    gate: options.gate,
  });
  if (!result.ok && result.status === 409) return { ok: false, reason: 'refused', message: result.message };
  if (!result.ok) return { ok: false, reason: 'limited', message: result.message, retryAfter: IP_WINDOW_SECONDS };
  if (result.mail) await enqueue({ env, after: afterAnswer }, result.mail);
  return { ok: true };
}

/** POST /api/contact's use case: a message from the contact form (no gate, so only the limits refuse it). */
export async function submitContactForm(env: Bindings, afterAnswer: AfterAnswer, ipHash: string, input: ContactMessageInput): Promise<{ ok: true } | ContactMessageLimited> {
  const result = await receiveContactMessage(env, afterAnswer, ipHash, input);
  if (!result.ok && result.reason === 'refused') throw new Error('a contact form message has no gate to refuse it');
  return result;
}
