import { defaultContent } from '#core/content/default-content';
import { foldLine } from '#core/schemas/fields';
import type { Bindings } from '../../env';
import type { EmailTransport, OutgoingEmail, TransportResult } from '../../mail-types';

/** MailChannels' Email API (https://api.mailchannels.net/tx/v1/send); MAILCHANNELS_API_URL overrides the base. */
export const MAILCHANNELS_DEFAULT_URL = 'https://api.mailchannels.net/tx/v1';
const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * A failed hand-over to MailChannels. `retryable` says whether sending again is safe: true only
 * when the provider certainly did not accept the message (429, 5xx, connection refused). A timeout
 * is not retryable: the provider may have accepted the message and a retry could deliver it twice.
 */
export class MailChannelsError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = 'MailChannelsError';
  }
}

export interface MailChannelsConfig {
  apiKey: string;
  baseUrl: string;
  from: { email: string; name: string };
  dkim?: { domain: string; selector: string; privateKey: string };
  timeoutMs: number;
}

/** MailChannels' base URL: MAILCHANNELS_API_URL without a trailing slash, else the default. */
export const mailChannelsBaseUrl = (env: Bindings): string => (env.MAILCHANNELS_API_URL || MAILCHANNELS_DEFAULT_URL).replace(/\/+$/, '');

/** How long a call to MailChannels may take: MAILCHANNELS_TIMEOUT_MS when a positive number, else 10 s. */
export function mailChannelsTimeoutMs(env: Bindings): number {
  const timeout = Number(env.MAILCHANNELS_TIMEOUT_MS);
  return Number.isFinite(timeout) && timeout > 0 ? timeout : DEFAULT_TIMEOUT_MS;
}

export function mailChannelsConfig(env: Bindings): MailChannelsConfig | null {
  if (!env.MAILCHANNELS_API_KEY) return null;
  return {
    apiKey: env.MAILCHANNELS_API_KEY,
    baseUrl: mailChannelsBaseUrl(env),
    // MAIL_FROM (wrangler.jsonc "vars") is the one sender address; the display name is the firm's,
    // as published when the transport has it (MailChannelsTransport's fromName), else the default.
    from: { email: env.MAIL_FROM, name: defaultContent.firm.name },
    dkim:
      env.DKIM_DOMAIN && env.DKIM_SELECTOR && env.DKIM_PRIVATE_KEY
        ? { domain: env.DKIM_DOMAIN, selector: env.DKIM_SELECTOR, privateKey: env.DKIM_PRIVATE_KEY }
        : undefined,
    timeoutMs: mailChannelsTimeoutMs(env),
  };
}

/** The JSON body MailChannels expects for one message to one recipient. */
export function mailChannelsPayload(config: MailChannelsConfig, message: OutgoingEmail) {
  const content = [{ type: 'text/plain', value: message.text }];
  if (message.html) content.push({ type: 'text/html', value: message.html });
  return {
    personalizations: [
      {
        // Headers on one line whatever was stored (core/schemas/fields.ts foldLine): MailChannels
        // refuses a display name or subject with a line break, which failed every reply to such a name.
        to: [message.toName && foldLine(message.toName) ? { email: message.to, name: foldLine(message.toName) } : { email: message.to }],
        ...(config.dkim
          ? { dkim_domain: config.dkim.domain, dkim_selector: config.dkim.selector, dkim_private_key: config.dkim.privateKey }
          : {}),
      },
    ],
    from: message.fromName ? { email: config.from.email, name: foldLine(message.fromName) } : config.from,
    ...(message.replyTo ? { reply_to: { email: message.replyTo } } : {}),
    subject: foldLine(message.subject),
    content,
    ...(message.headers && Object.keys(message.headers).length ? { headers: message.headers } : {}),
    ...(message.attachments?.length
      ? { attachments: message.attachments.map((a) => ({ type: a.contentType, filename: a.filename, content: a.content })) }
      : {}),
  };
}

async function describeFailure(res: Response): Promise<string> {
  const text = (await res.text().catch(() => '')).slice(0, 300);
  return `MailChannels answered ${res.status}${text ? `: ${text}` : ''}`;
}

