import { sql } from 'drizzle-orm';
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

// Timestamps are stored as Unix epoch milliseconds (Drizzle `timestamp_ms`), so ordering and
// "last 30 days" windows are plain integer comparisons.
const now = sql`(cast(unixepoch('subsec') * 1000 as integer))`;
const createdAt = () => integer('created_at', { mode: 'timestamp_ms' }).notNull().default(now);
const updatedAt = () => integer('updated_at', { mode: 'timestamp_ms' }).notNull().default(now);

/** Messages from the contact form (docs/product.md §2), plus the inbox's read marker. */
export const contactMessages = sqliteTable(
  'contact_messages',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    name: text('name').notNull(),
    email: text('email').notNull(),
    phone: text('phone'),
    message: text('message').notNull(),
    readAt: integer('read_at', { mode: 'timestamp_ms' }),
    // The Message-ID of the firm's notification about it: the root every reply threads under
    // (worker/services/contact/replies.ts). Null for a message older than replies, until one is answered.
    messageId: text('message_id'),
    createdAt: createdAt(),
    // When the firm archived it (docs/product.md §6.2): it leaves the inbox's default view and is
    // found under the "Archived" filter; null while in the inbox. Unarchiving sets it back to null.
    archivedAt: integer('archived_at', { mode: 'timestamp_ms' }),
  },
  (t) => [index('contact_messages_created_at_idx').on(t.createdAt)],
);

/**
 * The firm's replies to a contact message or chat hand-off (docs/product.md §2.1), sent from the inbox:
 * who replied, what, when, and the reply e-mail's Message-ID. `day` (the firm's day, YYYY-MM-DD)
 * is what the per-user daily cap counts.
 */
export const contactReplies = sqliteTable(
  'contact_replies',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    contactMessageId: integer('contact_message_id')
      .notNull()
      .references(() => contactMessages.id, { onDelete: 'cascade' }),
    adminUserId: integer('admin_user_id').notNull(),
    authorName: text('author_name').notNull(),
    body: text('body').notNull(),
    messageId: text('message_id').notNull(),
    /** The reply's e-mail in the log (its delivery status); null until it was handed to the transport. */
    emailLogId: integer('email_log_id'),
    day: text('day').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('contact_replies_message_idx').on(t.contactMessageId, t.createdAt), index('contact_replies_cap_idx').on(t.adminUserId, t.day)],
);

/**
 * Consultation requests. `date` is the calendar day in the firm's time zone (YYYY-MM-DD) and
 * `timeSlot` one of the seven slots, so "one active booking per slot" is a plain UNIQUE index.
 */
export const appointments = sqliteTable(
  'appointments',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    name: text('name').notNull(),
    email: text('email').notNull(),
    phone: text('phone'),
    serviceType: text('service_type').notNull(),
    date: text('date').notNull(),
    // Null for a request without a preferred time (docs/product.md §3): it holds no slot (NULLs never
    // collide in appointments_active_slot_uq) until the admin picks a free one when confirming it.
    timeSlot: text('time_slot'),
    notes: text('notes'),
    status: text('status', { enum: ['requested', 'confirmed', 'cancelled'] })
      .notNull()
      .default('requested'),
    // iCalendar SEQUENCE (RFC 5545 3.8.7.4): 0 for the first invite, +1 for every change the
    // visitor's calendar must apply (confirm, reschedule, cancel). The UID stays the same for the
    // appointment's whole life. Self-service links are bound to it, so a changed appointment
    // invalidates links sent before the change.
    sequence: integer('sequence').notNull().default(0),
    // The booking's network (IPv4 address or IPv6 /64) as a salted hash (worker/services/limits/client-ip.ts):
    // bounds the open requests per network (worker/services/limits/submission-limits.ts). Null for older rows.
    networkHash: text('network_hash'),
    // The appointment's name outside the database (worker/services/appointments/links.ts): the
    // subject of its self-service links and its invite's UID. Random (16 bytes, base64url), so it is
    // chosen before the insert and the booking's e-mails are logged in the row's own transaction.
    // Null for rows stored before it existed: they keep their numeric id in both.
    publicId: text('public_id'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // A cancelled booking frees its slot; any other status holds it.
    uniqueIndex('appointments_active_slot_uq')
      .on(t.date, t.timeSlot)
      .where(sql`status <> 'cancelled'`),
    uniqueIndex('appointments_public_id_uq').on(t.publicId),
    index('appointments_date_idx').on(t.date),
    index('appointments_created_at_idx').on(t.createdAt),
    index('appointments_network_hash_idx').on(t.networkHash),
    // The open-bookings recheck of every booking (worker/services/limits/submission-limits.ts) counts the
    // open requests of one address and of one network: from these, not from a scan of every
    // appointment.
    index('appointments_open_email_idx')
      .on(sql`lower(${t.email})`, t.date)
      .where(sql`status = 'requested'`),
    index('appointments_open_network_idx')
      .on(t.networkHash, t.date)
      .where(sql`status = 'requested'`),
  ],
);

