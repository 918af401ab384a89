import type { AdminUserVariable } from '../../env';

// The permission table of docs/product.md §6.8 (docs/decisions/0017-staff-accounts-sessions-and-one-permission-table.md), enforced by worker/middleware/require-permission.ts
// on every signed-in admin route. One row per route of the admin API (method and path as the route
// declares it, relative to /api/admin); tests/admin/admin-permissions.worker.test.ts fails when a route
// has no row, so a new route gets one when it is added. A route without a row is owner-only.
//
// - 'everyone': any signed-in account (its own password, second factor and sessions);
// - 'staff': owners and staff (inbox, appointments, availability, chats, subscribers, content drafts);
// - 'newsletter': owners, and staff the owner allows to send newsletters (per account);
// - 'owner': owners only (users, security settings, publishing content, e-mail set-up, the audit trail).
export type Access = 'everyone' | 'staff' | 'newsletter' | 'owner';

export const ADMIN_PERMISSIONS: Readonly<Record<string, Access>> = {
  // The signed-in account itself.
  'POST /change-password': 'everyone',
  'GET /two-factor': 'everyone',
  'POST /two-factor/setup': 'everyone',
  'POST /two-factor/enable': 'everyone',
  'POST /two-factor/disable': 'everyone',
  'GET /account/sessions': 'everyone',
  'DELETE /account/sessions/:sessionId': 'everyone',
  // Its own name and e-mail (the first sign-in's "Tell us who you are", docs/product.md §6.8).
  'PATCH /account/profile': 'everyone',
  // Inbox and chats.
  'GET /contact-messages': 'staff',
  'GET /contact-messages/search': 'staff',
  'PATCH /contact-messages/:id': 'staff',
  'PATCH /contact-messages/:id/archive': 'staff',
  'GET /contact-messages/:id/replies': 'staff',
  'POST /contact-messages/:id/replies': 'staff',
  'GET /chat-sessions': 'staff',
  'GET /chat-sessions/:id': 'staff',
  // Appointments and availability.
  'GET /appointments': 'staff',
  'GET /appointments/search': 'staff',
  'PATCH /appointments/:id': 'staff',
  'GET /availability': 'staff',
  'PUT /availability': 'staff',
  'PUT /booking-rules': 'staff',
  'POST /blocked-dates': 'staff',
  'DELETE /blocked-dates/:date': 'staff',
  'GET /busy-calendars': 'staff',
  'POST /busy-calendars': 'staff',
  'POST /busy-calendars/:id/refresh': 'staff',
  'DELETE /busy-calendars/:id': 'staff',
  'GET /calendar-feed': 'staff',
  // The feed's secret address (every appointment, to whoever holds it) is shown only when rotated.
  'POST /calendar-feed/rotate': 'owner',
  // Content: staff edit the draft; publishing (and restoring, which publishes) is the owner's.
  'GET /content': 'staff',
  'PUT /content/draft': 'staff',
  'GET /content/versions': 'staff',
  'GET /content/preview': 'staff',
  // What a publish would change (read only): staff may see what their edits will do too.
  'GET /content/review': 'staff',
  'POST /content/publish': 'owner',
  'POST /content/restore': 'owner',
  // Subscribers and the newsletter's figures; sending (and the scheduler, which sends) by permission.
  'GET /subscribers': 'staff',
  'GET /subscribers/search': 'staff',
  'GET /subscribers/counts': 'staff',
  'DELETE /subscribers/:id': 'staff',
  'POST /subscribers/:id/resend-confirmation': 'staff',
  'GET /sent-newsletters': 'staff',
  'GET /sent-newsletters/:id/report': 'staff',
  // The CSV import (docs/product.md §5.10): staff look after the list.
  'POST /subscriber-imports': 'staff',
  'POST /subscriber-imports/rows': 'staff',
  'GET /subscriber-imports/:id': 'staff',
  'POST /subscriber-imports/:id/confirm': 'staff',
  'POST /subscriber-imports/:id/run': 'staff',
  // Click tracking on or off is the owner's setting (docs/product.md §5.11).
  'GET /newsletter/settings': 'staff',
  'PUT /newsletter/settings': 'owner',
  'GET /newsletter/stats': 'staff',
  'GET /newsletter/preview': 'staff',
  'GET /newsletter/preview-static': 'staff',
  'GET /newsletter/template': 'staff',
  'GET /scheduler/status': 'staff',
  'POST /send-newsletter': 'newsletter',
  'POST /newsletter/send': 'newsletter',
  'POST /newsletter/test-send': 'newsletter',
  // The editor's drafts (docs/product.md §5.9): writing is staff work, scheduling one is sending it.
  // A scheduled issue is a send in waiting: PUT changes one only for an account that may send
  // (updateDraft, worker/services/newsletter/drafts.ts; 403 otherwise), a rule this table cannot
  // express because it depends on the draft's state, not the route.
  'POST /newsletter/render': 'staff',
  'GET /newsletter/drafts': 'staff',
  'POST /newsletter/drafts': 'staff',
  'GET /newsletter/drafts/:id': 'staff',
  'PUT /newsletter/drafts/:id': 'staff',
  'DELETE /newsletter/drafts/:id': 'staff',
  'POST /newsletter/drafts/:id/schedule': 'newsletter',
  'POST /newsletter/drafts/:id/cancel': 'newsletter',
  'POST /scheduler/:action{start|stop|trigger}': 'newsletter',
  // The dashboard's figures and logs.
  'GET /rate-limit-stats': 'staff',
  'GET /turnstile': 'staff',
  'GET /emails': 'staff',
  'GET /emails/:id': 'staff',
  'GET /delivery-events': 'staff',
  // E-mail set-up and security settings.
  'POST /delivery-events/enroll': 'owner',
  'POST /email/test-auth': 'owner',
  'POST /email/test-send': 'owner',
  // Users, their sessions, the security settings and the audit trail.
  'GET /users': 'owner',
  'POST /users/invitations': 'owner',
  'POST /users/invitations/:id/revoke': 'owner',
  'POST /users/invitations/:id/resend': 'owner',
  'POST /users/:id/password-reset': 'owner',
  'PATCH /users/:id': 'owner',
  'POST /users/:id/deactivate': 'owner',
  'POST /users/:id/reactivate': 'owner',
  'GET /users/:id/sessions': 'owner',
  'DELETE /users/:id/sessions/:sessionId': 'owner',
  'PUT /security-settings': 'owner',
  'GET /audit': 'owner',
  'GET /audit/export': 'owner',
  // The go-live checklist (docs/product.md §6.10): which secrets are set and the e-mail DNS records.
  'GET /go-live': 'owner',
};

/** What an account may still do while the owner's policy makes it set up two-factor sign-in first. */
export const DURING_ENROLMENT = new Set(['GET /two-factor', 'POST /two-factor/setup', 'POST /two-factor/enable']);

/** The row of a route (`GET /users/:id`), or 'owner' for a route without one: closed by default. */
export const accessFor = (route: string): Access => ADMIN_PERMISSIONS[route] ?? 'owner';

/** Whether the account may use a route of this access. */
export function mayUse(user: Pick<AdminUserVariable, 'role' | 'canSendNewsletters'>, access: Access): boolean {
  if (user.role === 'owner') return true;
  if (access === 'newsletter') return user.canSendNewsletters;
  return access === 'everyone' || access === 'staff';
}

/** The 403's message: what the account lacks, in words the staff member can act on. */
export function refusalMessage(access: Access): string {
  return access === 'newsletter'
    ? 'Sending newsletters needs the owner’s permission for your account. Ask the firm’s owner to allow it.'
    : 'Only an owner can do this. Ask the firm’s owner.';
}
