import { and, desc, eq, isNotNull, isNull, lte, or } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { previousChanged } from '../../db/granted-batch';
import { rowsOf, runNamed } from '../../db/one-call-write';
import { newsletterDeliveries, newsletterSubscriptions } from '../../db/schema';
import type { Bindings } from '../../env';
import { queuedMailIfPreviousChanged } from '../../db/queued-mail';
import { type AfterAnswer, deliverQueued, emailTransport, sendEmail } from '../email/send-email';
import { safeErrorSummary } from '../platform/log-safe';
import type { OutgoingEmail } from '../../mail-types';
import { dailyClaimStatement, firmDay, reportUnverifiedSkip, unverifiedMailBudget } from '../limits/daily-counters';
import { escapeHtml } from '../platform/html';
import { siteOrigin } from './template';
import { claimsMatch, signLinkToken, verifyLinkToken } from './tokens';
import { firmAddressLine } from '#core/content/firm-facts';
import { publishedContent } from '../content';
import { aggregatedAuditStatement } from '../audit/audit-log';

type SubscriptionRow = typeof newsletterSubscriptions.$inferSelect;

/** A second confirmation e-mail to the same address waits this long (no mail-bombing through the form). */
export const CONFIRMATION_RESEND_MS = 10 * 60 * 1000;

export type SubscriberStatus = 'active' | 'pending' | 'unsubscribed' | 'bounced' | 'complained';

export function subscriberStatus(row: Pick<SubscriptionRow, 'active' | 'unsubscribedAt' | 'suppressionReason'>): SubscriberStatus {
  if (row.active === 'true') return 'active';
  if (row.suppressionReason) return row.suppressionReason;
  return row.unsubscribedAt ? 'unsubscribed' : 'pending';
}

/** The admin's view of a subscriber (docs/product.md §11). */
export function toSubscriber(row: SubscriptionRow) {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    subscriptionDate: row.subscriptionDate.toISOString(),
    active: row.active,
    status: subscriberStatus(row),
    suppressionReason: row.suppressionReason,
    suppressionDetail: row.suppressionDetail,
    suppressedAt: row.suppressedAt ? row.suppressedAt.toISOString() : null,
  };
}

export async function listSubscribers(db: Db) {
  const rows = await db.select().from(newsletterSubscriptions).orderBy(desc(newsletterSubscriptions.subscriptionDate), desc(newsletterSubscriptions.id));
  return rows.map(toSubscriber);
}

/**
 * The page (GET shows a Confirm button, changes nothing: link scanners open links) a person lands
 * on from the confirmation e-mail; the button POSTs /api/newsletter/confirm.
 */
export function confirmUrl(origin: string, token: string): string {
  return `${origin}/newsletter/confirm?token=${encodeURIComponent(token)}`;
}

/** The page (GET shows a button, changes nothing) a person lands on from the link in a newsletter. */
export function unsubscribePageUrl(origin: string, token: string): string {
  return `${origin}/newsletter/unsubscribe?token=${encodeURIComponent(token)}`;
}

/** RFC 8058 one-click target: mail clients POST "List-Unsubscribe=One-Click" here. */
export function oneClickUnsubscribeUrl(origin: string, token: string): string {
  return `${origin}/api/newsletter/unsubscribe?token=${encodeURIComponent(token)}`;
}

/**
 * Who asked for the confirmation e-mail: the person, on the sign-up form ('sign-up'), or the firm,
 * which added the address from a CSV import (subscriber-import.ts): that person signed up nowhere,
 * so "If you did not sign up" would read as a mistake; their e-mail says the firm added them and
 * carries an unsubscribe link, so a later import does not add them again (docs/product.md §5.10).
 */
export type ConfirmationReason = 'sign-up' | 'import';

/**
 * The confirmation e-mail goes to an address nobody has verified yet, so it carries nothing the
 * visitor typed except that address: no name in the greeting, the To header or anywhere else
 * (otherwise the form would mail anyone a spammer's text in the firm's name).
 */
