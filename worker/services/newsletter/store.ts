import { and, asc, count, desc, eq, gte, inArray, max, type SQL, sql } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import type { Db } from '../../db/client';
import { auditLog, newsletterDeliveries, newsletterDrafts, newsletterSubscriptions, sentNewsletters } from '../../db/schema';
import { insertWhen } from '../../db/granted-batch';
import { isUniqueViolation } from '../../db/unique-violation';

/**
 * The newsletter ledger in D1 (docs/decisions/0004-newsletter-sending.md): sent_newsletters, one
 * newsletter_deliveries row per recipient, claims and outcomes. Data access only: what to claim,
 * when to retry and what to send are the sender's (sender.ts).
 */

export const INTERRUPTED_ERROR = 'Interrupted while sending: outcome unknown, not retried so that nobody receives it twice';
export const UNSUBSCRIBED_ERROR = 'Unsubscribed before delivery';

export type NewsletterRow = typeof sentNewsletters.$inferSelect;

/** Where a newsletter stands: its status and its counts (recipientCount only counts confirmed deliveries). */
export interface NewsletterProgress {
  newsletterId: number;
  status: 'sending' | 'sent';
  recipientCount: number;
  totalRecipients: number;
}

export interface ClaimedDelivery {
  id: number;
  subscriberId: number;
  email: string;
  /** Including this claim. */
  attempts: number;
}

/**
 * What became of a claimed delivery: sent, back to pending (a retry), or failed for good; with the
 * e-mail log entry of the message, whose delivery events feed the report.
 */
export type DeliveryOutcome = ({ id: number; status: 'sent' } | { id: number; status: 'pending' | 'failed'; error: string }) & { emailLogId?: number };

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

export async function getNewsletter(db: Db, id: number) {
  return db.query.sentNewsletters.findFirst({ where: eq(sentNewsletters.id, id) });
}

export async function countActiveSubscribers(db: Db): Promise<number> {
  const [row] = await db.select({ n: count() }).from(newsletterSubscriptions).where(eq(newsletterSubscriptions.active, 'true'));
  return row?.n ?? 0;
}

/** How many newsletters were sent, and when the last one was (null before the first). */
export async function sentNewsletterStats(db: Db): Promise<{ totalSent: number; lastSent: Date | null }> {
  const [row] = await db.select({ total: count(), last: max(sentNewsletters.sentAt) }).from(sentNewsletters);
  const last = row?.last as Date | number | null | undefined;
  return { totalSent: row?.total ?? 0, lastSent: last ? new Date(last) : null };
}

/** A newsletter with this subject and content recorded since `since`, if any. */
export async function findRecentNewsletter(db: Db, draft: { subject: string; content: string }, since: Date) {
  return db.query.sentNewsletters.findFirst({
    where: and(eq(sentNewsletters.subject, draft.subject), eq(sentNewsletters.content, draft.content), gte(sentNewsletters.sentAt, since)),
  });
}

export class PeriodAlreadySentError extends Error {
  constructor(readonly periodKey: string) {
    super(`A newsletter for period ${periodKey} already exists`);
  }
}

/** A scheduled draft's newsletter was already recorded (by an overlapping or earlier cron tick). */
export class DraftAlreadySentError extends Error {
  constructor(readonly draftId: number) {
    super(`Draft ${draftId} has already been sent`);
  }
}

/**
 * Records a newsletter and its recipient ledger in one transaction. With a periodKey, a second
 * attempt for the same period fails on sent_newsletters' UNIQUE index: PeriodAlreadySentError.
 * With a draftId (a scheduled draft), the draft is marked sent in the same transaction and a second
 * attempt for the same draft fails on its UNIQUE index: DraftAlreadySentError.
 */