/** requested, confirmed or cancelled. */
export type AppointmentStatus = (typeof appointments.$inferSelect)['status'];

/**
 * Newsletter subscribers (docs/product.md §13). `active` keeps the text flag ('true' / 'false');
 * double opt-in adds the confirmation and unsubscribe timestamps. Pending = active 'false' and never confirmed.
 * E-mail addresses are stored lower-cased so the UNIQUE index means one row per mailbox.
 */
export const newsletterSubscriptions = sqliteTable(
  'newsletter_subscriptions',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    email: text('email').notNull(),
    name: text('name'),
    subscriptionDate: integer('subscription_date', { mode: 'timestamp_ms' }).notNull().default(now),
    active: text('active', { enum: ['true', 'false'] }).notNull().default('true'),
    confirmedAt: integer('confirmed_at', { mode: 'timestamp_ms' }),
    confirmationSentAt: integer('confirmation_sent_at', { mode: 'timestamp_ms' }),
    unsubscribedAt: integer('unsubscribed_at', { mode: 'timestamp_ms' }),
    /**
     * Suppression (docs/product.md §5.7): set from MailChannels' delivery events. A suppressed
     * address is also active 'false', so every send and every active count leaves it out.
     */
    suppressedAt: integer('suppressed_at', { mode: 'timestamp_ms' }),
    suppressionReason: text('suppression_reason', { enum: ['bounced', 'complained'] }),
    /** The provider's words: the bounce's status and reason, or the drop's. */
    suppressionDetail: text('suppression_detail'),
    /** Soft bounces in a row since the last delivery; three suppress the address. */
    softBounces: integer('soft_bounces').notNull().default(0),
    /** The CSV import that added the address (null for a sign-up), and the consent it recorded (docs/product.md §5.10). */
    importId: integer('import_id'),
    consentSource: text('consent_source'),
    consentAt: integer('consent_at', { mode: 'timestamp_ms' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('newsletter_subscriptions_email_uq').on(t.email),
    index('newsletter_subscriptions_active_idx').on(t.active, t.id),
    index('newsletter_subscriptions_date_idx').on(t.subscriptionDate),
  ],
);

/**
 * One chat conversation (docs/product.md §4), keyed by the widget's random session id: created with
 * its first stored exchange, at most CHAT_SESSION_MESSAGE_LIMIT messages, purged by the cron 30
 * days after its last activity together with its messages.
 */
export const chatSessions = sqliteTable(
  'chat_sessions',
  {
    id: text('id').primaryKey(),
    startedAt: integer('started_at', { mode: 'timestamp_ms' }).notNull().default(now),
    lastActivityAt: integer('last_activity_at', { mode: 'timestamp_ms' }).notNull().default(now),
    messageCount: integer('message_count').notNull().default(0),
    firstQuestion: text('first_question').notNull(),
    /** When the visitor last asked for a person (POST /api/chat/handoff), and the message it made. */
    handedOffAt: integer('handed_off_at', { mode: 'timestamp_ms' }),
    contactMessageId: integer('contact_message_id'),
  },
  (t) => [index('chat_sessions_last_activity_idx').on(t.lastActivityAt)],
);

/**
 * Both turns of every chat conversation. `refused` marks an exchange a guard rail refused (an
 * injection attempt, or a reply that quoted the instructions): kept for the transcript, never
 * replayed to the model.
 */
export const chatMessages = sqliteTable(
  'chat_messages',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    role: text('role', { enum: ['user', 'assistant'] }).notNull(),
    content: text('content').notNull(),
    sessionId: text('session_id').notNull(),
    refused: integer('refused', { mode: 'boolean' }).notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [index('chat_messages_session_idx').on(t.sessionId, t.id)],
);

/**
 * One row per newsletter. Sending is resumable: status stays 'sending' until every delivery row
 * is settled; `periodKey` makes a scheduled send unique per scheduled period.
 */
export const sentNewsletters = sqliteTable(
  'sent_newsletters',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    subject: text('subject').notNull(),
    content: text('content').notNull(),
    sentAt: integer('sent_at', { mode: 'timestamp_ms' }).notNull().default(now),
    // Recipients actually delivered, as a number (docs/product.md §13).
    recipientCount: integer('recipient_count').notNull().default(0),
    totalRecipients: integer('total_recipients').notNull().default(0),
    failedCount: integer('failed_count').notNull().default(0),
    status: text('status', { enum: ['sending', 'sent'] }).notNull().default('sending'),
    trigger: text('trigger', { enum: ['manual', 'scheduled'] }).notNull().default('manual'),
    periodKey: text('period_key'),
    // The draft a scheduled issue was sent from (newsletter_drafts): UNIQUE, so a draft is sent at
    // most once however the cron's ticks overlap or crash (worker/services/newsletter/drafts.ts).
    draftId: integer('draft_id'),
    createdAt: createdAt(),
  },
  (t) => [
    index('sent_newsletters_sent_at_idx').on(t.sentAt),
    index('sent_newsletters_status_idx').on(t.status),
    uniqueIndex('sent_newsletters_period_uq').on(t.periodKey),
    uniqueIndex('sent_newsletters_draft_uq').on(t.draftId),
  ],
);

