import { and, desc, eq } from 'drizzle-orm';
import { firm } from '#core/content/firm';
import type { Db } from '../../db/client';
import { sentNewsletters } from '../../db/schema';
import { firmToday } from '#core/firm-time';
import { sanitizeHtml } from './sanitize-html';
import { decodeBasicEntities, renderNewsletterEmail } from './template';
import { publishedContent } from '../content';
import type { FirmFacts } from '#core/content/firm-facts';
import type { Bindings } from '../../env';

/**
 * The public newsletter archive (docs/product.md §5): the issues whose sending finished (status
 * 'sent'; one still going out joins once its last batch settles). What leaves here is the issue
 * itself, never who got it: no counts, failures, recipients or tokens.
 */

/** The archive, newest first: id, subject and the date the issue went out. */
export async function listArchivedIssues(db: Db) {
  const rows = await db
    .select({ id: sentNewsletters.id, subject: sentNewsletters.subject, sentAt: sentNewsletters.sentAt })
    .from(sentNewsletters)
    .where(eq(sentNewsletters.status, 'sent'))
    .orderBy(desc(sentNewsletters.sentAt), desc(sentNewsletters.id));
  return rows.map((row) => ({ id: row.id, subject: row.subject, ...sentWhen(row.sentAt) }));
}

/**
 * When an issue went out: the instant, and the firm's calendar day (YYYY-MM-DD) the pages show. The
 * day is worked out here so that the archive pages format it without Intl: a browser's first
 * time-zone formatter costs tens of milliseconds of main thread on a phone (Lighthouse's total blocking time).
 */
export function sentWhen(sentAt: Date): { sentAt: string; sentOn: string } {
  return { sentAt: sentAt.toISOString(), sentOn: firmToday(firm.timeZone, sentAt) };
}

/** One sent issue (undefined when the id is unknown or still sending). */
export async function findArchivedIssue(db: Db, id: number) {
  return db.query.sentNewsletters.findFirst({
    columns: { id: true, subject: true, content: true, sentAt: true },
    where: and(eq(sentNewsletters.id, id), eq(sentNewsletters.status, 'sent')),
  });
}

/**
 * The issue as subscribers saw it, minus what was theirs: the same frame (template.ts) with the
 * web edition's footer instead of the personal unsubscribe link, and the firm as published now. The body is what was sent, which
 * is the same for every recipient (no merge fields); it is sanitised again here so that the page
 * never depends on how an old row was written.
 */
export function archivedIssueHtml(issue: { subject: string; content: string }, origin: string, firm: FirmFacts): string {
  return renderNewsletterEmail({ subject: issue.subject, bodyHtml: sanitizeHtml(issue.content), unsubscribeUrl: null, origin, firm }).html;
}

/** A one-line summary of an issue for its page's meta description: the body's first words. */
export function issueDescription(content: string, maxLength = 160): string {
  const text = decodeBasicEntities(sanitizeHtml(content).replace(/<[^>]*>/g, ' '))
    .replace(/\s+/g, ' ')
    .trim();
  return text.length <= maxLength ? text : `${text.slice(0, maxLength - 1).replace(/\s+\S*$/, '')}…`;
}

/** The archive's issue page: the issue, when it went out and its HTML (archivedIssueHtml), or null when it is not in the archive. */
export async function archivedIssue(env: Bindings, db: Db, id: number, origin: string) {
  const issue = await findArchivedIssue(db, id);
  if (!issue) return null;
  const html = archivedIssueHtml(issue, origin, (await publishedContent(env)).firm);
  return { id: issue.id, subject: issue.subject, ...sentWhen(issue.sentAt), html };
}