async function confirmationEmail(env: Bindings, row: SubscriptionRow, origin: string, now: Date, reason: ConfirmationReason = 'sign-up'): Promise<OutgoingEmail> {
  const token = await signLinkToken(env.JWT_SECRET, 'newsletter-confirm', row, now);
  const link = confirmUrl(origin, token);
  const { firm } = await publishedContent(env);
  const footer = ['', firm.legalName, firmAddressLine(firm)];
  const footerHtml = `<p style="color: #475569; font-size: 12px;">${escapeHtml(firm.legalName)}<br>${escapeHtml(firmAddressLine(firm))}</p>`;
  const button = `<p><a href="${escapeHtml(link)}" style="background-color: #1e3a8a; color: #ffffff; padding: 10px 20px; border-radius: 6px; text-decoration: none; display: inline-block;">Confirm my subscription</a></p>`;
  if (reason === 'import') {
    const leave = unsubscribePageUrl(origin, await signLinkToken(env.JWT_SECRET, 'newsletter-unsubscribe', row, now));
    const added = `${firm.name} added you to its newsletter list.`;
    const text = [
      'Hello,',
      '',
      `${added} Before we send you anything, please confirm that you want to receive the ${firm.name} newsletter by opening this link:`,
      link,
      '',
      'The link is valid for 7 days. Without your confirmation you will not receive the newsletter.',
      '',
      'If you do not want these e-mails, unsubscribe here and we will not add you again:',
      leave,
      ...footer,
    ].join('\n');
    const html = `<p>Hello,</p>
<p>${escapeHtml(added)} Before we send you anything, please confirm that you want to receive the ${escapeHtml(firm.name)} newsletter.</p>
${button}
<p>The link is valid for 7 days. Without your confirmation you will not receive the newsletter.</p>
<p>If you do not want these e-mails, <a href="${escapeHtml(leave)}">unsubscribe here</a> and we will not add you again.</p>
${footerHtml}`;
    return { to: row.email, subject: `${firm.name} added you to its newsletter list: please confirm`, text, html, kind: 'newsletter-confirmation' };
  }
  const text = [
    'Hello,',
    '',
    `Please confirm that you want to receive the ${firm.name} newsletter by opening this link:`,
    link,
    '',
    'The link is valid for 7 days. If you did not sign up, ignore this e-mail and you will not hear from us again.',
    ...footer,
  ].join('\n');
  const html = `<p>Hello,</p>
<p>Please confirm that you want to receive the ${escapeHtml(firm.name)} newsletter.</p>
${button}
<p>The link is valid for 7 days. If you did not sign up, ignore this e-mail and you will not hear from us again.</p>
${footerHtml}`;
  return {
    to: row.email,
    subject: `Please confirm your subscription to the ${firm.name} newsletter`,
    text,
    html,
    kind: 'newsletter-confirmation',
  };
}

/**
 * Double opt-in sign-up. Whatever the state of the address (new, pending, active, unsubscribed,
 * suppressed) the caller gives the visitor the same answer; there is only ever one row per address.
 * New, pending and unsubscribed addresses get a confirmation e-mail (at most one per 10 minutes);
 * an active or suppressed one gets nothing.
 *
 * Before the answer every address gets the same D1 work (the insert-or-nothing and the read of the
 * row); everything that depends on what the row says (the daily cap's claim, the row's update, the
 * e-mail and its log) runs after the answer (`ctx.waitUntil`), so the time to answer does not tell
 * a subscriber's address from a new one (17 vs 23 ms median, when the row was read first). The cost: when the platform ends
 * the invocation right after the answer, a confirmation may be neither sent nor logged; the visitor
 * can sign up again.
 */
export async function subscribe(
  env: Bindings,
  db: Db,
  input: { email: string; name?: string },
  origin: string,
  ctx: AfterAnswer,
  now = new Date(),
): Promise<void> {
  const email = input.email.trim().toLowerCase();
  const name = input.name?.trim() || null;
  // Insert-or-nothing in one statement, so two simultaneous sign-ups cannot both create a row.
  await db
    .insert(newsletterSubscriptions)
    .values({ email, name, active: 'false', subscriptionDate: now })
    .onConflictDoNothing({ target: newsletterSubscriptions.email });
  const row = await db.query.newsletterSubscriptions.findFirst({ where: eq(newsletterSubscriptions.email, email) });
  if (!row) return;
  ctx.waitUntil(
    confirmIfDue(env, db, row, name, origin, now, 'sign-up').catch((error) => console.error('[newsletter] confirmation e-mail not sent:', safeErrorSummary(error))),
  );
}

/**
 * subscribe's work after the answer: the confirmation e-mail, when the row is due one, through the
 * outbox in ONE D1 call (worker/db/one-call-write.ts runNamed): the claim under today's cap on
 * confirmations to unverified addresses, made only while the row is still due (so of two sign-ups
 * of one address at the same time only the first claims), then the row's update and the e-mail
 * queued, each only when the statement before changed a row; then the e-mail is delivered and its
 * outcome written (what is left 'queued' the cron sends, worker/services/email/outbox-sweep.ts).
 */
