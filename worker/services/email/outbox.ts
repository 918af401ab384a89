import type { EmailTransport, OutgoingEmail, TransportResult } from './types';

/**
 * The offline transport (local development and tests, or production before a MailChannels key is
 * set): the message is kept in the e-mail log with status 'stored' and nothing leaves the machine.
 */
export class OutboxTransport implements EmailTransport {
  readonly name = 'outbox';

  async send(_message: OutgoingEmail): Promise<TransportResult> {
    return { status: 'stored' };
  }
}
