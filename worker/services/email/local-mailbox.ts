import { defaultContent } from '#core/content/default-content';
import type { Bindings } from '../../env';
import type { EmailTransport, OutgoingEmail, TransportResult } from '../../mail-types';
import { mailChannelsPayload, type MailChannelsConfig } from './mailchannels';
import { isLocalHost } from '../platform/local-host';

// Local development's mailbox (docs/decisions/0020-no-bearer-secret-in-the-e-mail-log.md). With no
// MailChannels key the e-mail log keeps every message without its links' secrets, so a developer
// could no longer follow an invitation or a confirmation link from it. Instead the local scripts
// run a small mail sink on a loopback port (scripts/lib/local-mailbox.ts) and pass its address as
// LOCAL_MAILBOX_URL: this transport hands each message to it exactly as it would hand it to
// MailChannels (the same JSON, mailChannelsPayload), and the sink writes it as one .eml file into
// the local state directory's mail/ folder. A Worker cannot write files; the sink can.
//
// Only a loopback address is accepted: on Cloudflare nothing listens there, so a LOCAL_MAILBOX_URL
// set by mistake in production sends nothing anywhere (and production has a key anyway).

const TIMEOUT_MS = 5_000;

/** LOCAL_MAILBOX_URL when it names a loopback http address, else null. */
export function localMailboxUrl(env: Pick<Bindings, 'LOCAL_MAILBOX_URL'>): string | null {
  const value = env.LOCAL_MAILBOX_URL;
  if (!value) return null;
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' || !isLocalHost(url.hostname)) return null;
    return url.href.replace(/\/+$/, '');
  } catch {
    return null;
  }
}

/** Hands each message to the local mailbox (the sink writes it as an .eml file); status 'stored': nothing left the machine. */
export class LocalMailboxTransport implements EmailTransport {
  readonly name = 'mailbox';

  private fromNameRead: Promise<string> | undefined;

  constructor(
    private readonly url: string,
    private readonly fromEmail: string,
    private readonly fromName?: () => Promise<string>,
  ) {}

  async send(message: OutgoingEmail): Promise<TransportResult> {
    this.fromNameRead ??= this.fromName ? this.fromName().catch(() => defaultContent.firm.name) : Promise.resolve(defaultContent.firm.name);
    const config: MailChannelsConfig = { apiKey: '', baseUrl: this.url, from: { email: this.fromEmail, name: await this.fromNameRead }, timeoutMs: TIMEOUT_MS };
    // The kind names the file (the payload, as MailChannels gets it, has no place for it).
    const res = await fetch(`${this.url}/send?kind=${encodeURIComponent(message.kind)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(mailChannelsPayload(config, message)),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    }).catch((error: unknown) => {
      throw new Error(`Could not reach the local mailbox: ${(error as Error)?.message ?? String(error)}`);
    });
    if (!res.ok) throw new Error(`The local mailbox answered ${res.status}`);
    return { status: 'stored' };
  }
}