export async function createNewsletter(
  db: Db,
  input: {
    subject: string;
    content: string;
    trigger: 'manual' | 'scheduled';
    periodKey?: string;
    draftId?: number;
    /**
     * The cron's send on someone's behalf (a scheduled draft, the running scheduler's issue), recorded
     * in the audit trail by the system in the same transaction as the newsletter (docs/product.md §6.9).
     */
    cronAudit?: { action: 'newsletter.scheduled-send' | 'newsletter.scheduler-send'; at: Date };
  },
): Promise<NewsletterRow> {
  // A scheduled draft is named by the draft, which its "scheduled by" entry names too; the
  // scheduler's issue by the newsletter this batch inserts.
  const auditRecord = input.draftId !== undefined ? `newsletter-draft:${input.draftId}` : sql`'newsletter:' || (SELECT max(id) FROM sent_newsletters)`;
  try {
    const [, , , created] = await db.batch([
      db.insert(sentNewsletters).values({
        subject: input.subject,
        content: input.content,
        trigger: input.trigger,
        periodKey: input.periodKey ?? null,
        draftId: input.draftId ?? null,
        status: 'sending',
      }),
      // AUTOINCREMENT ids only grow and the batch is one transaction: max(id) is the row just inserted.
      db.run(sql`INSERT INTO newsletter_deliveries (newsletter_id, subscriber_id, email)
        SELECT (SELECT max(id) FROM sent_newsletters), id, email FROM newsletter_subscriptions WHERE active = 'true' ORDER BY id`),
      db.run(sql`UPDATE sent_newsletters SET total_recipients = (SELECT count(*) FROM newsletter_deliveries WHERE newsletter_id = sent_newsletters.id)
        WHERE id = (SELECT max(id) FROM sent_newsletters)`),
      db.select().from(sentNewsletters).orderBy(desc(sentNewsletters.id)).limit(1),
      db
        .update(newsletterDrafts)
        .set({ status: 'sent', newsletterId: sql`(SELECT max(id) FROM sent_newsletters)`, claimedAt: null, error: null })
        .where(eq(newsletterDrafts.id, input.draftId ?? -1)),
      // Written only for the cron's sends (the admin's own sends are recorded by their routes).
      insertWhen(
        db,
        auditLog,
        { at: input.cronAudit?.at ?? new Date(), actor: 'system', action: input.cronAudit?.action ?? '', record: auditRecord, outcome: 'success' },
        input.cronAudit ? sql`1` : sql`0`,
      ),
    ]);
    return created[0];
  } catch (error) {
    if (input.periodKey && isUniqueViolation(error, [sentNewsletters.periodKey])) {
      throw new PeriodAlreadySentError(input.periodKey);
    }
    if (input.draftId !== undefined && isUniqueViolation(error, [sentNewsletters.draftId])) {
      throw new DraftAlreadySentError(input.draftId);
    }
    throw error;
  }
}

/** The given newsletter, or else the oldest one still sending. */
export async function findNewsletterToSend(db: Db, newsletterId?: number): Promise<NewsletterRow | undefined> {
  const [row] = await newsletterToSendQuery(db, newsletterId);
  return row;
}

/**
 * findNewsletterToSend's query (at most one row), for a caller that reads it in a batch with other
 * reads. A plain select: Drizzle's relational findFirst throws inside a D1 batch when nothing matches.
 */
export function newsletterToSendQuery(db: Db, newsletterId?: number) {
  return db
    .select()
    .from(sentNewsletters)
    .where(newsletterId ? eq(sentNewsletters.id, newsletterId) : eq(sentNewsletters.status, 'sending'))
    .orderBy(asc(sentNewsletters.id))
    .limit(1);
}

/**
 * One D1 batch: marks claims made before `staleBefore` failed as "outcome unknown" (never
 * retried), fails pending rows of people who unsubscribed since, and claims up to `limit` pending
 * rows with an atomic UPDATE ... RETURNING, so two overlapping invocations never claim the same row.
 */
