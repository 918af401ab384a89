import type { Bindings } from '../../env';
import { isLoopbackHost, isPublicHost } from './public-address';

// Reading a busy calendar (./busy-calendars.ts) off the internet: what address may be fetched
// (https to a public host; this machine only in local development), the limits on the fetch and
// what it reads, and the messages the admin sees when one is refused.

export const BUSY_CALENDAR_LIMITS = {
  /** A year of a busy person's calendar is well under 1 MB; Workers hold the text in memory. */
  maxBytes: 2 * 1024 * 1024,
  timeoutMs: 10_000,
  maxRedirects: 3,
  /** The cron fetches each address at most this often. */
  refreshEveryMs: 15 * 60_000,
  /** Addresses per cron tick: each costs up to 1 + maxRedirects fetches and one D1 write. */
  perTick: 3,
  /** Occurrence steps per calendar: bounds the CPU a FREQ=MINUTELY rule could take. */
  maxSteps: 20_000,
  /**
   * Candidate dates ical.js may look at per calendar, all rules together (recurrence-guard.ts):
   * a step takes 1 to 15 µs, so the cap is well under a second; a year of a daily event is 365.
   * A single rule that would walk more than this between two occurrences is skipped up front.
   */
  maxRuleSteps: 50_000,
  /** Wall time of one calendar's expansion, where the clock runs during it (local development, tests). */
  maxExpandMs: 1_000,
  /** Stored intervals per calendar (after merging), the nearest first. */
  maxIntervals: 5_000,
} as const;

export const BUSY_CALENDAR_MESSAGES = {
  https: 'The calendar address must start with https://',
  redirectHttps: 'The calendar server redirected to an address that does not start with https://',
  tooManyRedirects: `The calendar server redirected more than ${BUSY_CALENDAR_LIMITS.maxRedirects} times`,
  tooLarge: `The calendar is larger than ${BUSY_CALENDAR_LIMITS.maxBytes / 1024 / 1024} MB`,
  timeout: `The calendar server did not answer within ${BUSY_CALENDAR_LIMITS.timeoutMs / 1000} seconds`,
  unreachable: 'The calendar server could not be reached',
  notICalendar: 'The address did not return an iCalendar (.ics) file',
  /** One message for every refused host, at any hop: it says nothing about what is on the network. */
  notPublic: 'The calendar address must be on the public internet',
  tooComplex: 'The calendar has repeating events too costly to expand; it was not read (check for events repeating every minute or second)',
} as const;

export class CalendarFetchError extends Error {}

const siteIsLocal = (siteUrl: string | undefined) => {
  try {
    return siteUrl !== undefined && isLoopbackHost(new URL(siteUrl).hostname);
  } catch {
    return false;
  }
};

/**
 * Whether this is local development, where this machine (localhost, 127.0.0.0/8, [::1]) may serve
 * a busy calendar, over plain http too: ALLOW_HTTP_CALENDARS (never in wrangler.jsonc), a SITE_URL on
 * this machine (what `npm start` and `npm run dev` set, scripts/dev.ts), or a request that itself
 * came to localhost. A production request never arrives with a localhost origin, and production's
 * SITE_URL is the firm's domain (wrangler.jsonc).
 */
export const isLocalDevelopment = (env: Pick<Bindings, 'ALLOW_HTTP_CALENDARS' | 'SITE_URL'>, requestUrl?: string) =>
  env.ALLOW_HTTP_CALENDARS === 'true' || siteIsLocal(env.SITE_URL) || (requestUrl !== undefined && isLoopbackHost(new URL(requestUrl).hostname));

/** webcal:// (what calendar apps hand out) is https. */
export const normalizeCalendarUrl = (text: string) => text.trim().replace(/^webcal:\/\//i, 'https://');

/**
 * Why this address may not be fetched, or null: https to a public host, or in local development
 * this machine over https or http. Checked on the typed address and again on every redirect.
 */
export function calendarUrlProblem(url: URL, localDevelopment: boolean): string | null {
  const local = localDevelopment && isLoopbackHost(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && local)) return BUSY_CALENDAR_MESSAGES.https;
  if (!local && !isPublicHost(url.hostname)) return BUSY_CALENDAR_MESSAGES.notPublic;
  return null;
}

/** The address as logs and the admin screen show it: scheme and host only (the path is the secret). */
export const redactedCalendarUrl = (url: string) => {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}/…`;
  } catch {
    return '(invalid address)';
  }
};

export type CalendarFetcher = (url: string, init: RequestInit) => Promise<Response>;

/** The body as text, refusing more than `maxBytes` while it streams in (a lying Content-Length included). */
async function cappedText(response: Response, maxBytes: number): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (declared > maxBytes) {
    await response.body?.cancel();
    throw new CalendarFetchError(BUSY_CALENDAR_MESSAGES.tooLarge);
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw new CalendarFetchError(BUSY_CALENDAR_MESSAGES.tooLarge);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

/**
 * Fetches an iCal address: redirects followed by hand (at most maxRedirects, each hop re-checked
 * against the https and public-host rules before it is fetched), one timeout for the whole
 * exchange, the body capped. Returns the text and how many fetches it took (the cron's subrequest count).
 */
export async function fetchCalendarText(
  address: string,
  options: { localDevelopment: boolean; fetcher?: CalendarFetcher; timeoutMs?: number },
): Promise<{ text: string; fetches: number }> {
  const fetcher = options.fetcher ?? ((url, init) => fetch(url, init));
  const signal = AbortSignal.timeout(options.timeoutMs ?? BUSY_CALENDAR_LIMITS.timeoutMs);
  let url = new URL(address);
  let fetches = 0;
  try {
    for (let hop = 0; ; hop++) {
      const problem = calendarUrlProblem(url, options.localDevelopment);
      if (problem) throw new CalendarFetchError(hop > 0 && problem === BUSY_CALENDAR_MESSAGES.https ? BUSY_CALENDAR_MESSAGES.redirectHttps : problem);
      fetches++;
      const response = await fetcher(url.href, { redirect: 'manual', signal, headers: { accept: 'text/calendar, */*;q=0.5' } });
      if ([301, 302, 303, 307, 308].includes(response.status)) {
        await response.body?.cancel();
        const location = response.headers.get('location');
        if (hop >= BUSY_CALENDAR_LIMITS.maxRedirects) throw new CalendarFetchError(BUSY_CALENDAR_MESSAGES.tooManyRedirects);
        if (!location) throw new CalendarFetchError(`The calendar server answered ${response.status} without an address`);
        url = new URL(location, url);
        continue;
      }
      if (!response.ok) {
        await response.body?.cancel();
        throw new CalendarFetchError(`The calendar server answered ${response.status}`);
      }
      return { text: await cappedText(response, BUSY_CALENDAR_LIMITS.maxBytes), fetches };
    }
  } catch (error) {
    if (error instanceof CalendarFetchError) throw Object.assign(error, { fetches });
    if (signal.aborted) throw Object.assign(new CalendarFetchError(BUSY_CALENDAR_MESSAGES.timeout), { fetches });
    throw Object.assign(new CalendarFetchError(BUSY_CALENDAR_MESSAGES.unreachable), { fetches });
  }
}