async function confirmIfDue(env: Bindings, db: Db, row: SubscriptionRow, name: string | null, origin: string, now: Date, reason: ConfirmationReason): Promise<boolean> {
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
  if (!transport.storesWhenQueued) await deliverQueued(env.DB, transport, { messages: [message], logIds: [Number(log.id)], unsafe: [mail.unsafe] });
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
  const sent = await sendEmail(env, await confirmationEmail(env, claimed, origin, now, claimed.importId === null ? 'sign-up' : 'import'));
  if (sent.ok) return { outcome: 'sent', email: claimed.email };
  // Nothing went out: give the 10 minutes back (the previous e-mail, if any, was older than that),
  // unless a sign-up has claimed them since.
  await db.update(s).set({ confirmationSentAt: null }).where(and(eq(s.id, id), eq(s.confirmationSentAt, now)));
  return { outcome: 'failed' };
}

export type LinkOutcome = 'confirmed' | 'unsubscribed' | 'invalid';

/** Activates the subscription a valid confirmation token names. */
export async function confirmSubscription(env: Bindings, db: Db, token: string, now = new Date()): Promise<LinkOutcome> {
  const claims = await verifyLinkToken(env.JWT_SECRET, 'newsletter-confirm', token, now);
  if (!claims) return 'invalid';
  const row = await db.query.newsletterSubscriptions.findFirst({ where: eq(newsletterSubscriptions.id, claims.subscriberId) });
  if (!row || !claimsMatch(claims, row)) return 'invalid';
  if (row.active === 'true') return 'confirmed';
  // A suppressed address stays suppressed, whatever link was mailed to it before.
  if (row.suppressedAt) return 'invalid';
  // A confirmation link mailed before the person unsubscribed must not sign them up again.
  if (row.unsubscribedAt && claims.issuedAtMs < row.unsubscribedAt.getTime()) return 'invalid';
  await db
    .update(newsletterSubscriptions)
    .set({ active: 'true', confirmedAt: now, subscriptionDate: now, unsubscribedAt: null })
    .where(eq(newsletterSubscriptions.id, row.id));
  return 'confirmed';
}

/** Ends the subscription a valid unsubscribe token names. Idempotent. */
export async function unsubscribe(env: Bindings, db: Db, token: string, now = new Date()): Promise<LinkOutcome> {
  const claims = await verifyLinkToken(env.JWT_SECRET, 'newsletter-unsubscribe', token, now);
  if (!claims) return 'invalid';
  const row = await db.query.newsletterSubscriptions.findFirst({ where: eq(newsletterSubscriptions.id, claims.subscriberId) });
  if (!row || !claimsMatch(claims, row)) return 'invalid';
  if (row.active === 'true' || !row.unsubscribedAt) {
    const unsubscribe = db.update(newsletterSubscriptions).set({ active: 'false', unsubscribedAt: now }).where(eq(newsletterSubscriptions.id, row.id));
    if (claims.newsletterId === undefined) await unsubscribe;
    else {
      // The issue whose link it was counts it in its report ("unsubscribed through it").
      const d = newsletterDeliveries;
      await db.batch([
        unsubscribe,
        db
          .update(d)
          .set({ unsubscribedAt: now })
          .where(and(eq(d.newsletterId, claims.newsletterId), eq(d.subscriberId, row.id), isNull(d.unsubscribedAt))),
      ]);
    }
  }
  return 'unsubscribed';
}

/** Whether an unsubscribe token is valid (the GET page shows the button only for a valid link). */
export async function checkUnsubscribeToken(env: Bindings, db: Db, token: string): Promise<{ valid: boolean; email?: string }> {
  const claims = await verifyLinkToken(env.JWT_SECRET, 'newsletter-unsubscribe', token);
  if (!claims) return { valid: false };
  const row = await db.query.newsletterSubscriptions.findFirst({ where: eq(newsletterSubscriptions.id, claims.subscriberId) });
  if (!row || !claimsMatch(claims, row)) return { valid: false };
  return { valid: true, email: maskEmail(row.email) };
}

/** j***@example.com: enough for the person to recognise their address, not enough to harvest it. */
export function maskEmail(email: string): string {
  const [local, domain] = email.split('@');
  return `${local.slice(0, 1)}***@${domain}`;
}