export async function claimDeliveries(
  db: Db,
  newsletterId: number,
  claim: { limit: number; now: Date; staleBefore: Date },
): Promise<ClaimedDelivery[]> {
  const fail = (status: 'sending' | 'pending', condition: SQL, error: string) =>
    db
      .update(newsletterDeliveries)
      .set({ status: 'failed', error })
      .where(and(eq(newsletterDeliveries.newsletterId, newsletterId), eq(newsletterDeliveries.status, status), condition));
  const [, , claimed] = await db.batch([
    fail('sending', sql`${newsletterDeliveries.claimedAt} <= ${claim.staleBefore.getTime()}`, INTERRUPTED_ERROR),
    fail('pending', sql`${newsletterDeliveries.subscriberId} NOT IN (SELECT id FROM newsletter_subscriptions WHERE active = 'true')`, UNSUBSCRIBED_ERROR),
    db
      .update(newsletterDeliveries)
      .set({ status: 'sending', claimedAt: claim.now, attempts: sql`${newsletterDeliveries.attempts} + 1` })
      .where(
        inArray(
          newsletterDeliveries.id,
          db
            .select({ id: newsletterDeliveries.id })
            .from(newsletterDeliveries)
            .where(and(eq(newsletterDeliveries.newsletterId, newsletterId), eq(newsletterDeliveries.status, 'pending')))
            .orderBy(asc(newsletterDeliveries.id))
            .limit(claim.limit),
        ),
      )
      .returning({
        id: newsletterDeliveries.id,
        subscriberId: newsletterDeliveries.subscriberId,
        email: newsletterDeliveries.email,
        attempts: newsletterDeliveries.attempts,
      }),
  ]);
  return claimed;
}

/** Recounts the newsletter from its ledger; 'sent' once no delivery is pending or being sent. */
export function recountStatement(db: Db, newsletterId: number) {
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
 * The statements that record a batch's outcomes and recount the newsletter, for the caller to run
 * in the same D1 batch as the e-mail log's updates. The sent rows are one statement whatever the
 * batch size: their ids travel as one JSON parameter (json_each), since D1 binds at most 100
 * parameters per statement.
 */
export function outcomeStatements(db: Db, newsletterId: number, outcomes: DeliveryOutcome[], settledAt: Date): BatchItem<'sqlite'>[] {
  const statements: BatchItem<'sqlite'>[] = [];
  const sentIds = outcomes.filter((o) => o.status === 'sent').map((o) => o.id);
  if (sentIds.length) {
    // Each row's log entry travels in the same JSON parameter: [[deliveryId, emailLogId], ...].
    const logIds = JSON.stringify(outcomes.filter((o) => o.status === 'sent').map((o) => [o.id, o.emailLogId ?? null]));
    statements.push(
      db
        .update(newsletterDeliveries)
        .set({
          status: 'sent',
          sentAt: settledAt,
          error: null,
          emailLogId: sql`(SELECT json_extract(value, '$[1]') FROM json_each(${logIds}) WHERE json_extract(value, '$[0]') = ${newsletterDeliveries.id})`,
        })
        .where(sql`${newsletterDeliveries.id} IN (SELECT value FROM json_each(${JSON.stringify(sentIds)}))`),
    );
  }
  for (const outcome of outcomes) {
    if (outcome.status === 'sent') continue;
    statements.push(
      db.update(newsletterDeliveries).set({ status: outcome.status, error: outcome.error, claimedAt: null }).where(eq(newsletterDeliveries.id, outcome.id)),
    );
  }
  statements.push(recountStatement(db, newsletterId));
  return statements;
}

export async function readProgress(db: Db, newsletterId: number): Promise<NewsletterProgress | undefined> {
  const row = await db.query.sentNewsletters.findFirst({
    columns: { id: true, status: true, recipientCount: true, totalRecipients: true },
    where: eq(sentNewsletters.id, newsletterId),
  });
  return row && progressOf(row);
}

export function progressOf(row: Pick<NewsletterRow, 'id' | 'status' | 'recipientCount' | 'totalRecipients'>): NewsletterProgress {
  return { newsletterId: row.id, status: row.status, recipientCount: row.recipientCount, totalRecipients: row.totalRecipients };
}
