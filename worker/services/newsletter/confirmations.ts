import { and, eq, isNotNull, isNull, lte, or } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { previousChanged } from '../../db/granted-batch';
import { rowsOf, runNamed } from '../../db/one-call-write';
import { newsletterSubscriptions } from '../../db/schema';
import type { Bindings } from '../../env';
import { queuedMailIfPreviousChanged } from '../../db/queued-mail';
import { emailTransport } from '../email/delivery';
import { enqueue } from '../email/enqueue';
import { dailyClaimStatement, firmDay, reportUnverifiedSkip, unverifiedMailBudget } from '../limits/daily-counters';
import { siteOrigin } from '../platform/site-origin';
import { aggregatedAuditStatement } from '../audit/audit-log';
import { type ConfirmationReason, confirmationEmail } from './emails';
import { type SubscriberStatus, type SubscriptionRow, subscriberStatus } from './subscriber-list';

// The double opt-in e-mail's sending: after a sign-up, to imported subscribers (the cron), and the
// admin's "Resend confirmation", all under one 10-minute rule per address.


/** A second confirmation e-mail to the same address waits this long (no mail-bombing through the form). */
export const CONFIRMATION_RESEND_MS = 10 * 60 * 1000;

/**
 * subscribe's work after the answer: the confirmation e-mail, when the row is due one, through the
 * outbox in ONE D1 call (worker/db/one-call-write.ts runNamed): the claim under today's cap on
 * confirmations to unverified addresses, made only while the row is still due (so of two sign-ups
 * of one address at the same time only the first claims), then the row's update and the e-mail
 * queued, each only when the statement before changed a row; then the e-mail is delivered and its
 * outcome written (what is left 'queued' the cron sends, worker/services/email/outbox-sweep.ts).
 */
export async function confirmIfDue(env: Bindings, db: Db, row: SubscriptionRow, name: string | null, origin: string, now: Date, reason: ConfirmationReason): Promise<boolean> {
  // A suppressed address (it bounced or complained, services/email/delivery-events.ts) gets no
  // confirmation e-mail again: the visitor sees the same answer and nothing is sent.
  if (row.active === 'true' || row.suppressedAt) return false;
  if (row.confirmationSentAt && now.getTime() - row.confirmationSentAt.getTime() < CONFIRMATION_RESEND_MS) return false;
  const budget = unverifiedMailBudget(env, 'newsletter-confirmation');
  if (budget.cap <= 0) return (reportUnverifiedSkip('newsletter-confirmation', budget), false);
  const updated = { ...row, name: name ?? row.name, confirmationSentAt: now };
  const transport = emailTransport(env);
  const message = await confirmationEmail(env, updated, origin, now, reason);
  const mail = queuedMailIfPreviousChanged(db, transport, message);
  const s = newsletterSubscriptions;
  const due = {
    sql: `EXISTS (SELECT 1 FROM newsletter_subscriptions WHERE id = ?4 AND active = 'false' AND suppressed_at IS NULL AND (confirmation_sent_at IS NULL OR confirmation_sent_at <= ?5))`,
    params: [row.id, now.getTime() - CONFIRMATION_RESEND_MS],
  };
  let results;
  try {
    results = await runNamed(env.DB, [
      { name: 'claim', statement: dailyClaimStatement(env.DB, budget.counter, budget.cap, firmDay(now), due) },
      { name: 'row', statement: db.update(s).set({ name: updated.name, confirmationSentAt: now }).where(and(eq(s.id, row.id), previousChanged)) },
      { name: 'mail', statement: mail.statement },
    ]);
  } catch (error) {
    // Fails closed, as the claim alone did: nothing counted, nothing sent.
    return (reportUnverifiedSkip('newsletter-confirmation', budget, { error }), false);
  }
  const [log] = rowsOf(results, 'mail');
  // Not queued: the cap is reached (or a sign-up of the same address just took the 10 minutes).
  if (!log) return (reportUnverifiedSkip('newsletter-confirmation', budget), false);
  await enqueue({ env }, { transport, logged: { messages: [message], logIds: [Number(log.id)], unsafe: [mail.unsafe] } });
  return true;
}

