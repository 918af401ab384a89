import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import type { Db } from '../../db/client';
import { newsletterDeliveries, newsletterSubscriptions, sentNewsletters } from '../../db/schema';
import type { Bindings } from '../../env';
import { emailTransport, sendEmailBatch } from '../email/send-email';
import type { EmailTransport, OutgoingEmail } from '../email/types';
import { oneClickUnsubscribeUrl, unsubscribePageUrl } from './subscriptions';
import { renderNewsletterEmail, siteOrigin } from './template';
import { signLinkToken } from './tokens';

/**
 * Resumable newsletter sending.
 *
 * A send is a sent_newsletters row plus one newsletter_deliveries row per active subscriber,
 * created together in one D1 batch (a transaction). Each invocation (the admin's request, then
 * every cron tick) settles at most NEWSLETTER_BATCH_SIZE deliveries with a fixed number of D1
 * calls, so it stays under Workers' subrequest limit (50 per invocation on the free plan, 1000 paid):
 *   1. one batch: expire interrupted claims, drop unsubscribed recipients, claim up to N pending rows
 *      (an atomic UPDATE ... RETURNING: two overlapping invocations never claim the same row);
 *   2. one batch: log the N messages as 'queued' in email_log;
 *   3. N provider calls, in parallel;
 *   4. one batch: record every outcome in email_log and in the ledger, and recount the newsletter.
 * plus a read of the newsletter before and of its status after: N + 5 subrequests in all (45 with
 * the default batch of 40), under the free plan's 50.
 *
 * Nobody gets a newsletter twice: a row is only sent after it was claimed, and a claim whose
 * outcome never got recorded (the invocation died between the provider call and step 4) is not
 * retried but marked failed as "outcome unknown" once its lease expires; the provider may well
 * have delivered it. Only failures where the provider certainly refused the message (429, 5xx,
 * connection refused) go back to pending, at most MAX_ATTEMPTS times.
 */

export const DEFAULT_BATCH_SIZE = 40;
export const DEFAULT_CLAIM_LEASE_SECONDS = 120;
export const MAX_ATTEMPTS = 3;
export const INTERRUPTED_ERROR = 'Interrupted while sending: outcome unknown, not retried so that nobody receives it twice';
export const UNSUBSCRIBED_ERROR = 'Unsubscribed before delivery';

type NewsletterRow = typeof sentNewsletters.$inferSelect;

export interface BatchStats {
  newsletterId: number | null;
  claimed: number;
  sent: number;
  failed: number;
  retryLater: number;
  providerRequests: number;
  d1Calls: number;
  status: 'sending' | 'sent' | null;
}

export function batchSize(env: Bindings): number {
  const n = Number(env.NEWSLETTER_BATCH_SIZE);
  return Number.isInteger(n) && n > 0 ? Math.min(n, 990) : DEFAULT_BATCH_SIZE;
}

function leaseMs(env: Bindings): number {
  const n = Number(env.NEWSLETTER_CLAIM_LEASE_SECONDS);
  return (Number.isFinite(n) && n >= 0 ? n : DEFAULT_CLAIM_LEASE_SECONDS) * 1000;
}

export function toSentNewsletter(row: NewsletterRow) {
  return {
    id: row.id,
    subject: row.subject,
    content: row.content,
    sentAt: row.sentAt.toISOString(),
    recipientCount: row.recipientCount,
    totalRecipients: row.totalRecipients,
    failedCount: row.failedCount,
    status: row.status,
  };
}

export async function listSentNewsletters(db: Db) {
  const rows = await db.select().from(sentNewsletters).orderBy(desc(sentNewsletters.sentAt), desc(sentNewsletters.id));
  return rows.map(toSentNewsletter);
}

export async function countActiveSubscribers(db: Db): Promise<number> {
  const [row] = await db.select({ n: count() }).from(newsletterSubscriptions).where(eq(newsletterSubscriptions.active, 'true'));
  return row?.n ?? 0;
}

export class PeriodAlreadySentError extends Error {
  constructor(readonly periodKey: string) {
    super(`A newsletter for period ${periodKey} already exists`);
  }
}

