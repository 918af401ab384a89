import { firm as firmCode } from '#core/content/firm';
import type { contactMessages } from '../../db/schema';
import type { Bindings } from '../../env';
import { sendEmail } from './send-email';
import type { EmailTransport, OutgoingEmail, SendOutcome } from '../../mail-types';
import { zonedDateTime } from '#core/firm-time';
import { safeErrorSummary } from '../platform/log-safe';
import type { FirmFacts } from '#core/content/firm-facts';
import { framedHtml, oneLine, textRows } from './frame';

// The firm's notification of a contact message (or a chat hand-off), and the send after storing.
// Visitor text goes into bodies only, escaped for HTML; header fields (subject, names) are
// flattened to one line. The appointments' e-mails are worker/services/appointments/emails.ts.
//
// What they say about the firm (its name, address, phone, e-mail) is the published content
// document's (worker/services/content/published.ts), passed in as `firm`: the builders stay pure.

/** The firm's calendar zone: code, not content (docs/decisions/0013-content-as-a-versioned-document.md). */
const timeZone = firmCode.timeZone;

/**
 * The columns of a contact message (contact_messages) the firm's notification shows, all known
 * before the row is inserted: the notification is queued in the batch that inserts it
 * (worker/db/one-call-write.ts). It names the message by these (the inbox card shows each of them),
 * not by its id, which only the insert chooses.
 */
export type MailedContactMessage = Pick<typeof contactMessages.$inferSelect, 'name' | 'email' | 'phone' | 'message' | 'createdAt'> & {
  /** The notification's Message-ID, stored with the message: the root the inbox's replies thread under. */
  messageId?: string | null;
};

/** Where the firm's notifications go: the firm's address, the one the published site shows. */
const firmNotificationAddress = (firm: FirmFacts) => firm.contact.email;

function htmlDocument(firm: FirmFacts, title: string, paragraphs: string[], rows: [string, string][] = []): string {
  return framedHtml(firm, { title, paragraphs, rows });
}

/** Where a contact message came from: the contact form, or a visitor's chat hand-off (docs/product.md §4.2). */
export type ContactOrigin = 'contact-form' | 'chat-handoff';

const originText: Record<ContactOrigin, { how: string; title: string }> = {
  'contact-form': { how: 'sent a message through the contact form', title: 'New contact message' },
  'chat-handoff': { how: 'asked to talk to a person from the chat assistant', title: 'New chat hand-off' },
};

export function contactNotificationEmail(firm: FirmFacts, message: MailedContactMessage, origin: ContactOrigin = 'contact-form'): OutgoingEmail {
  const { how, title } = originText[origin];
  const rows: [string, string][] = [
    ['Name', message.name],
    ['Email', message.email],
    ['Phone', message.phone ?? '(not given)'],
    ['Received', zonedDateTime(message.createdAt, timeZone)],
    ['Message', message.message],
  ];
  return {
    kind: 'contact-notification',
    to: firmNotificationAddress(firm),
    toName: firm.name,
    replyTo: message.email,
    subject: oneLine(`${title} from ${message.name}`),
    text: `A visitor ${how}.\n\n${textRows(rows)}\n\nReply to this e-mail to answer ${message.email}.`,
    html: htmlDocument(firm, title, [`A visitor ${how}.`], rows),
    ...(message.messageId ? { headers: { 'Message-ID': message.messageId } } : {}),
  };
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
