import type { EmailTransport, OutgoingEmail, TransportResult } from '../../mail-types';

/**
 * The offline transport (the worker tests, or production before a MailChannels key is set): the
 * message is kept in the e-mail log with status 'stored' and nothing leaves the machine. The log
 * keeps it without its links' secrets (worker/mail-redaction.ts), so such a link reaches nobody:
 * local development hands messages to its mailbox instead (worker/services/email/local-mailbox.ts).
 */
export class OutboxTransport implements EmailTransport {
  readonly name = 'outbox';
  // Sending is keeping the log row: written 'stored' at once (worker/db/queued-mail.ts logRow), so the visitor
  // forms' one write batch is all the D1 work their e-mails cost.
  readonly storesWhenQueued = true;

  async send(_message: OutgoingEmail): Promise<TransportResult> {
    return { status: 'stored' };
  }
}