/**
 * Records a newsletter and its recipient ledger in one transaction. With a periodKey, a second
 * attempt for the same period fails on sent_newsletters' UNIQUE index: PeriodAlreadySentError.
 */
export async function createNewsletter(
  db: Db,
  input: { subject: string; content: string; trigger: 'manual' | 'scheduled'; periodKey?: string },
): Promise<NewsletterRow> {
  try {
    const [, , , created] = await db.batch([
      db.insert(sentNewsletters).values({ subject: input.subject, content: input.content, trigger: input.trigger, periodKey: input.periodKey ?? null, status: 'sending' }),
      // AUTOINCREMENT ids only grow and the batch is one transaction: max(id) is the row just inserted.
      db.run(sql`INSERT INTO newsletter_deliveries (newsletter_id, subscriber_id, email)
        SELECT (SELECT max(id) FROM sent_newsletters), id, email FROM newsletter_subscriptions WHERE active = 'true' ORDER BY id`),
      db.run(sql`UPDATE sent_newsletters SET total_recipients = (SELECT count(*) FROM newsletter_deliveries WHERE newsletter_id = sent_newsletters.id)
        WHERE id = (SELECT max(id) FROM sent_newsletters)`),
      db.select().from(sentNewsletters).orderBy(desc(sentNewsletters.id)).limit(1),
    ]);
    return created[0];
  } catch (error) {
    if (input.periodKey && /UNIQUE constraint failed/i.test(String((error as Error)?.message ?? '') + String((error as { cause?: Error })?.cause?.message ?? ''))) {
      throw new PeriodAlreadySentError(input.periodKey);
    }
    throw error;
  }
}

function recountStatement(db: Db, newsletterId: number) {
  // Drizzle builders (not db.run) because drizzle's D1 batch cannot bind parameters of raw statements.
  return db
    .update(sentNewsletters)
    .set({
      recipientCount: sql`(SELECT count(*) FROM newsletter_deliveries WHERE newsletter_id = ${newsletterId} AND status = 'sent')`,
      failedCount: sql`(SELECT count(*) FROM newsletter_deliveries WHERE newsletter_id = ${newsletterId} AND status = 'failed')`,
      status: sql`CASE WHEN EXISTS (SELECT 1 FROM newsletter_deliveries WHERE newsletter_id = ${newsletterId} AND status IN ('pending', 'sending')) THEN 'sending' ELSE 'sent' END`,
    })
    .where(eq(sentNewsletters.id, newsletterId));
}

/**
 * Settles one batch of the given newsletter, or of the oldest newsletter still sending.
 * Returns what it did, including the D1 calls and provider requests it made (for the benchmark).
 */
