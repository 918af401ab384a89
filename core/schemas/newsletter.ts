import * as z from 'zod/v4';
import { emailField, FIELD_LIMITS, FIELD_MESSAGES, isSingleLine, singleLineMessage, tooLongMessage, turnstileTokenField } from './fields';
import { listQuerySchema } from './admin-list';

/** docs/product.md §5.1 and §9: the footer form. One schema for the API and the form resolver. */
export const newsletterSubscribeSchema = z.object({
  email: emailField(),
  // Optional here; a blank one counts as not given.
  name: z
    .string()
    .trim()
    .max(FIELD_LIMITS.name, FIELD_MESSAGES.nameTooLong)
    .refine(isSingleLine, FIELD_MESSAGES.nameOneLine)
    .optional()
    .transform((value) => (value ? value : undefined)),
  turnstileToken: turnstileTokenField(),
});

/** The token carried by the confirmation and unsubscribe links. */
export const newsletterTokenSchema = z.object({
  token: z.string().min(1, 'Missing link token').max(2048, 'Invalid link'),
});

/** "Please fill in both subject and content" (docs/product.md §9). Content is HTML, sanitised on the server. */
export const sendNewsletterSchema = z.object({
  subject: z
    .string()
    .trim()
    .min(1, 'Please fill in both subject and content')
    .max(200, tooLongMessage('Subject', 200))
    .refine(isSingleLine, singleLineMessage('The subject')),
  content: z.string().trim().min(1, 'Please fill in both subject and content').max(500_000, 'Content is too long'),
});

/** The send dialog's "Send a test": this issue, to one address. */
export const testSendNewsletterSchema = sendNewsletterSchema.extend({
  to: emailField('Please enter an email address'),
});

export const testEmailSchema = z.object({
  testEmail: emailField('Please enter an email address'),
});

export type NewsletterSubscribe = z.input<typeof newsletterSubscribeSchema>;
export type SendNewsletter = z.infer<typeof sendNewsletterSchema>;
export type TestSendNewsletter = z.input<typeof testSendNewsletterSchema>;

/**
 * GET /api/admin/subscribers/search (docs/product.md §6.3): the shared list query
 * (core/schemas/admin-list.ts) with the Status column's two words; `from`..`to` are firm days of
 * the subscription date.
 */
export const SUBSCRIBER_LIST_STATUSES = ['active', 'inactive'] as const;
export const subscriberListQuerySchema = listQuerySchema(SUBSCRIBER_LIST_STATUSES);
export type SubscriberListQuery = z.infer<typeof subscriberListQuerySchema>;
