import { and, desc, eq, gte, isNotNull, ne, or, sql } from 'drizzle-orm';
import { firm as firmCode } from '#core/content/firm';
import type { BookingTimeSlot } from '#core/content/booking';
import { addCalendarDays, firmToday } from '#core/firm-time';
import { slotStartMinutes } from '#core/schemas/appointments';
import type { Db } from '../../db/client';
import { appointments, calendarFeed } from '../../db/schema';
import type { Bindings } from '../../env';
import { appointmentUid, inviteStatus } from './invite';
import { APPOINTMENT_MINUTES } from './busy-intervals';
import { buildCalendar, escapeIcsText, type InviteEvent } from './ics';
import type { FirmFacts } from '#core/content/firm-facts';
import { publishedContent } from '../content';
import { bytesToBase64Url, sha256Hex } from '#core/encoding';

// The firm's private calendar feed (docs/product.md §6.4, docs/decisions/0014): one VEVENT per
// appointment with a time, requested (TENTATIVE) or confirmed, with the UID and SEQUENCE of the
// visitor's invites, so the firm's calendar app shows the same event the visitor holds. A cancelled
// one stays as STATUS:CANCELLED for 30 days after its cancellation, so subscribers see it go.
// No cache to invalidate: the ETag is one aggregate over the same rows, answered with 304 before
// anything is rendered, so the feed is always current and a poll costs one small query.

/** How long a cancelled appointment stays in the feed (as STATUS:CANCELLED). */
export const CANCELLED_KEPT_DAYS = 30;
/** How far back the feed reaches: the firm keeps a year of history in its calendar, bounded. */
export const FEED_HISTORY_DAYS = 365;

const TOKEN_BYTES = 32;

/** The feed's address for a secret, https and webcal:// (what calendar apps subscribe to). */
export function feedUrls(env: Pick<Bindings, 'SITE_URL'>, secret: string) {
  const url = new URL(`/api/calendar/${secret}.ics`, env.SITE_URL).href;
  return { url, webcalUrl: url.replace(/^https?:\/\//, 'webcal://') };
}

/**
 * A new secret for the feed (32 random bytes, base64url): only its SHA-256 is stored, replacing the
 * old one in one statement, so the old address answers 404 from now on. The secret is returned
 * once, for the admin to copy.
 */
export async function rotateFeedSecret(db: Db): Promise<{ secret: string; createdAt: Date }> {
  const secret = bytesToBase64Url(crypto.getRandomValues(new Uint8Array(TOKEN_BYTES)));
  const tokenHash = await sha256Hex(secret);
  const createdAt = new Date();
  await db
    .insert(calendarFeed)
    .values({ id: 1, tokenHash, createdAt })
    .onConflictDoUpdate({ target: calendarFeed.id, set: { tokenHash, createdAt } });
  return { secret, createdAt };
}

/** Whether the feed exists, and since when (the address itself is never shown again). */
export async function feedStatus(db: Db): Promise<{ active: boolean; createdAt: Date | null }> {
  const [row] = await db.select({ createdAt: calendarFeed.createdAt }).from(calendarFeed).where(eq(calendarFeed.id, 1));
  return { active: row !== undefined, createdAt: row?.createdAt ?? null };
}

/** True when `secret` is the feed's current one: its hash compared in constant time. */
export async function isFeedSecret(db: Db, secret: string): Promise<boolean> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(secret)) return false;
  const [row] = await db.select({ tokenHash: calendarFeed.tokenHash }).from(calendarFeed).where(eq(calendarFeed.id, 1));
  if (!row) return false;
  return sameInConstantTime(await sha256Hex(secret), row.tokenHash);
}

/** Equal strings, compared without an early exit (both are 64 hex digits). */
function sameInConstantTime(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}

/** The appointments the feed shows at `now`: with a time, from a year back, active or cancelled within 30 days. */
function feedRows(now: Date) {
  const since = addCalendarDays(firmToday(firmCode.timeZone, now), -FEED_HISTORY_DAYS);
  const cancelledSince = new Date(now.getTime() - CANCELLED_KEPT_DAYS * 86_400_000);
  return and(
    isNotNull(appointments.timeSlot),
    gte(appointments.date, since),
    or(ne(appointments.status, 'cancelled'), gte(appointments.updatedAt, cancelledSince)),
  );
}

