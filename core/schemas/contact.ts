import * as z from 'zod/v4';
import { listQuerySchema } from './admin-list';
import { emailField, FIELD_LIMITS, nameField, requiredText, tooLongMessage, turnstileTokenField } from './fields';

// The contact form's rules (docs/product.md §2, §9). The same schema validates the form in the
// browser (loaded on the first submit, web/features/contact/validate-contact.ts) and the request in
// POST /api/contact, so each message exists once; the rules the forms share are in ./fields.ts.
// The maximum lengths keep one message well inside the 64 KB body limit and a readable inbox card.

export const CONTACT_LIMITS = { ...FIELD_LIMITS, message: 5000, honeypot: 500 } as const;

export const contactSchema = z.object({
  name: nameField(),
  email: emailField(),
  phone: z.string().trim().max(CONTACT_LIMITS.phone, tooLongMessage('Phone', CONTACT_LIMITS.phone)).nullish(),
  message: z
    .string({ error: 'Message must be at least 10 characters' })
    .trim()
    .min(10, 'Message must be at least 10 characters')
    .max(CONTACT_LIMITS.message, tooLongMessage('Message', CONTACT_LIMITS.message)),
  /** Honeypot: hidden from people, filled by bots. Any value means "drop silently". */
  website: z.string().max(CONTACT_LIMITS.honeypot).optional(),
  turnstileToken: turnstileTokenField(),
});

export type ContactInput = z.input<typeof contactSchema>;
export type ContactRequest = z.output<typeof contactSchema>;

export const CONTACT_SUCCESS_MESSAGE = "Thank you for your message. We'll get back to you as soon as possible.";

/** PATCH /api/admin/contact-messages/:id: the admin marks a message read or unread. */
export const contactReadSchema = z.object({ read: z.boolean({ error: 'read must be true or false' }) });

/** PATCH /api/admin/contact-messages/:id/archive: the admin archives a message or brings it back to the inbox. */
export const contactArchiveSchema = z.object({ archived: z.boolean({ error: 'archived must be true or false' }) });

/**
 * The inbox's filters (docs/product.md §6.2): unread, read (replied ones too: a reply marks the
 * message read), replied (answered from the inbox) and archived. Without one, the inbox shows every
 * message that is not archived.
 */
export const INBOX_STATUSES = ['unread', 'read', 'replied', 'archived'] as const;
export type InboxStatus = (typeof INBOX_STATUSES)[number];

/** GET /api/admin/contact-messages/search: text (name, e-mail, phone, message), status, received between two firm days, page. */
export const inboxQuerySchema = listQuerySchema(INBOX_STATUSES);
export type InboxQuery = z.output<typeof inboxQuerySchema>;

/** The longest reply the inbox sends (plain text). */
export const CONTACT_REPLY_MAX = 10_000;

/** POST /api/admin/contact-messages/:id/replies: the firm's plain-text answer (docs/product.md §6.2). */
export const contactReplySchema = z.object({
  body: requiredText('Please write a reply', CONTACT_REPLY_MAX, tooLongMessage('Reply', CONTACT_REPLY_MAX)),
});