/** Imported subscribers whose double opt-in e-mail the cron sends per tick (3 subrequests each). */
export const IMPORT_CONFIRMATIONS_PER_TICK = 5;

/**
 * The double opt-in e-mails of subscribers imported without consent already given
 * (subscriber-import.ts): each as a sign-up's own, through confirmIfDue, under the same daily cap on
 * confirmations to unverified addresses; the tick stops at the first one the cap refuses. Returns
 * how many were sent and the subrequests spent (the cron takes them out of the newsletter batch).
 */
export async function sendImportConfirmations(env: Bindings, db: Db, now = new Date(), limit = IMPORT_CONFIRMATIONS_PER_TICK) {
  const origin = siteOrigin(env);
  const s = newsletterSubscriptions;
  const due = await db
    .select()
    .from(s)
    .where(and(isNotNull(s.importId), eq(s.active, 'false'), isNull(s.confirmationSentAt), isNull(s.unsubscribedAt), isNull(s.suppressedAt)))
    .orderBy(s.id)
    .limit(limit);
  let sent = 0;
  let subrequests = 1;
  const sentPerImport = new Map<number, number>();
  for (const row of due) {
    subrequests += 3;
    if (!(await confirmIfDue(env, db, row, null, origin, now, 'import'))) break;
    sent++;
    sentPerImport.set(row.importId!, (sentPerImport.get(row.importId!) ?? 0) + 1);
  }
  // Sent by the system on behalf of whoever ran the import: one entry per import and day, counting them.
  const day = now.toISOString().slice(0, 10);
  for (const [importId, times] of sentPerImport) {
    subrequests += 1;
    await aggregatedAuditStatement(db, { actor: 'system', action: 'subscriber.import-confirmations-sent', record: `subscriber-import:${importId}` }, `subscriber.import-confirmations-sent:${importId}:${day}`, {
      at: now,
      times,
    });
  }
  return { due: due.length, sent, subrequests };
}

export type ResendOutcome =
  | { outcome: 'sent'; email: string }
  | { outcome: 'failed' }
  | { outcome: 'not-found' }
  | { outcome: 'not-pending'; status: SubscriberStatus }
  | { outcome: 'too-soon'; retryAfterSeconds: number };

/**
 * The admin's "Resend confirmation" for a pending subscriber: the sign-up's own e-mail under the
 * sign-up's 10-minute rule. The rule is claimed in the same UPDATE that checks the row is still
 * pending, so two simultaneous clicks cannot send two e-mails.
 */
export async function resendConfirmation(env: Bindings, db: Db, id: number, origin: string, now = new Date()): Promise<ResendOutcome> {
  const s = newsletterSubscriptions;
  const [claimed] = await db
    .update(s)
    .set({ confirmationSentAt: now })
    .where(
      and(
        eq(s.id, id),
        eq(s.active, 'false'),
        isNull(s.unsubscribedAt),
        isNull(s.suppressedAt),
        or(isNull(s.confirmationSentAt), lte(s.confirmationSentAt, new Date(now.getTime() - CONFIRMATION_RESEND_MS))),
      ),
    )
    .returning();
  if (!claimed) {
    const row = await db.query.newsletterSubscriptions.findFirst({ where: eq(s.id, id) });
    if (!row) return { outcome: 'not-found' };
    const status = subscriberStatus(row);
    if (status !== 'pending' || row.suppressedAt) return { outcome: 'not-pending', status };
    const waitMs = (row.confirmationSentAt?.getTime() ?? 0) + CONFIRMATION_RESEND_MS - now.getTime();
    return { outcome: 'too-soon', retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
  }
  const [sent] = await enqueue({ env }, [await confirmationEmail(env, claimed, origin, now, claimed.importId === null ? 'sign-up' : 'import')]);
  if (sent?.ok) return { outcome: 'sent', email: claimed.email };
  // Nothing went out: give the 10 minutes back (the previous e-mail, if any, was older than that),
  // unless a sign-up has claimed them since.
  await db.update(s).set({ confirmationSentAt: null }).where(and(eq(s.id, id), eq(s.confirmationSentAt, now)));
  return { outcome: 'failed' };
}