/**
 * The administrator's newsletter drafts (docs/product.md §5.9): written in the editor, saved, and
 * optionally scheduled for a minute in the firm's time zone. draft -> scheduled (reschedule, or
 * cancelled, until the cron claims it) -> sending (claimed by one cron tick) -> sent (its
 * sent_newsletters row exists; delivery goes on there). A cancelled draft can be scheduled again.
 */
export const newsletterDrafts = sqliteTable(
  'newsletter_drafts',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    subject: text('subject').notNull(),
    content: text('content').notNull().default(''),
    status: text('status', { enum: ['draft', 'scheduled', 'sending', 'sent', 'cancelled'] })
      .notNull()
      .default('draft'),
    scheduledAt: integer('scheduled_at', { mode: 'timestamp_ms' }),
    // When a cron tick claimed it (status 'sending'); a claim older than the lease is taken over.
    claimedAt: integer('claimed_at', { mode: 'timestamp_ms' }),
    newsletterId: integer('newsletter_id'),
    // Why the last scheduled send did not go out (no active subscriber, empty content), else null.
    error: text('error'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('newsletter_drafts_due_idx').on(t.status, t.scheduledAt)],
);

/** One row per (newsletter, recipient): the ledger that makes sending resumable without duplicates. */
export const newsletterDeliveries = sqliteTable(
  'newsletter_deliveries',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    newsletterId: integer('newsletter_id')
      .notNull()
      .references(() => sentNewsletters.id, { onDelete: 'cascade' }),
    subscriberId: integer('subscriber_id').notNull(),
    email: text('email').notNull(),
    status: text('status', { enum: ['pending', 'sending', 'sent', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    error: text('error'),
    claimedAt: integer('claimed_at', { mode: 'timestamp_ms' }),
    sentAt: integer('sent_at', { mode: 'timestamp_ms' }),
    /** The e-mail log entry of this message: its delivery events (delivered, bounced...) feed the report. */
    emailLogId: integer('email_log_id'),
    /** When the recipient unsubscribed through this link (the report's "unsubscribed through it"). */
    unsubscribedAt: integer('unsubscribed_at', { mode: 'timestamp_ms' }),
  },
  (t) => [
    uniqueIndex('newsletter_deliveries_recipient_uq').on(t.newsletterId, t.subscriberId),
    index('newsletter_deliveries_status_idx').on(t.newsletterId, t.status),
  ],
);

/** Every outgoing e-mail, whatever the transport, written before sending and updated after. */
export const emailLog = sqliteTable(
  'email_log',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    to: text('to').notNull(),
    // The rest of the message as handed to the transport, so a 'queued' row can be sent as it is by
    // whoever delivers it: the request after its answer, or the cron's sweep (services/email/outbox.ts).
    toName: text('to_name'),
    fromName: text('from_name'),
    replyTo: text('reply_to'),
    subject: text('subject').notNull(),
    kind: text('kind').notNull(),
    status: text('status', { enum: ['queued', 'sent', 'stored', 'failed'] })
      .notNull()
      .default('queued'),
    transport: text('transport').notNull(),
    error: text('error'),
    providerId: text('provider_id'),
    textBody: text('text_body').notNull(),
    htmlBody: text('html_body'),
    headers: text('headers'),
    // JSON array of { filename, contentType, content } (content base64), exactly as handed to the
    // transport, so the firm can see the invite it sent.
    attachments: text('attachments'),
    // The whole message (JSON, an OutgoingEmail) while it waits for its transport, links with their
    // secrets included: text_body, html_body and headers hold the copy without them that the log
    // shows (worker/mail-redaction.ts). Set only on a 'queued' row and emptied in the same write
    // that records the hand-over (docs/decisions/0020-no-bearer-secret-in-the-e-mail-log.md).
    outboxMessage: text('outbox_message'),
    /** What happened after the hand-off to the provider (its delivery events): delivered, bounced... */
    deliveryStatus: text('delivery_status'),
    deliveryDetail: text('delivery_detail'),
    deliveryUpdatedAt: integer('delivery_updated_at', { mode: 'timestamp_ms' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('email_log_created_at_idx').on(t.createdAt),
    // The rows whose bodies the housekeeping purge has yet to blank (services/email/log-retention.ts):
    // each tick reads only those, not every e-mail ever sent.
    index('email_log_body_kept_idx')
      .on(t.createdAt)
      .where(sql`text_body <> ''`),
    index('email_log_to_idx').on(t.to),
    index('email_log_provider_id_idx').on(t.providerId),
    // The outbox: the rows still waiting for their transport, which the cron sweeps (services/email/outbox.ts).
    index('email_log_queued_idx')
      .on(t.updatedAt)
      .where(sql`status = 'queued'`),
  ],
);

/**
 * Every delivery event applied, by a key derived from its content: a retried webhook delivery
 * finds its events here and changes nothing twice.
 */
export const deliveryEvents = sqliteTable(
  'delivery_events',
  {
    eventKey: text('event_key').primaryKey(),
    event: text('event').notNull(),
    recipient: text('recipient'),
    requestId: text('request_id'),
    occurredAt: integer('occurred_at', { mode: 'timestamp_ms' }),
    receivedAt: createdAt(),
  },
  (t) => [index('delivery_events_received_idx').on(t.receivedAt)],
);

/**
 * Administrators, in one table (docs/product.md §6.1). `sessionVersion` is carried in the session
 * token; bumping it on a password change ends every other session.
 */
export const adminUsers = sqliteTable(
  'admin_users',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    username: text('username').notNull(),
    passwordHash: text('password_hash').notNull(),
    sessionVersion: integer('session_version').notNull().default(0),
    // The optional second factor (worker/services/admin-auth/totp.ts): on while `totpSecret` is set.
    // `totpPendingSecret` waits for its first code at enrolment; `totpLastStep` is the last
    // accepted code's 30-second step, so a code cannot be used twice.
    totpSecret: text('totp_secret'),
    totpPendingSecret: text('totp_pending_secret'),
    totpLastStep: integer('totp_last_step'),
    // Accounts and roles (docs/product.md §6.9): the permission table is
    // worker/services/admin-auth/permissions.ts. The migration makes the accounts that existed
    // before roles owners; a new account is staff unless the owner says otherwise.
    name: text('name').notNull().default(''),
    email: text('email'),
    role: text('role', { enum: ['owner', 'staff'] }).notNull().default('staff'),
    status: text('status', { enum: ['active', 'deactivated'] }).notNull().default('active'),
    /** A staff member the owner allows to send and schedule newsletters (owners always may). */
    canSendNewsletters: integer('can_send_newsletters', { mode: 'boolean' }).notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('admin_users_username_uq').on(t.username),
    uniqueIndex('admin_users_email_uq').on(t.email),
    // Usernames are one name whatever their case (docs/product.md §6.8): `ADMIN` cannot sit beside
    // `admin`, and sign-in looks a name up by lower(username), through this index. SQLite's lower()
    // folds ASCII only, which is all a chosen username may hold (core/schemas/admin-accounts.ts).
    uniqueIndex('admin_users_username_lower_uq').on(sql`lower(${t.username})`),
  ],
);

/**
 * Signed-in admin sessions (worker/services/admin-auth/session.ts): the token's `jti` is the row's
 * id, and requireAdmin accepts a token only while its row exists, so signing out of one session
 * (or deactivating the account, which deletes them all) ends it at once. `device` and `country`
 * say where it was signed in from, for the sessions list; rows past `expiresAt` are pruned.
 */
export const adminSessions = sqliteTable(
  'admin_sessions',
  {
    id: text('id').primaryKey(),
    adminUserId: integer('admin_user_id')
      .notNull()
      .references(() => adminUsers.id, { onDelete: 'cascade' }),
    device: text('device').notNull(),
    country: text('country'),
    createdAt: createdAt(),
    expiresAt: integer('expires_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [index('admin_sessions_user_idx').on(t.adminUserId), index('admin_sessions_expires_at_idx').on(t.expiresAt)],
);

/**
 * Invitations to a new admin account (worker/services/admin-auth/invitations.ts): only the SHA-256
 * of the link's token is kept; a link works once (`acceptedAt`) and until `expiresAt`.
 */
export const adminInvitations = sqliteTable(
  'admin_invitations',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    tokenHash: text('token_hash').notNull(),
    email: text('email').notNull(),
    name: text('name').notNull(),
    role: text('role', { enum: ['owner', 'staff'] }).notNull(),
    canSendNewsletters: integer('can_send_newsletters', { mode: 'boolean' }).notNull().default(false),
    invitedBy: integer('invited_by').references(() => adminUsers.id, { onDelete: 'set null' }),
    expiresAt: integer('expires_at', { mode: 'timestamp_ms' }).notNull(),
    acceptedAt: integer('accepted_at', { mode: 'timestamp_ms' }),
    /** Withdrawn by an owner, or with its inviter's deactivation or demotion: the link no longer works. */
    revokedAt: integer('revoked_at', { mode: 'timestamp_ms' }),
    /**
     * The authenticator secret the invitee is enrolling on the acceptance page while the owner
     * requires two-factor sign-in (proven by the link's token); it becomes the account's second
     * factor when a code from it comes with the acceptance.
     */
    totpPendingSecret: text('totp_pending_secret'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('admin_invitations_token_hash_uq').on(t.tokenHash), index('admin_invitations_invited_by_idx').on(t.invitedBy)],
);

/**
 * Password-reset links an owner sends an account (worker/services/admin-auth/password-resets.ts):
 * only the SHA-256 of the link's token is kept; a link sets a new password once (`usedAt`), until
 * `expiresAt`, and a newer link for the same account replaces it.
 */
export const adminPasswordResets = sqliteTable(
  'admin_password_resets',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    tokenHash: text('token_hash').notNull(),
    adminUserId: integer('admin_user_id')
      .notNull()
      .references(() => adminUsers.id, { onDelete: 'cascade' }),
    requestedBy: integer('requested_by').references(() => adminUsers.id, { onDelete: 'set null' }),
    expiresAt: integer('expires_at', { mode: 'timestamp_ms' }).notNull(),
    usedAt: integer('used_at', { mode: 'timestamp_ms' }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('admin_password_resets_token_hash_uq').on(t.tokenHash), index('admin_password_resets_user_idx').on(t.adminUserId)],
);

/** The owner's security settings (docs/product.md §6.9), one row (id 1); no row = the defaults (two-factor optional). */
export const adminSecuritySettings = sqliteTable('admin_security_settings', {
  id: integer('id').primaryKey(),
  requireTwoFactor: integer('require_two_factor', { mode: 'boolean' }).notNull().default(false),
  updatedAt: updatedAt(),
});

/**
 * An administrator's unused second-factor recovery codes, as SHA-256 hashes only
 * (worker/services/admin-auth/totp.ts). Using one deletes its row, in the same statement that finds it.
 */
export const adminRecoveryCodes = sqliteTable(
  'admin_recovery_codes',
  {
    codeHash: text('code_hash').primaryKey(),
    adminUserId: integer('admin_user_id')
      .notNull()
      .references(() => adminUsers.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [index('admin_recovery_codes_admin_user_idx').on(t.adminUserId)],
);

/**
 * Admin sign-in attempts for the login throttle (worker/services/admin-auth/login-throttle.ts), one row per
 * key: `pair:<username>:<network hash>` (5 attempts per window) and `user:<username>` (the
 * username-wide delay across networks). Each attempt is claimed by one atomic UPSERT before the
 * password is verified; `windowStart` is the window's first attempt, `blockedUntil` ends the delay.
 */
export const loginAttempts = sqliteTable('login_attempts', {
  key: text('key').primaryKey(),
  windowStart: integer('window_start', { mode: 'timestamp_ms' }).notNull(),
  count: integer('count').notNull().default(0),
  blockedUntil: integer('blocked_until', { mode: 'timestamp_ms' }).notNull().default(sql`0`),
});

/**
 * The daily limits, one counter per (firm day, name) (worker/services/limits/submission-limits.ts):
 * 'contact' and 'booking' submissions, 'chat-ai' Workers AI calls, and the e-mails to addresses
 * that have not proven they are the visitor's, one counter per kind:
 * 'booking-confirmation-mail', 'newsletter-confirmation-mail' and 'unverified-mail' (any other
 * kind). Each is claimed by one atomic UPSERT.
 */
export const dailyCounters = sqliteTable(
  'daily_counters',
  {
    day: text('day').notNull(),
    counter: text('counter', {
      enum: ['contact', 'booking', 'chat-ai', 'unverified-mail', 'booking-confirmation-mail', 'newsletter-confirmation-mail'],
    }).notNull(),
    count: integer('count').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.day, t.counter] })],
);

/** Distinct submitting IPs per day, stored only as salted hashes. */
export const dailySubmitters = sqliteTable(
  'daily_submitters',
  {
    day: text('day').notNull(),
    ipHash: text('ip_hash').notNull(),
  },
  (t) => [uniqueIndex('daily_submitters_uq').on(t.day, t.ipHash)],
);

/**
 * Requests per network (hashed IP) per fixed window, one row each, claimed by one atomic UPSERT
 * (worker/services/limits/window-counters.ts); the three tables below differ only in what they count.
 */
function ipWindowCounts<N extends string>(name: N) {
  return sqliteTable(
    name,
    {
      ipHash: text('ip_hash').notNull(),
      windowStart: integer('window_start', { mode: 'timestamp_ms' }).notNull(),
      count: integer('count').notNull().default(0),
    },
    (t) => [primaryKey({ columns: [t.ipHash, t.windowStart] })],
  );
}

/**
 * Contact + booking submissions per (hashed) IP per 10-minute window (the per-IP allowance,
 * docs/decisions/0006). `windowStart` is the window's first millisecond; the cron deletes windows
 * that have ended.
 */
export const submissionWindows = ipWindowCounts('submission_windows');

/**
 * Chat messages per network (hashed) per 10-minute window (worker/services/chat/throttle.ts). Exact
 * like submissionWindows, unlike the KV counter it replaces (docs/decisions/0006); the cron deletes
 * windows that have ended.
 */
export const chatWindows = ipWindowCounts('chat_windows');

/**
 * Newsletter sign-ups per network (hashed) per hour (worker/routes/newsletter.ts), claimed by the
 * same single UPSERT as chatWindows, so a parallel burst gets exactly its allowance (it
 * was a KV read-then-write that raced). The cron deletes windows that have ended.
 */
export const signupWindows = ipWindowCounts('signup_windows');

/** The automated newsletter scheduler's state: a single row (id = 1). */
export const schedulerSettings = sqliteTable('scheduler_settings', {
  id: integer('id').primaryKey(),
  running: integer('running', { mode: 'boolean' }).notNull().default(false),
  // Human-readable schedule shown in the admin panel.
  schedule: text('schedule').notNull().default('First Monday of every month at 9:00 AM (Eastern)'),
  lastPeriodKey: text('last_period_key'),
  updatedAt: updatedAt(),
});

/**
 * Which of the seven slot labels each weekday offers (ISO weekday 1 = Monday ... 5 = Friday;
 * weekends stay closed). A missing row means the slot is not offered that weekday. Migration 0002
 * seeds every slot on every weekday, the firm's hours before this table existed.
 */
export const weekdaySlots = sqliteTable(
  'weekday_slots',
  {
    weekday: integer('weekday').notNull(),
    timeSlot: text('time_slot').notNull(),
  },
  (t) => [primaryKey({ columns: [t.weekday, t.timeSlot] })],
);

/** Days the firm is closed (a holiday, a training day): no bookings; existing ones are kept. */
export const blockedDates = sqliteTable('blocked_dates', {
  date: text('date').primaryKey(),
  reason: text('reason'),
  createdAt: createdAt(),
});

/**
 * One row per reminder sent: the primary key (appointment, the date and slot reminded of) makes the
 * reminder exactly-once whatever the cron's timing; a rescheduled appointment has a new date/slot,
 * so it can be reminded again.
 */
export const appointmentReminders = sqliteTable(
  'appointment_reminders',
  {
    appointmentId: integer('appointment_id')
      .notNull()
      .references(() => appointments.id, { onDelete: 'cascade' }),
    date: text('date').notNull(),
    timeSlot: text('time_slot').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.appointmentId, t.date, t.timeSlot] })],
);

