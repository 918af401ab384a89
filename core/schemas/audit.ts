import * as z from 'zod/v4';
import { isCalendarDate } from '#core/firm-time';

// The audit trail's vocabulary (docs/product.md §6.9): the action names the worker records and the
// owner's screen filters by, and the filter the list and the CSV export accept.

/** Every action the back office records, by area. docs/product.md §6.9 says what each one is. */
export const AUDIT_ACTIONS = [
  'auth.sign-in',
  'auth.sign-out',
  'auth.password-change',
  'auth.two-factor-setup',
  'auth.two-factor-enable',
  'auth.two-factor-disable',
  'auth.password-reset',
  'user.invite',
  'user.invitation-revoke',
  'user.invitation-resend',
  'user.password-reset-send',
  'user.create',
  'user.update',
  'user.role-change',
  'user.deactivate',
  'user.reactivate',
  'user.session-end',
  'user.profile-update',
  'appointment.confirm',
  'appointment.cancel',
  'appointment.reschedule',
  'availability.weekly-offer',
  'availability.booking-rules',
  'availability.block-date',
  'availability.unblock-date',
  'calendar.feed-rotate',
  'calendar.busy-add',
  'calendar.busy-refresh',
  'calendar.busy-remove',
  'contact.mark-read',
  'contact.mark-unread',
  'contact.reply',
  'contact.archive',
  'contact.unarchive',
  'subscriber.erase',
  'subscriber.resend-confirmation',
  'subscriber.import-create',
  'subscriber.import-stage',
  'subscriber.import-consent-given',
  'subscriber.import-consent-to-confirm',
  'subscriber.import-run',
  'subscriber.import-confirmations-sent',
  'newsletter.send',
  'newsletter.schedule-start',
  'newsletter.schedule-stop',
  'newsletter.schedule-trigger',
  'newsletter.test',
  'newsletter.draft-create',
  'newsletter.draft-update',
  'newsletter.draft-delete',
  'newsletter.draft-schedule',
  'newsletter.draft-cancel',
  'newsletter.scheduled-send',
  'newsletter.scheduler-send',
  'newsletter.click-tracking-on',
  'newsletter.click-tracking-off',
  'content.save-draft',
  'content.publish',
  'content.restore',
  'settings.security',
  'settings.email-test',
  'settings.delivery-events-enroll',
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** The CSV export's columns, in order (docs/product.md §6.9); Count is how many events an entry stands for (failed sign-ins of one network in one hour). */
export const AUDIT_CSV_COLUMNS = ['Time (UTC)', 'Actor', 'Actor ID', 'Action', 'Record', 'Outcome', 'Network', 'Count'] as const;

/** Entries per page of GET /api/admin/audit. */
export const AUDIT_PAGE_SIZE = 50;

const AUDIT_MESSAGES = {
  date: 'Dates must be YYYY-MM-DD',
  action: 'Unknown action',
  range: 'The start date must not be after the end date',
} as const;

const day = z.string().max(10, AUDIT_MESSAGES.date).refine(isCalendarDate, AUDIT_MESSAGES.date);

/** The filter of GET /api/admin/audit and its CSV export: actor, action, a range of firm days (inclusive), and a page cursor. */
export const auditFilterSchema = z
  .object({
    actor: z.string().trim().max(100, 'Actor must be at most 100 characters').optional(),
    action: z.enum(AUDIT_ACTIONS, { error: AUDIT_MESSAGES.action }).optional(),
    from: day.optional(),
    to: day.optional(),
    /** The id of the last entry of the page before: the next page holds older entries. */
    before: z.coerce.number({ error: 'before must be an entry id' }).int('before must be an entry id').positive('before must be an entry id').optional(),
  })
  .refine((f) => !f.from || !f.to || f.from <= f.to, { message: AUDIT_MESSAGES.range, path: ['to'] });

export type AuditFilter = z.output<typeof auditFilterSchema>;
