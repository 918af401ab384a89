/**
 * What the product sends; the e-mail log records it as `kind`. A new kind is added here, and
 * tests/email/no-secret-in-email-log.worker.test.ts, which walks every one, fails until it sends it too.
 */
export const EMAIL_KINDS = [
  'contact-notification',
  'appointment-confirmation',
  'appointment-notification',
  'appointment-status',
  'appointment-reminder',
  'newsletter-confirmation',
  'newsletter',
  /** One newsletter sent to one address from the send dialog before the real send. */
  'newsletter-test',
  /** An invitation to an admin account (worker/services/admin-auth/invitations.ts). */
  'admin-invitation',
  /** An owner's password-reset link for an account (worker/services/admin-auth/password-resets.ts). */
  'admin-password-reset',
  /** A person of the firm answering a contact message or chat hand-off from the inbox. */
  'contact-reply',
  'test',
] as const;

export type EmailKind = (typeof EMAIL_KINDS)[number];

export interface EmailAttachment {
  filename: string;
  contentType: string;
  /** Base64-encoded content. */
  content: string;
}

export interface OutgoingEmail {
  to: string;
  toName?: string;
  subject: string;
  text: string;
  html?: string;
  kind: EmailKind;
  /** The From display name, when not the firm's own ("Jane Doe at Northgate CPA" on a reply); the address is always MAIL_FROM. */
  fromName?: string;
  replyTo?: string;
  /** Extra headers, e.g. List-Unsubscribe. Values must not contain CR or LF. */
  headers?: Record<string, string>;
  attachments?: EmailAttachment[];
}

export interface TransportResult {
  status: 'sent' | 'stored';
  providerId?: string;
}

/** Where a message goes: MailChannels over HTTPS, or the D1 outbox when no key is configured. */
export interface EmailTransport {
  readonly name: string;
  send(message: OutgoingEmail): Promise<TransportResult>;
  /**
   * True for a transport whose whole effect is the e-mail log row (the offline outbox transport):
   * a message is then logged 'stored' when it is queued, and there is nothing to hand over after.
   */
  readonly storesWhenQueued?: boolean;
}

export interface SendOutcome {
  ok: boolean;
  logId: number;
  status: 'sent' | 'stored' | 'failed';
  error?: string;
}
