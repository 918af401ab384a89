import { and, count, eq } from 'drizzle-orm';
import { dnsNames, dnsRecordCheck, dohTxtRecords, GO_LIVE_IDS, settingsChecks, type GoLiveCheck, type GoLiveId } from '#core/go-live';
import { getDb } from '../../db/client';
import { adminUsers } from '../../db/schema';
import type { Bindings } from '../../env';
import { readSecuritySettings } from '../admin-auth/accounts';
import { deliveryEventsStatus, WebhookManagementError } from '../email/delivery-webhook';
import { isLocalHost } from '../platform/local-host';

// The go-live checklist read live (docs/product.md §6.10; the requirements are core/go-live.ts).

/** Cloudflare's DNS-over-HTTPS JSON endpoint; tests point DNS_OVER_HTTPS_URL at a fake. */
const DOH_URL = 'https://cloudflare-dns.com/dns-query';
/** Each lookup's bound: the page answers within it even when the resolver does not. */
const DOH_TIMEOUT_MS = 3000;

const unknown = (id: GoLiveId, detail: string): GoLiveCheck => ({ id, state: 'unknown', detail });

/** The TXT records at `name` through DNS-over-HTTPS, or why they could not be read. */
async function txtRecords(env: Bindings, name: string): Promise<string[] | string> {
  try {
    const url = `${env.DNS_OVER_HTTPS_URL || DOH_URL}?name=${encodeURIComponent(name)}&type=TXT`;
    const timeout = Number(env.DNS_OVER_HTTPS_TIMEOUT_MS) || DOH_TIMEOUT_MS;
    const res = await fetch(url, { headers: { accept: 'application/dns-json' }, signal: AbortSignal.timeout(timeout) });
    if (!res.ok) return `The DNS lookup of ${name} answered ${res.status}`;
    const body = (await res.json()) as { Status?: number };
    // 0 NOERROR, 3 NXDOMAIN (no such name: no record); anything else is the resolver's failure.
    if (body.Status !== 0 && body.Status !== 3) return `The DNS lookup of ${name} failed (status ${body.Status})`;
    return dohTxtRecords(body);
  } catch (error) {
    const timedOut = (error as Error)?.name === 'TimeoutError';
    return timedOut ? `The DNS lookup of ${name} took too long` : `The DNS lookup of ${name} failed`;
  }
}

async function dnsChecks(env: Bindings, live: boolean): Promise<GoLiveCheck[]> {
  const names = dnsNames(env);
  const ids = { spf: 'dns-spf', dkim: 'dns-dkim', lockdown: 'dns-lockdown', dmarc: 'dns-dmarc' } as const;
  return Promise.all(
    (Object.keys(ids) as (keyof typeof ids)[]).map(async (key) => {
      const id = ids[key];
      const name = names[key];
      if (!name) return { id, state: 'missing' as const, detail: key === 'dkim' ? 'DKIM_DOMAIN and DKIM_SELECTOR are not set' : 'MAIL_FROM has no domain' };
      // Locally (and in every test that does not ask for it) nothing leaves the machine.
      if (!live) return unknown(id, `Looked up only on the live site: ${name}`);
      const records = await txtRecords(env, name);
      return typeof records === 'string' ? unknown(id, records) : dnsRecordCheck(id, name, records, env.MAILCHANNELS_ACCOUNT_ID?.trim());
    }),
  );
}

async function deliveryEventsCheck(env: Bindings, origin: string, live: boolean): Promise<GoLiveCheck> {
  const id = 'delivery-events';
  if (!env.MAILCHANNELS_API_KEY) return { id, state: 'missing', detail: 'Needs the MailChannels API key' };
  if (!live) return unknown(id, 'Checked only on the live site');
  try {
    // The address enrolled is SITE_URL's, as the admin panel's Delivery events block enrolls it.
    const status = await deliveryEventsStatus(env, env.SITE_URL?.trim().replace(/\/+$/, '') || origin);
    if (!status.accountIdSet) return { id, state: 'missing', detail: 'Needs MAILCHANNELS_ACCOUNT_ID' };
    return { id, state: status.enrolled ? 'done' : 'missing', detail: status.enrolled ? `Enrolled: ${status.endpoint}` : `Not enrolled: ${status.endpoint}` };
  } catch (error) {
    if (error instanceof WebhookManagementError) return unknown(id, error.message);
    throw error;
  }
}

async function twoFactorCheck(env: Bindings): Promise<GoLiveCheck> {
  const db = getDb(env.DB);
  const [{ requireTwoFactor }, owners] = await Promise.all([
    readSecuritySettings(db),
    db
      .select({ all: count(), withCode: count(adminUsers.totpSecret) })
      .from(adminUsers)
      .where(and(eq(adminUsers.role, 'owner'), eq(adminUsers.status, 'active'))),
  ]);
  const { all, withCode } = owners[0] ?? { all: 0, withCode: 0 };
  return { id: 'two-factor', state: requireTwoFactor ? 'done' : 'missing', detail: `${requireTwoFactor ? 'Required' : 'Not required'}; ${withCode} of ${all} owners have it on` };
}

/**
 * Every requirement's state as this request sees it. `requestUrl` is the address the owner opened:
 * SITE_URL must be its origin and its scheme https. DNS and MailChannels are asked only on a public
 * origin (not this machine), so a local run and the tests never reach the internet unless a test
 * points DNS_OVER_HTTPS_URL and MAILCHANNELS_API_URL at its fakes and calls over https.
 */
export async function goLiveChecks(env: Bindings, requestUrl: string): Promise<GoLiveCheck[]> {
  const url = new URL(requestUrl);
  const live = url.protocol === 'https:' && !isLocalHost(url.hostname);
  const origin = url.origin;
  const https: GoLiveCheck = { id: 'https', state: url.protocol === 'https:' ? 'done' : 'missing', detail: `This page is open on ${origin}` };
  const [dns, events, twoFactor] = await Promise.all([dnsChecks(env, live), deliveryEventsCheck(env, origin, live), twoFactorCheck(env)]);
  const checks = [...settingsChecks(env, origin), https, ...dns, events, twoFactor];
  return checks.sort((a, b) => GO_LIVE_IDS.indexOf(a.id) - GO_LIVE_IDS.indexOf(b.id));
}
