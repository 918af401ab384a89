import type { AuditAction } from '#core/schemas/audit';

// The audit trail in words a person reads (docs/product.md §6.9): every action the worker records
// and every kind of record it names, labelled here once. The codes stay what is stored and what the
// CSV export and the filter's query carry; the screen shows these words and keeps the code for an
// expert in a title. tests/admin/audit-labels.web.test.ts fails on an action of AUDIT_ACTIONS, or a
// record kind the worker writes, that has no label here. A code written by an older (or newer)
// version than this one reads as a clearly marked unknown, never as the bare code.

/** What each action did, as the trail says it ("Two-factor turned on"). */
export const AUDIT_ACTION_LABELS = {
  'auth.sign-in': 'Sign-in',
  'auth.sign-out': 'Signed out',
  'auth.password-change': 'Own password changed',
  'auth.two-factor-setup': 'Two-factor setup started',
  'auth.two-factor-enable': 'Two-factor turned on',
  'auth.two-factor-disable': 'Two-factor turned off',
  'auth.password-reset': 'New password set from a reset link',
  'user.invite': 'Person invited',
  'user.invitation-revoke': 'Invitation withdrawn',
  'user.invitation-resend': 'Invitation sent again',
  'user.password-reset-send': 'Password-reset link sent',
  'user.create': 'Account created from an invitation',
  'user.update': 'Account’s newsletter permission changed',
  'user.role-change': 'Account’s role changed',
  'user.deactivate': 'Account deactivated',
  'user.reactivate': 'Account reactivated',
  'user.profile-update': 'Name and e-mail updated',
  'user.session-end': 'Signed out of a device',
  'appointment.confirm': 'Appointment confirmed',
  'appointment.cancel': 'Appointment cancelled',
  'appointment.reschedule': 'Appointment moved',
  'availability.weekly-offer': 'Weekly hours changed',
  'availability.booking-rules': 'Booking rules changed',
  'availability.block-date': 'Day closed to bookings',
  'availability.unblock-date': 'Day opened to bookings again',
  'calendar.feed-rotate': 'Calendar feed address replaced',
  'calendar.busy-add': 'Busy calendar added',
  'calendar.busy-refresh': 'Busy calendar read again',
  'calendar.busy-remove': 'Busy calendar removed',
  'contact.mark-read': 'Message marked read',
  'contact.mark-unread': 'Message marked unread',
  'contact.reply': 'Message answered',
  // Added by the inbox's archive (issue 49); labelled ahead so the trail reads them from the start.
  'contact.archive': 'Message archived',
  'contact.unarchive': 'Message brought back from the archive',
  'subscriber.erase': 'Subscriber erased',
  'subscriber.resend-confirmation': 'Confirmation e-mail sent again',
  'subscriber.import-create': 'Subscriber import started',
  'subscriber.import-stage': 'Subscriber import file checked',
  'subscriber.import-consent-given': 'Import confirmed: consent already given',
  'subscriber.import-consent-to-confirm': 'Import confirmed: each person asked to confirm',
  'subscriber.import-run': 'Subscribers imported',
  'subscriber.import-confirmations-sent': 'Import confirmation e-mails sent',
  'newsletter.send': 'Newsletter sent',
  'newsletter.schedule-start': 'Monthly newsletter started',
  'newsletter.schedule-stop': 'Monthly newsletter stopped',
  'newsletter.schedule-trigger': 'Monthly newsletter sent now',
  'newsletter.test': 'Test newsletter sent',
  'newsletter.draft-create': 'Newsletter draft created',
  'newsletter.draft-update': 'Newsletter draft changed',
  'newsletter.draft-delete': 'Newsletter draft deleted',
  'newsletter.draft-schedule': 'Newsletter scheduled',
  'newsletter.draft-cancel': 'Scheduled newsletter cancelled',
  'newsletter.scheduled-send': 'Scheduled newsletter sent',
  'newsletter.scheduler-send': 'Monthly newsletter sent',
  'newsletter.click-tracking-on': 'Link click counting turned on',
  'newsletter.click-tracking-off': 'Link click counting turned off',
  'content.save-draft': 'Content draft saved',
  'content.publish': 'Content published',
  'content.restore': 'Earlier content version restored',
  'settings.security': 'Two-factor requirement changed',
  'settings.email-test': 'Test e-mail sent',
  'settings.delivery-events-enroll': 'Delivery reports turned on',
} as const satisfies Record<string, string>;

/** Fails to compile when an action of AUDIT_ACTIONS has no label (the name of the missing one shows in the error). */
type Unlabelled = Exclude<AuditAction, keyof typeof AUDIT_ACTION_LABELS>;
export const EVERY_ACTION_LABELLED: [Unlabelled] extends [never] ? true : Unlabelled = true;

/** The record kinds (`kind:id`) the worker writes, as a person names one record of each ("Appointment 42"). */
export const AUDIT_RECORD_LABELS: Record<string, (id: string) => string> = {
  'admin-user': (id) => `User account ${id}`,
  appointment: (id) => `Appointment ${id}`,
  'busy-calendar': (id) => `Busy calendar ${id}`,
  'contact-message': (id) => `Contact message ${id}`,
  // The draft is named by the version it was made from (there is one draft at a time).
  'content-draft': (id) => `Content draft (made from version ${id})`,
  'content-version': (id) => `Content version ${id}`,
  date: (id) => `Day ${calendarDay(id)}`,
  'email-log': (id) => `E-mail ${id} of the e-mail log`,
  invitation: (id) => `Invitation ${id}`,
  newsletter: (id) => `Newsletter ${id}`,
  'newsletter-draft': (id) => `Newsletter draft ${id}`,
  subscriber: (id) => `Subscriber ${id}`,
  'subscriber-import': (id) => `Subscriber import ${id}`,
};

const dayFormat = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', weekday: 'short', month: 'short', day: 'numeric', year: 'numeric' });

/** A YYYY-MM-DD day as "Thu, Dec 10, 2026" (a calendar day, no zone shift); anything else as written. */
function calendarDay(value: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return value;
  return dayFormat.format(new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]), 12)));
}

/** What an action code reads as: its label, or a marked unknown for a code this version has no words for. */
export function auditActionLabel(code: string): string {
  const labels: Record<string, string> = AUDIT_ACTION_LABELS;
  return Object.hasOwn(labels, code) ? labels[code] : `Other change (${code})`;
}

/** What a record (`kind:id`) reads as: "Contact message 12", or a marked unknown for a kind this version does not know. */
export function auditRecordLabel(record: string): string {
  const colon = record.indexOf(':');
  const kind = colon < 0 ? record : record.slice(0, colon);
  const id = colon < 0 ? '' : record.slice(colon + 1);
  if (id && Object.hasOwn(AUDIT_RECORD_LABELS, kind)) return AUDIT_RECORD_LABELS[kind](id);
  return `Other record (${record})`;
}
