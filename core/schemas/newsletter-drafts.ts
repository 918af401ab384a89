import * as z from 'zod/v4';
import { isCalendarDate } from '#core/firm-time';
import { tooLongMessage } from './fields';
import { sendNewsletterSchema } from './newsletter';

// The newsletter editor's schemas, apart from ./newsletter.ts so the public sign-up form's chunk
// (which loads that module) does not grow with them.

/**
 * A draft as the editor saves it (docs/product.md §5.9): a subject, and a body that may still be
 * empty (it must have text before it is scheduled). Content is HTML, sanitised on the server.
 */
export const newsletterDraftSchema = z.object({
  subject: sendNewsletterSchema.shape.subject,
  content: z.string().max(500_000, 'Content is too long'),
});

/** The issue rendered in the firm's frame for the editor's live preview. */
export const newsletterRenderSchema = z.object({
  subject: z.string().max(200, tooLongMessage('Subject', 200)),
  content: z.string().max(500_000, 'Content is too long'),
});

/** When a draft goes out: a date and a minute in the firm's time zone (checked to be in the future by the route). */
export const scheduleDraftSchema = z.object({
  date: z.string().max(10, 'Please choose a valid date').refine(isCalendarDate, 'Please choose a valid date'),
  time: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Please choose a time'),
});

export type NewsletterDraftInput = z.infer<typeof newsletterDraftSchema>;
export type ScheduleDraft = z.infer<typeof scheduleDraftSchema>;