/** Calls a MailChannels endpoint with the API key and a timeout; network failures become MailChannelsError. */
async function mailChannelsFetch(config: MailChannelsConfig, path: string, body: unknown): Promise<Response> {
  try {
    return await fetch(`${config.baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': config.apiKey },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(config.timeoutMs),
    });
  } catch (error) {
    const name = (error as Error)?.name;
    if (name === 'TimeoutError' || name === 'AbortError') {
      throw new MailChannelsError(`MailChannels did not answer within ${config.timeoutMs} ms`, null, false);
    }
    // The connection failed before a request could be accepted: safe to try again later.
    throw new MailChannelsError(`Could not reach MailChannels: ${(error as Error)?.message ?? String(error)}`, null, true);
  }
}

/** The production transport: MailChannels Email API over fetch, DKIM-signed when the key is set. */
export class MailChannelsTransport implements EmailTransport {
  readonly name = 'mailchannels';

  private fromNameRead: Promise<string> | undefined;

  /** `fromName` reads the published firm name, once per transport (worker/services/email/delivery.ts, emailTransport). */
  constructor(
    private readonly config: MailChannelsConfig,
    private readonly fromName?: () => Promise<string>,
  ) {}

  async send(message: OutgoingEmail): Promise<TransportResult> {
    this.fromNameRead ??= this.fromName ? this.fromName().catch(() => this.config.from.name) : Promise.resolve(this.config.from.name);
    const config = { ...this.config, from: { ...this.config.from, name: await this.fromNameRead } };
    const res = await mailChannelsFetch(config, '/send', mailChannelsPayload(config, message));
    if (!res.ok) {
      const retryable = res.status === 429 || res.status >= 500;
      throw new MailChannelsError(await describeFailure(res), res.status, retryable);
    }
    const body = (await res.json().catch(() => null)) as { request_id?: string; results?: { message_id?: string }[] } | null;
    const providerId = body?.request_id ?? body?.results?.[0]?.message_id ?? res.headers.get('x-request-id') ?? undefined;
    return { status: 'sent', providerId };
  }
}

export interface ProviderCheck {
  provider: 'MailChannels';
  success: boolean;
  detail: string;
}

type DomainCheck = {
  check_results?: {
    spf?: { verdict?: string; reason?: string };
    domain_lockdown?: { verdict?: string; reason?: string };
    dkim?: { verdict?: string; reason?: string; dkim_domain?: string }[];
  };
};

/**
 * The admin's "Test Email Auth": is a key configured, does MailChannels accept it, and do the
 * sending domain's SPF, DKIM and Domain Lockdown records pass MailChannels' own domain check.
 */
export async function checkMailChannels(env: Bindings): Promise<ProviderCheck> {
  const config = mailChannelsConfig(env);
  if (!config) {
    return {
      provider: 'MailChannels',
      success: false,
      detail:
        'No MAILCHANNELS_API_KEY is configured: e-mail is stored in the outbox (see Admin > e-mail log, which keeps no link\'s token, so those links reach nobody) instead of being sent.',
    };
  }
  const domain = config.dkim?.domain ?? config.from.email.split('@')[1];
  let res: Response;
  try {
    res = await mailChannelsFetch(config, '/check-domain', {
      domain,
      ...(config.dkim
        ? { dkim_settings: [{ dkim_domain: config.dkim.domain, dkim_selector: config.dkim.selector, dkim_private_key: config.dkim.privateKey }] }
        : {}),
    });
  } catch (error) {
    return { provider: 'MailChannels', success: false, detail: (error as Error).message };
  }
  if (res.status === 401 || res.status === 403) {
    return { provider: 'MailChannels', success: false, detail: `MailChannels rejected the API key (${res.status})` };
  }
  if (!res.ok) return { provider: 'MailChannels', success: false, detail: await describeFailure(res) };
  const body = ((await res.json().catch(() => null)) ?? {}) as DomainCheck;
  const results = body.check_results ?? {};
  const spf = results.spf?.verdict ?? 'unknown';
  const lockdown = results.domain_lockdown?.verdict ?? 'unknown';
  const dkim = config.dkim ? (results.dkim?.[0]?.verdict ?? 'unknown') : 'not configured';
  const success = spf === 'passed' && lockdown === 'passed' && dkim === 'passed';
  return {
    provider: 'MailChannels',
    success,
    detail: `API key accepted for ${domain}. SPF: ${spf}; DKIM: ${dkim}; Domain Lockdown: ${lockdown}.`,
  };
}