export async function sendNewsletterBatch(
  env: Bindings,
  db: Db,
  options: { newsletterId?: number; origin?: string; transport?: EmailTransport; now?: Date; limit?: number } = {},
): Promise<BatchStats> {
  const stats: BatchStats = { newsletterId: null, claimed: 0, sent: 0, failed: 0, retryLater: 0, providerRequests: 0, d1Calls: 0, status: null };
  const now = options.now ?? new Date();
  stats.d1Calls++;
  const newsletter = await db.query.sentNewsletters.findFirst({
    where: options.newsletterId ? eq(sentNewsletters.id, options.newsletterId) : eq(sentNewsletters.status, 'sending'),
    orderBy: asc(sentNewsletters.id),
  });
  if (!newsletter) return stats;
  stats.newsletterId = newsletter.id;
  stats.status = newsletter.status;
  if (newsletter.status === 'sent') return stats;

  const limit = options.limit ?? batchSize(env);
  const staleBefore = new Date(now.getTime() - leaseMs(env));
  stats.d1Calls++;
  const [, , claimed] = await db.batch([
    db
      .update(newsletterDeliveries)
      .set({ status: 'failed', error: INTERRUPTED_ERROR })
      .where(
        and(
          eq(newsletterDeliveries.newsletterId, newsletter.id),
          eq(newsletterDeliveries.status, 'sending'),
          sql`${newsletterDeliveries.claimedAt} <= ${staleBefore.getTime()}`,
        ),
      ),
    db
      .update(newsletterDeliveries)
      .set({ status: 'failed', error: UNSUBSCRIBED_ERROR })
      .where(
        and(
          eq(newsletterDeliveries.newsletterId, newsletter.id),
          eq(newsletterDeliveries.status, 'pending'),
          sql`${newsletterDeliveries.subscriberId} NOT IN (SELECT id FROM newsletter_subscriptions WHERE active = 'true')`,
        ),
      ),
    db
      .update(newsletterDeliveries)
      .set({ status: 'sending', claimedAt: now, attempts: sql`${newsletterDeliveries.attempts} + 1` })
      .where(
        inArray(
          newsletterDeliveries.id,
          db
            .select({ id: newsletterDeliveries.id })
            .from(newsletterDeliveries)
            .where(and(eq(newsletterDeliveries.newsletterId, newsletter.id), eq(newsletterDeliveries.status, 'pending')))
            .orderBy(asc(newsletterDeliveries.id))
            .limit(limit),
        ),
      )
      .returning({
        id: newsletterDeliveries.id,
        subscriberId: newsletterDeliveries.subscriberId,
        email: newsletterDeliveries.email,
        attempts: newsletterDeliveries.attempts,
      }),
  ]);
  stats.claimed = claimed.length;

  if (claimed.length === 0) {
    stats.d1Calls++;
    await recountStatement(db, newsletter.id);
    stats.d1Calls++;
    const after = await db.query.sentNewsletters.findFirst({ where: eq(sentNewsletters.id, newsletter.id) });
    stats.status = after?.status ?? null;
    return stats;
  }

  const origin = options.origin ?? siteOrigin(env);
  const messages: OutgoingEmail[] = await Promise.all(
    claimed.map(async (delivery) => {
      const token = await signLinkToken(env.JWT_SECRET, 'newsletter-unsubscribe', { id: delivery.subscriberId, email: delivery.email }, now);
      const { html, text } = renderNewsletterEmail({
        subject: newsletter.subject,
        bodyHtml: newsletter.content,
        unsubscribeUrl: unsubscribePageUrl(origin, token),
        origin,
      });
      return {
        to: delivery.email,
        subject: newsletter.subject,
        text,
        html,
        kind: 'newsletter' as const,
        headers: {
          'List-Unsubscribe': `<${oneClickUnsubscribeUrl(origin, token)}>`,
          'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
        },
      };
    }),
  );

  const transport = options.transport ?? emailTransport(env);
  const countsProvider = transport.name === 'mailchannels';
  stats.d1Calls += 2;
  if (countsProvider) stats.providerRequests += messages.length;
  const settledAt = new Date();
  await sendEmailBatch(db, transport, messages, (outcomes) => {
    const statements: BatchItem<'sqlite'>[] = [];
    const sentIds = claimed.filter((_, i) => outcomes[i].ok).map((d) => d.id);
    if (sentIds.length) {
      statements.push(db.update(newsletterDeliveries).set({ status: 'sent', sentAt: settledAt, error: null }).where(inArray(newsletterDeliveries.id, sentIds)));
    }
    outcomes.forEach((outcome, i) => {
      if (outcome.ok) {
        stats.sent++;
        return;
      }
      const retry = outcome.retryable && claimed[i].attempts < MAX_ATTEMPTS;
      if (retry) stats.retryLater++;
      else stats.failed++;
      statements.push(
        db
          .update(newsletterDeliveries)
          .set({ status: retry ? 'pending' : 'failed', error: outcome.error ?? 'Failed', claimedAt: null })
          .where(eq(newsletterDeliveries.id, claimed[i].id)),
      );
    });
    statements.push(recountStatement(db, newsletter.id));
    return statements;
  });
  stats.status = await readStatus(db, newsletter.id, stats);
  return stats;
}

async function readStatus(db: Db, newsletterId: number, stats: BatchStats): Promise<'sending' | 'sent' | null> {
  stats.d1Calls++;
  const row = await db.query.sentNewsletters.findFirst({ columns: { status: true }, where: eq(sentNewsletters.id, newsletterId) });
  return row?.status ?? null;
}

export async function getNewsletter(db: Db, id: number) {
  return db.query.sentNewsletters.findFirst({ where: eq(sentNewsletters.id, id) });
}