/**
 * Every published version of the firm's content document (core/content/schema.ts), kept for the
 * history and Restore (docs/decisions/0013-content-as-a-versioned-document.md). Version 1 is the
 * repository's default content and has no row: a fresh install shows the defaults, and the first
 * publish writes version 2. `restoredFrom` is the earlier version a Restore copied.
 */
export const contentVersions = sqliteTable('content_versions', {
  version: integer('version').primaryKey(),
  content: text('content').notNull(),
  publishedAt: integer('published_at', { mode: 'timestamp_ms' }).notNull().default(now),
  publishedBy: text('published_by').notNull(),
  restoredFrom: integer('restored_from'),
});

/**
 * The one draft of the content document (id = 1): the back office's unpublished edit, and the
 * version it was made from (`basedOn`); saving or publishing it on a stale version is refused.
 */
export const contentDraft = sqliteTable('content_draft', {
  id: integer('id').primaryKey(),
  basedOn: integer('based_on').notNull(),
  content: text('content').notNull(),
  updatedAt: updatedAt(),
  updatedBy: text('updated_by').notNull(),
  /**
   * Counts the saves of this draft: a publish names the revision it showed the owner and is refused
   * when the draft was saved since (docs/product.md §6.6, "Review before publishing").
   */
  revision: integer('revision').notNull().default(0),
  /** JSON: who last saved each of the draft's changes against its base, by path (worker/services/content/review.ts). */
  changeAuthors: text('change_authors').notNull().default('{}'),
});

