import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { clickCounts, issueLinks } from './click-tracking';
import { countActiveSubscribers, getNewsletter, sentNewsletterStats } from './store';

/**
 * The report of one issue (docs/product.md §5.11): its recipients and what became of them, from the
 * delivery ledger joined to each message's e-mail log entry (whose delivery status MailChannels'
 * events keep, services/email/delivery-events.ts), the unsubscribes its own links caused, and the
 * unique clicks per link of its body. The log keeps the latest event per message: a message that
 * soft-bounced and was then delivered counts as delivered; a complaint implies a delivery.
 */
export async function newsletterReport(db: Db, id: number) {
  const issue = await getNewsletter(db, id);
  if (!issue) return null;
  const [[totals], clicks] = await Promise.all([
    db.all<{ recipients: number; accepted: number; delivered: number; bounced: number; complained: number; unsubscribed: number }>(sql`
      SELECT count(*) AS recipients,
        coalesce(sum(d.status = 'sent'), 0) AS accepted,
        coalesce(sum(l.delivery_status IN ('delivered', 'complained')), 0) AS delivered,
        coalesce(sum(l.delivery_status IN ('hard-bounced', 'soft-bounced', 'dropped')), 0) AS bounced,
        coalesce(sum(l.delivery_status = 'complained'), 0) AS complained,
        coalesce(sum(d.unsubscribed_at IS NOT NULL), 0) AS unsubscribed
      FROM newsletter_deliveries d LEFT JOIN email_log l ON l.id = d.email_log_id
      WHERE d.newsletter_id = ${id}`),
    clickCounts(db, id),
  ]);
  const links = issueLinks(issue.content).flatMap((url, index) => (url === null ? [] : [{ url, clicks: clicks.perLink.get(index) ?? 0 }]));
  return {
    id: issue.id,
    subject: issue.subject,
    sentAt: issue.sentAt.toISOString(),
    status: issue.status,
    recipients: totals?.recipients ?? 0,
    accepted: totals?.accepted ?? 0,
    failed: issue.failedCount,
    delivered: totals?.delivered ?? 0,
    bounced: totals?.bounced ?? 0,
    complained: totals?.complained ?? 0,
    unsubscribed: totals?.unsubscribed ?? 0,
    clickers: clicks.clickers,
    links,
  };
}

/** The dashboard's figures (docs/product.md §11): active subscribers, issues sent and the last one's date. */
export async function newsletterStats(db: Db) {
  const [activeSubscribers, { totalSent, lastSent }] = await Promise.all([countActiveSubscribers(db), sentNewsletterStats(db)]);
  return { activeSubscribers, totalSent, lastSent: lastSent ? lastSent.toISOString() : null };
}