/** A short stable hash (FNV-1a, 32 bits) of the firm's facts the feed shows, for its ETag. */
function firmTag(firm: Pick<FirmFacts, 'name' | 'contact'>): string {
  let hash = 0x811c9dc5;
  for (const char of `${firm.name}\n${firm.contact.email}`) hash = Math.imul(hash ^ char.codePointAt(0)!, 0x01000193);
  return (hash >>> 0).toString(36);
}

/**
 * The feed's version: the number of its rows, the latest change among them and the sum of their
 * sequences, and the firm's published name and address it names as organizer. Any booking, change,
 * cancellation, expiry or such publish moves one of them.
 */
export async function feedEtag(db: Db, firm: Pick<FirmFacts, 'name' | 'contact'>, now: Date = new Date()): Promise<string> {
  const [row] = await db
    .select({ count: sql<number>`count(*)`, latest: sql<number | null>`max(${appointments.updatedAt})`, sequences: sql<number | null>`sum(${appointments.sequence})` })
    .from(appointments)
    .where(feedRows(now));
  return `"feed-${row.count}-${row.latest ?? 0}-${row.sequences ?? 0}-${firmTag(firm)}"`;
}

/** The whole feed: a VCALENDAR in the firm's zone (its VTIMEZONE once), the events newest first. */
export async function renderFeed(env: Pick<Bindings, 'SITE_URL'>, db: Db, firm: FirmFacts, now: Date = new Date()): Promise<string> {
  const rows = await db.select().from(appointments).where(feedRows(now)).orderBy(desc(appointments.date), desc(appointments.id));
  const events = rows.map((a): InviteEvent => {
    const status = inviteStatus[a.status];
    const contact = [`Email: ${a.email}`, `Phone: ${a.phone ?? '(not given)'}`];
    return {
      uid: appointmentUid(env, a),
      date: a.date,
      startMinutes: slotStartMinutes(a.timeSlot as BookingTimeSlot),
      durationMinutes: APPOINTMENT_MINUTES,
      timeZone: firmCode.timeZone,
      summary: `${a.serviceType}: ${a.name}${status === 'TENTATIVE' ? ' (requested)' : status === 'CANCELLED' ? ' (cancelled)' : ''}`,
      description: [`Name: ${a.name}`, `Service: ${a.serviceType}`, ...contact, `Status: ${a.status}`, ...(a.notes ? [`Notes: ${a.notes}`] : [])].join('\n'),
      location: firm.name,
      organizerName: firm.name,
      organizerEmail: firm.contact.email,
      status,
      sequence: a.sequence,
      // The last change, not the request's time: the same data renders the same bytes (ETag).
      now: a.updatedAt,
    };
  });
  return buildCalendar({
    prodName: firm.name,
    method: 'PUBLISH',
    timeZone: firmCode.timeZone,
    events,
    // The calendar's name, and a hint to poll every 15 minutes (Outlook and Apple read these).
    header: [`X-WR-CALNAME:${escapeIcsText(`${firm.name} appointments`)}`, 'REFRESH-INTERVAL;VALUE=DURATION:PT15M', 'X-PUBLISHED-TTL:PT15M'],
  });
}

/** GET /api/calendar/<file>: not found, not modified since the calendar's copy (ETag), or the feed. */
export type FeedAnswer =
  | { found: false }
  | { found: true; modified: false; etag: string }
  | { found: true; modified: true; etag: string; body: string };

/**
 * The feed a calendar app asks for by `<secret>.ics`: the secret is the only key (a wrong or
 * rotated one is not found). The ETag is checked before anything is rendered; `ifNoneMatch` is the
 * request's If-None-Match.
 */
export async function calendarFeedFile(env: Pick<Bindings, 'SITE_URL' | 'DB' | 'PAGES'>, db: Db, file: string, ifNoneMatch: string | undefined): Promise<FeedAnswer> {
  if (!file.endsWith('.ics') || !(await isFeedSecret(db, file.slice(0, -'.ics'.length)))) return { found: false };
  const now = new Date();
  const { firm } = await publishedContent(env);
  const etag = await feedEtag(db, firm, now);
  if (ifNoneMatch && ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)) return { found: true, modified: false, etag };
  return { found: true, modified: true, etag, body: await renderFeed(env, db, firm, now) };
}