/**
 * The firm's private calendar feed, GET /api/calendar/<secret>.ics (docs/decisions/0014): one row
 * (id 1) holding the SHA-256 of the secret, never the secret itself, so the address is shown to the
 * admin once, when rotated. No row: no feed.
 */
export const calendarFeed = sqliteTable('calendar_feed', {
  id: integer('id').primaryKey(),
  tokenHash: text('token_hash').notNull(),
  createdAt: createdAt(),
});

/** One busy interval of a busy calendar: [start, end) in epoch milliseconds. */
export type BusyInterval = [number, number];

/**
 * The firm's busy calendars (docs/product.md §6.4): iCal addresses the cron fetches at most every 15
 * minutes (worker/services/appointments/busy-calendars.ts). `url` is a secret address: never logged
 * or shown in full. `busy` is the last good copy, the opaque intervals within the booking horizon
 * (JSON, read in SQL by the booking's gate through json_each), kept when a later fetch fails.
 */
export const busyCalendars = sqliteTable('busy_calendars', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  label: text('label').notNull(),
  url: text('url').notNull(),
  busy: text('busy', { mode: 'json' }).$type<BusyInterval[]>().notNull().default(sql`'[]'`),
  /** The last attempt, good or bad: the cron's 15-minute spacing. */
  lastFetchAt: integer('last_fetch_at', { mode: 'timestamp_ms' }),
  lastSuccessAt: integer('last_success_at', { mode: 'timestamp_ms' }),
  lastError: text('last_error'),
  lastErrorAt: integer('last_error_at', { mode: 'timestamp_ms' }),
  createdAt: createdAt(),
});

