import { and, eq, inArray, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { deliveryEvents, emailLog, newsletterDeliveries, newsletterSubscriptions, subscriberImportRows } from '../../db/schema';

/**
 * What an erased address becomes wherever a record of the firm's mail must stay (delivery rows,
 * the e-mail log): the counts and dates survive, the person does not.
 */
export const ERASED_ADDRESS = '(erased)';

/** The e-mails the subscription itself caused; other mail to the same person (appointments) is another record. */
const SUBSCRIPTION_MAIL_KINDS = ['newsletter', 'newsletter-confirmation'];

/** A sign-up never confirmed within this many days is purged by the cron (docs/product.md §5). */
export const PENDING_RETENTION_DAYS = 30;
/** Rows deleted per cron tick: a bounded statement, and the cron runs every minute. */
export const PENDING_PURGE_BATCH = 500;

/**
 * Erasure on request: deletes the subscriber and, in the same D1 batch, takes their address out of
 * every record that outlives them. Their delivery rows keep their status (so the newsletters'
 * counts stay true) but name nobody; the log keeps that a newsletter or confirmation was sent and
 * when, with the address replaced and the bodies and headers (personal links whose tokens carry
 * the address) blanked; the delivery events forget the recipient. A delivery still pending is
 * failed by the next claim, since its subscriber is no longer active (store.ts claimDeliveries).
 */
export async function eraseSubscriber(db: Db, id: number): Promise<{ email: string } | null> {
  const row = await db.query.newsletterSubscriptions.findFirst({ columns: { email: true }, where: eq(newsletterSubscriptions.id, id) });
  if (!row) return null;
  const { email } = row;
  const scrub = (column: typeof emailLog.error | typeof emailLog.deliveryDetail) => sql`replace(${column}, ${email}, ${ERASED_ADDRESS})`;
  const [, , , , deleted] = await db.batch([
    db.update(newsletterDeliveries).set({ email: ERASED_ADDRESS }).where(eq(newsletterDeliveries.subscriberId, id)),
    db
      .update(emailLog)
      .set({
        to: ERASED_ADDRESS,
        textBody: '',
        htmlBody: null,
        headers: null,
        attachments: null,
        // A message still waiting is not sent to an erased address (the sweep fails it).
        outboxMessage: null,
        error: scrub(emailLog.error),
        deliveryDetail: scrub(emailLog.deliveryDetail),
      })
      .where(and(eq(emailLog.to, email), inArray(emailLog.kind, SUBSCRIPTION_MAIL_KINDS))),
    db.update(deliveryEvents).set({ recipient: null }).where(eq(deliveryEvents.recipient, email)),
    // The rows of the CSV imports that named them (kept as the record of each import).
    db.update(subscriberImportRows).set({ email: ERASED_ADDRESS, name: null, source: null }).where(eq(subscriberImportRows.email, email)),
    db.delete(newsletterSubscriptions).where(eq(newsletterSubscriptions.id, id)).returning({ id: newsletterSubscriptions.id }),
  ]);
  return deleted.length ? { email } : null;
}

/**
 * List hygiene: the statement that deletes up to PENDING_PURGE_BATCH sign-ups that were never
 * confirmed, neither unsubscribed nor suppressed (those rows are the record that stops mail to the
 * address), and whose sign-up and latest confirmation e-mail are both older than
 * PENDING_RETENTION_DAYS (an import's row counts from its confirmation e-mail) (a repeated sign-up keeps its fresh link working). Returns the deleted
 * ids; run by the cron's housekeeping batch (worker/services/platform/jobs.ts, housekeepingJob).
 */
export function stalePendingPurge(db: Db, now = new Date()) {
  const cutoff = new Date(now.getTime() - PENDING_RETENTION_DAYS * 24 * 60 * 60 * 1000);
  const s = newsletterSubscriptions;
  const stale = db
    .select({ id: s.id })
    .from(s)
    .where(
      and(
        eq(s.active, 'false'),
        isNull(s.confirmedAt),
        isNull(s.unsubscribedAt),
        isNull(s.suppressedAt),
        lt(s.subscriptionDate, cutoff),
        or(isNull(s.confirmationSentAt), lt(s.confirmationSentAt, cutoff)),
        // An imported address still waiting for its confirmation e-mail (sent by the cron under the
        // daily cap, confirmations.ts sendImportConfirmations) has had no chance to confirm yet.
        or(isNull(s.importId), isNotNull(s.confirmationSentAt)),
      ),
    )
    .orderBy(s.subscriptionDate)
    .limit(PENDING_PURGE_BATCH);
  return db.delete(s).where(inArray(s.id, stale)).returning({ id: s.id });
}

/** Days a delivery event's key is kept: MailChannels retries a webhook for hours, not weeks. */
export const DELIVERY_EVENT_RETENTION_DAYS = 30;

/** The statement that forgets delivery-event keys older than DELIVERY_EVENT_RETENTION_DAYS. */
export function oldDeliveryEventsPurge(db: Db, now = new Date()) {
  return db.delete(deliveryEvents).where(lt(deliveryEvents.receivedAt, new Date(now.getTime() - DELIVERY_EVENT_RETENTION_DAYS * 24 * 60 * 60 * 1000)));
}
