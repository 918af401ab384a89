import { dnsNames, goLiveSettingFacts, type GoLiveFacts } from '#core/go-live';
import type { Db } from '../../db/client';
import type { Bindings } from '../../env';
import { twoFactorPolicy } from '../admin-auth';
import { deliveryEventsStatus, WebhookManagementError } from '../email/delivery-webhook';
import { isLocalHost } from '../platform/local-host';

// The go-live checklist's facts, read live (docs/product.md §6.10). The worker only reads them;
// core/go-live.ts (evaluateGoLive) judges them, on the owner's screen and in `npm run doctor`.

/** Cloudflare's DNS-over-HTTPS JSON endpoint; tests point DNS_OVER_HTTPS_URL at a fake. */
const DOH_URL = 'https://cloudflare-dns.com/dns-query';
/** Each lookup's bound: the page answers within it even when the resolver does not. */
const DOH_TIMEOUT_MS = 3000;

/** The TXT records' data at `name` through DNS-over-HTTPS, or why they could not be read (core/go-live.ts words it). */
async function txtRecords(env: Bindings, name: string): Promise<string[] | { error: string }> {
  try {
    const res = await fetch(`${env.DNS_OVER_HTTPS_URL || DOH_URL}?name=${encodeURIComponent(name)}&type=TXT`, {
      headers: { accept: 'application/dns-json' },
      signal: AbortSignal.timeout(Number(env.DNS_OVER_HTTPS_TIMEOUT_MS) || DOH_TIMEOUT_MS),
    });
    if (!res.ok) return { error: `HTTP ${res.status}` };
    const body = (await res.json()) as { Status?: number; Answer?: { type?: number; data?: unknown }[] };
    // 0 NOERROR, 3 NXDOMAIN (no such name: no record); anything else is the resolver's failure.
    if (body.Status !== 0 && body.Status !== 3) return { error: `status ${body.Status}` };
    return (body.Answer ?? []).filter((a) => a.type === 16 && typeof a.data === 'string').map((a) => a.data as string);
  } catch (error) {
    return { error: (error as Error)?.name === 'TimeoutError' ? 'timeout' : 'failed' };
  }
}

async function deliveryEventsFact(env: Bindings, origin: string): Promise<GoLiveFacts['deliveryEvents']> {
  if (!env.MAILCHANNELS_API_KEY) return null;
  try {
    // The address enrolled is SITE_URL's, as the admin panel's Delivery events block enrolls it.
    const { enrolled, endpoint } = await deliveryEventsStatus(env, env.SITE_URL?.trim().replace(/\/+$/, '') || origin);
    return { enrolled, endpoint };
  } catch (error) {
    if (error instanceof WebhookManagementError) return { error: error.message };
    throw error;
  }
}

/**
 * The facts as this request sees them: `requestUrl` is the address the owner opened. DNS and
 * MailChannels are asked only on a public HTTPS origin (not this machine), so a local run and the
 * tests never reach the internet unless a test points DNS_OVER_HTTPS_URL and MAILCHANNELS_API_URL at
 * its fakes and calls over https. Each secret is reported as set or not, never its value.
 */
export async function goLiveFacts(env: Bindings, db: Db, requestUrl: string): Promise<GoLiveFacts> {
  const { protocol, hostname, origin } = new URL(requestUrl);
  const live = protocol === 'https:' && !isLocalHost(hostname);
  const settings = goLiveSettingFacts(env);
  const names = Object.values(dnsNames(settings.values)).filter((name) => name !== null);
  const [records, events, policy] = await Promise.all([
    live ? Promise.all(names.map(async (name) => [name, await txtRecords(env, name)] as const)) : null,
    live ? deliveryEventsFact(env, origin) : undefined,
    twoFactorPolicy(db),
  ]);
  return { ...settings, checkedAt: new Date().toISOString(), origin, ...(records && { dns: Object.fromEntries(records) }), ...(events !== undefined && { deliveryEvents: events }), twoFactor: policy };
}