/**
 * The booking rules the admin sets (docs/product.md §6.4), one row (id 1). Until it is saved there
 * is no row and every reader takes the defaults (BOOKING_RULE_DEFAULTS in core/content/booking.ts):
 * no minimum notice, a 365-day horizon, federal holidays open.
 */
export const bookingRules = sqliteTable('booking_rules', {
  id: integer('id').primaryKey(),
  minimumNoticeHours: integer('minimum_notice_hours').notNull(),
  horizonDays: integer('horizon_days').notNull(),
  closeFederalHolidays: integer('close_federal_holidays', { mode: 'boolean' }).notNull(),
  /** Federal holidays (YYYY-MM-DD) the firm opens although the switch closes them: a JSON array. */
  reopenedHolidays: text('reopened_holidays', { mode: 'json' }).$type<string[]>().notNull().default(sql`'[]'`),
  updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
});

/**
 * The audit trail (docs/product.md §6.9): every state change of the back office, append-only. No
 * route updates or deletes a row; the cron deletes rows older than 400 days
 * (worker/services/audit/audit-log.ts). A visitor appears only by a record id, never by name,
 * e-mail or network.
 */
export const auditLog = sqliteTable(
  'audit_log',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    at: integer('at', { mode: 'timestamp_ms' }).notNull().default(now),
    /** The admin user's id, or null for a sign-in failure of an unknown name, a visitor or the system. */
    actorId: integer('actor_id'),
    /** The admin's username (as typed, for a failed sign-in), 'visitor' or 'system'. */
    actor: text('actor').notNull(),
    action: text('action').notNull(),
    /** Which record, as kind:id ('appointment:42'), or null for a change of no single record. */
    record: text('record'),
    outcome: text('outcome', { enum: ['success', 'failure'] })
      .notNull()
      .default('success'),
    /** The network (IPv4 address, IPv6 /64) of an admin's request; null for visitors and the system. */
    network: text('network'),
    /** How many events the entry stands for: 1, or the failed sign-ins of one network in one hour (bucket). */
    count: integer('count').notNull().default(1),
    /**
     * The key of an aggregated entry (failed sign-ins: network, hour, account), unique so each
     * further attempt adds to its count instead of a row; null for every other entry.
     */
    bucket: text('bucket'),
  },
  (t) => [
    index('audit_log_at_idx').on(t.at),
    index('audit_log_actor_idx').on(t.actor, t.at),
    index('audit_log_action_idx').on(t.action, t.at),
    uniqueIndex('audit_log_bucket_uq').on(t.bucket),
  ],
);

