import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { newsletterClicks, newsletterDeliveries, newsletterSettings, sentNewsletters } from '../../db/schema';
import { escapeHtml } from '../platform/html';
import { decodeBasicEntities } from './template';
import { hmacSigningKey } from '../platform/link-signing';
import { bytesToBase64Url } from '#core/encoding';

/**
 * First-party click tracking (docs/product.md §5.11). Each link of an issue's body is sent to each
 * recipient as `{origin}/r/{newsletterId}.{deliveryId}.{linkIndex}.{signature}`: the signature is an
 * HMAC of the three numbers under JWT_SECRET (its own purpose prefix, so no other signed link can be
 * replayed here). The redirect target is never in the link: it is read back from the issue's stored
 * body by the link's position, so a link can only ever lead where the issue pointed (no open
 * redirect), and a forged or unknown link is a 404. A click is counted once per recipient and link
 * (newsletter_clicks' primary key). There is no open pixel; the owner can turn tracking off
 * (newsletter_settings), and the public archive shows the stored body, whose links are the originals.
 */

const PURPOSE = 'newsletter-click:';
/** 16 of SHA-256's 32 bytes: 128 bits is far beyond guessing, and keeps every link short. */
const SIGNATURE_BYTES = 16;

/** Every `<a href="...">` of sanitised HTML (sanitize-html.ts writes attributes double-quoted). */
const ANCHOR_HREF = /(<a\b[^>]*?\shref=")([^"]*)(")/gi;

/** The issue's links by position: the URL for http(s) links, null for any other (mailto:, tel:, #...), which are never rewritten. */
export function issueLinks(html: string): (string | null)[] {
  return [...html.matchAll(ANCHOR_HREF)].map((m) => trackableUrl(m[2]));
}

function trackableUrl(href: string): string | null {
  const url = decodeBasicEntities(href).trim();
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : null;
  } catch {
    return null;
  }
}

/** The body with each trackable link replaced by `hrefFor(position)`; the others stay as they are. */
export function rewriteLinks(html: string, hrefFor: (index: number) => string): string {
  let index = -1;
  return html.replace(ANCHOR_HREF, (match, open: string, href: string, close: string) => {
    index++;
    return trackableUrl(href) === null ? match : `${open}${escapeHtml(hrefFor(index))}${close}`;
  });
}

export interface ClickRef {
  newsletterId: number;
  deliveryId: number;
  linkIndex: number;
}

async function clickSignature(secret: string, payload: string): Promise<string> {
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', await hmacSigningKey(secret), new TextEncoder().encode(PURPOSE + payload)));
  return bytesToBase64Url(mac.slice(0, SIGNATURE_BYTES));
}

export async function clickToken(secret: string, ref: ClickRef): Promise<string> {
  const payload = `${ref.newsletterId}.${ref.deliveryId}.${ref.linkIndex}`;
  return `${payload}.${await clickSignature(secret, payload)}`;
}

export function clickUrl(origin: string, token: string): string {
  return `${origin}/r/${token}`;
}

/** The reference a token names, or null when it is malformed or its signature is not ours. */
export async function verifyClickToken(secret: string, token: string): Promise<ClickRef | null> {
  const match = /^([1-9][0-9]{0,9})\.([1-9][0-9]{0,12})\.(0|[1-9][0-9]{0,4})\.([A-Za-z0-9_-]{22})$/.exec(token);
  if (!match) return null;
  const expected = await clickSignature(secret, `${match[1]}.${match[2]}.${match[3]}`);
  // Compared in full whatever differs first (no early exit that would time the signature out).
  let diff = 0;
  for (let i = 0; i < expected.length; i++) diff |= expected.charCodeAt(i) ^ match[4].charCodeAt(i);
  if (diff !== 0) return null;
  return { newsletterId: Number(match[1]), deliveryId: Number(match[2]), linkIndex: Number(match[3]) };
}

/** Whether click tracking is on (the owner's setting; on unless turned off), as a query to batch. */
export function clickTrackingQuery(db: Db) {
  return db.select({ clickTracking: newsletterSettings.clickTracking }).from(newsletterSettings).where(eq(newsletterSettings.id, 1));
}

/** The settings screen's view of click tracking: on unless the owner turned it off. */
export async function clickTrackingSetting(db: Db): Promise<{ clickTracking: boolean }> {
  const [row] = await clickTrackingQuery(db);
  return { clickTracking: row?.clickTracking ?? true };
}

export async function setClickTracking(db: Db, enabled: boolean, now = new Date()): Promise<void> {
  await db
    .insert(newsletterSettings)
    .values({ id: 1, clickTracking: enabled, updatedAt: now })
    .onConflictDoUpdate({ target: newsletterSettings.id, set: { clickTracking: enabled, updatedAt: now } });
}

/**
 * A click on a tracked link: the original URL it leads to, or null (→ 404) for a forged token, an
 * unknown issue or delivery, or a position the issue has no link at. Two D1 calls: one batch reads
 * the issue, the delivery and the setting; then, when tracking is on, the click is counted, once
 * per recipient and link. With tracking off the link still leads where it did, and nothing is recorded.
 */
export async function followClick(secret: string, db: Db, token: string, now = new Date()): Promise<string | null> {
  const ref = await verifyClickToken(secret, token);
  if (!ref) return null;
  const [issues, deliveries, settings] = await db.batch([
    db.select({ content: sentNewsletters.content }).from(sentNewsletters).where(eq(sentNewsletters.id, ref.newsletterId)),
    db
      .select({ id: newsletterDeliveries.id })
      .from(newsletterDeliveries)
      .where(and(eq(newsletterDeliveries.id, ref.deliveryId), eq(newsletterDeliveries.newsletterId, ref.newsletterId))),
    clickTrackingQuery(db),
  ]);
  if (!issues[0] || !deliveries[0]) return null;
  const url = issueLinks(issues[0].content)[ref.linkIndex];
  if (!url) return null;
  if (settings[0]?.clickTracking ?? true) {
    await db
      .insert(newsletterClicks)
      .values({ deliveryId: ref.deliveryId, linkIndex: ref.linkIndex, newsletterId: ref.newsletterId, clickedAt: now })
      .onConflictDoNothing();
  }
  return url;
}

/** Unique clicks per link position of one issue, and how many recipients clicked anything. */
export async function clickCounts(db: Db, newsletterId: number) {
  const [perLink, clickers] = await db.batch([
    db
      .select({ linkIndex: newsletterClicks.linkIndex, clicks: sql<number>`count(*)` })
      .from(newsletterClicks)
      .where(eq(newsletterClicks.newsletterId, newsletterId))
      .groupBy(newsletterClicks.linkIndex),
    db
      .select({ n: sql<number>`count(DISTINCT ${newsletterClicks.deliveryId})` })
      .from(newsletterClicks)
      .where(eq(newsletterClicks.newsletterId, newsletterId)),
  ]);
  return { perLink: new Map(perLink.map((r) => [r.linkIndex, r.clicks])), clickers: clickers[0]?.n ?? 0 };
}
