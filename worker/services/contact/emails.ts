import { firm as firmCode } from '#core/content/firm';
import type { FirmFacts } from '#core/content/firm-facts';
import { zonedDateTime } from '#core/firm-time';
import type { contactMessages } from '../../db/schema';
import type { OutgoingEmail } from '../../mail-types';
import { framedHtml, oneLine, textRows, type DetailRows } from '../email/frame';

// The contact domain's e-mail: the firm's notification of a contact message or a chat hand-off
// (docs/product.md §2 and §4.2), on the shared frame (worker/services/email/frame.ts). It goes to
// the firm, so it keeps every field the visitor wrote: escaped in the HTML part, the subject
// flattened to one line. What it says about the firm is the published content's, passed in as
// `firm` (worker/services/content): the builder stays pure. The inbox's replies are ./replies.ts.

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

/** Where a contact message came from: the contact form, or a visitor's chat hand-off (docs/product.md §4.2). */
export type ContactOrigin = 'contact-form' | 'chat-handoff';

const originText: Record<ContactOrigin, { how: string; title: string }> = {
  'contact-form': { how: 'sent a message through the contact form', title: 'New contact message' },
  'chat-handoff': { how: 'asked to talk to a person from the chat assistant', title: 'New chat hand-off' },
};

/** The firm's notification of a contact message, to the firm's published address, Reply-To the visitor. */
export function contactNotificationEmail(firm: FirmFacts, message: MailedContactMessage, origin: ContactOrigin = 'contact-form'): OutgoingEmail {
  const { how, title } = originText[origin];
  const rows: DetailRows = [
    ['Name', message.name],
    ['Email', message.email],
    ['Phone', message.phone ?? '(not given)'],
    // The firm's calendar zone: code, not content (docs/decisions/0013-content-as-a-versioned-document.md).
    ['Received', zonedDateTime(message.createdAt, firmCode.timeZone)],
    ['Message', message.message],
  ];
  return {
    kind: 'contact-notification',
    to: firm.contact.email,
    toName: firm.name,
    replyTo: message.email,
    subject: oneLine(`${title} from ${message.name}`),
    text: `A visitor ${how}.\n\n${textRows(rows)}\n\nReply to this e-mail to answer ${message.email}.`,
    html: framedHtml(firm, { title, paragraphs: [`A visitor ${how}.`], rows }),
    ...(message.messageId ? { headers: { 'Message-ID': message.messageId } } : {}),
  };
}