/**
 * First-party click tracking (docs/product.md §5.11): one row per (delivery, link) the recipient
 * opened, so a link counts once per recipient however often it is clicked. `linkIndex` is the
 * link's position in the body; the URL is always read back from the issue itself.
 */
export const newsletterClicks = sqliteTable(
  'newsletter_clicks',
  {
    deliveryId: integer('delivery_id').notNull(),
    linkIndex: integer('link_index').notNull(),
    newsletterId: integer('newsletter_id').notNull(),
    clickedAt: integer('clicked_at', { mode: 'timestamp_ms' }).notNull().default(now),
  },
  (t) => [primaryKey({ columns: [t.deliveryId, t.linkIndex] }), index('newsletter_clicks_newsletter_idx').on(t.newsletterId, t.linkIndex)],
);

/** The owner's newsletter settings: a single row (id = 1); no row means the defaults. */
export const newsletterSettings = sqliteTable('newsletter_settings', {
  id: integer('id').primaryKey(),
  clickTracking: integer('click_tracking', { mode: 'boolean' }).notNull().default(true),
  updatedAt: updatedAt(),
});

/**
 * A CSV import of subscribers (docs/product.md §5.10): who ran it, from which file, and, once the
 * admin confirmed the people's consent, how: 'given' (active at once) or 'confirm' (each gets the
 * double opt-in e-mail). `nextLine` is the resumable cursor: staged rows below it are imported.
 */
export const subscriberImports = sqliteTable('subscriber_imports', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  fileName: text('file_name').notNull(),
  createdBy: text('created_by').notNull(),
  createdAt: createdAt(),
  status: text('status', { enum: ['staged', 'importing', 'done'] })
    .notNull()
    .default('staged'),
  consent: text('consent', { enum: ['given', 'confirm'] }),
  confirmedBy: text('confirmed_by'),
  confirmedAt: integer('confirmed_at', { mode: 'timestamp_ms' }),
  nextLine: integer('next_line').notNull().default(0),
  importedCount: integer('imported_count').notNull().default(0),
  finishedAt: integer('finished_at', { mode: 'timestamp_ms' }),
  /** Rows staged so far, set by each staging batch: the import's cap is checked against it. */
  stagedRows: integer('staged_rows').notNull().default(0),
  /** The dry run as computed for `stagedRows` rows (JSON), cleared when rows are staged: read once, not rescanned. */
  dryRun: text('dry_run', { mode: 'json' }),
});

/** The rows of an import's file as uploaded, keyed by their line, so a chunk sent twice is stored once. */
export const subscriberImportRows = sqliteTable(
  'subscriber_import_rows',
  {
    importId: integer('import_id')
      .notNull()
      .references(() => subscriberImports.id, { onDelete: 'cascade' }),
    line: integer('line').notNull(),
    /** Lower-cased and trimmed; as given when it is invalid. */
    email: text('email').notNull(),
    name: text('name'),
    consentAt: integer('consent_at', { mode: 'timestamp_ms' }),
    source: text('source'),
    /** Why the row cannot be imported (an invalid address...); null when it can. */
    problem: text('problem'),
  },
  (t) => [primaryKey({ columns: [t.importId, t.line] }), index('subscriber_import_rows_email_idx').on(t.importId, t.email, t.line)],
);

// ---- The client portal (docs/decisions/0022-client-portal-files.md; not reachable yet) ----------

/**
 * A client of the portal, added by staff (`createdBy`: the admin_users id). `email` is kept lower
 * case, one client per address: the address a one-time enrolment code goes to. 'invited' until
 * the client's first sign-in, 'active' after, 'archived' when the firm no longer works for them.
 */
export const portalClients = sqliteTable(
  'portal_clients',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    name: text('name').notNull(),
    email: text('email').notNull(),
    phone: text('phone'),
    createdBy: integer('created_by').notNull(),
    status: text('status', { enum: ['invited', 'active', 'archived'] })
      .notNull()
      .default('invited'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('portal_clients_email_uq').on(t.email)],
);

/**
 * A request for documents sent to a client: a title ("2026 tax return"), a due date (the firm's day,
 * YYYY-MM-DD), a note, and its checklist (portal_request_items). `closedAt` is set when staff close
 * it: the retention period of its files counts from then (portal_settings).
 */
export const portalRequests = sqliteTable(
  'portal_requests',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    clientId: integer('client_id')
      .notNull()
      .references(() => portalClients.id),
    title: text('title').notNull(),
    dueDate: text('due_date'),
    note: text('note'),
    status: text('status', { enum: ['open', 'closed'] })
      .notNull()
      .default('open'),
    closedAt: integer('closed_at', { mode: 'timestamp_ms' }),
    createdBy: integer('created_by').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('portal_requests_client_idx').on(t.clientId, t.status),
    // The disposal selector (worker/services/portal/disposal.ts): closed requests by when they closed.
    index('portal_requests_closed_idx')
      .on(t.closedAt)
      .where(sql`status = 'closed'`),
  ],
);

/** One line of a request's checklist; `reason` says why it was returned or is not applicable. */
export const portalRequestItems = sqliteTable(
  'portal_request_items',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    requestId: integer('request_id')
      .notNull()
      .references(() => portalRequests.id, { onDelete: 'cascade' }),
    label: text('label').notNull(),
    status: text('status', { enum: ['missing', 'uploaded', 'accepted', 'returned', 'not-applicable'] })
      .notNull()
      .default('missing'),
    reason: text('reason'),
    position: integer('position').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('portal_request_items_request_idx').on(t.requestId, t.position)],
);

/**
 * A file of the portal, encrypted in R2 (the DOCUMENTS binding) under `storageKey`, a random key that
 * says nothing of the file (worker/services/portal/files.ts). A client's upload names its request
 * and item; a document staff send the client has `createdByKind` 'staff' and may name a request.
 * `keyId` is the PORTAL_FILE_KEYS key it was encrypted with; `size` the plain bytes, which the
 * client's storage cap counts while `deletedAt` is null. The row stays after the bytes are deleted:
 * the record of what was held, and when it was disposed of.
 */
export const portalFiles = sqliteTable(
  'portal_files',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    storageKey: text('storage_key').notNull(),
    clientId: integer('client_id')
      .notNull()
      .references(() => portalClients.id),
    requestId: integer('request_id').references(() => portalRequests.id),
    itemId: integer('item_id').references(() => portalRequestItems.id),
    originalName: text('original_name').notNull(),
    detectedType: text('detected_type', { enum: ['pdf', 'jpeg', 'png', 'heic', 'xlsx', 'docx', 'xls', 'csv'] }).notNull(),
    size: integer('size').notNull(),
    keyId: text('key_id').notNull(),
    createdByKind: text('created_by_kind', { enum: ['client', 'staff'] }).notNull(),
    createdById: integer('created_by_id').notNull(),
    createdAt: createdAt(),
    deletedAt: integer('deleted_at', { mode: 'timestamp_ms' }),
  },
  (t) => [
    uniqueIndex('portal_files_storage_key_uq').on(t.storageKey),
    // A client's files, newest first; the storage cap sums the ones still held.
    index('portal_files_client_idx').on(t.clientId, t.createdAt),
    index('portal_files_request_idx').on(t.requestId),
    index('portal_files_item_idx').on(t.itemId),
  ],
);

/** The owner's portal settings: a single row (id = 1); no row means the defaults. */
export const portalSettings = sqliteTable('portal_settings', {
  id: integer('id').primaryKey(),
  /** Whole years a closed request's files are kept before disposal. */
  retentionYears: integer('retention_years').notNull().default(3),
  updatedAt: updatedAt(),
});
