import type { Db } from '../../db/client';
import type { Bindings } from '../../env';
import { emailTransport } from '../email/delivery';
import { type BatchSendOutcome, enqueue } from '../email/enqueue';
import type { EmailTransport, OutgoingEmail } from '../../mail-types';
import {
  type ClaimedDelivery,
  claimDeliveries,
  type DeliveryOutcome,
  type NewsletterRow,
  newsletterToSendQuery,
  outcomeStatements,
  progressOf,
  readProgress,
  recountStatement,
} from './store';
import { oneClickUnsubscribeUrl, unsubscribePageUrl } from './emails';
import { renderNewsletterEmail } from './template';
import { siteOrigin } from '../platform/site-origin';
import { publishedContent } from '../content';
import type { FirmFacts } from '#core/content/firm-facts';
import { clickToken, clickTrackingQuery, clickUrl, issueLinks, rewriteLinks } from './click-tracking';
import { signLinkToken } from './tokens';

/**
 * Sends one batch of a newsletter (docs/decisions/0004-newsletter-sending.md). Each invocation (the
 * admin's request, then every cron tick) settles at most NEWSLETTER_BATCH_SIZE deliveries with a
 * fixed number of D1 calls, so it stays under Workers' subrequest limit (50 per invocation on the
 * free plan, 1000 paid):
 *   1. read the newsletter and whether click tracking is on (one batch);
 *   2. one batch: expire interrupted claims, drop unsubscribed recipients, claim up to N pending rows;
 *   3. one batch: log the N messages as 'queued' in email_log;
 *   4. N provider calls, in parallel;
 *   5. one batch: record every outcome in email_log and in the ledger, and recount the newsletter;
 *   6. read where the newsletter stands.
 * N + 5 subrequests in all (45 with the default batch of 40), under the free plan's 50. The frame's
 * firm facts (worker/services/content/published.ts) add a KV read, and one D1 read only on the
 * first batch an isolate sends after a publish.
 *
 * Nobody gets a newsletter twice: a row is only sent after it was claimed, and a claim whose
 * outcome never got recorded (the invocation died between steps 4 and 5) is not retried but marked
 * failed as "outcome unknown" once its lease expires; the provider may well have delivered it.
 * Only failures where the provider certainly refused the message (429, 5xx, connection refused) go
 * back to pending, at most MAX_ATTEMPTS times.
 */

export const DEFAULT_BATCH_SIZE = 40;
export const DEFAULT_CLAIM_LEASE_SECONDS = 120;
export const MAX_ATTEMPTS = 3;

export interface BatchStats {
  newsletterId: number | null;
  claimed: number;
  sent: number;
  failed: number;
  retryLater: number;
  providerRequests: number;
  d1Calls: number;
  /** The newsletter's status and counts after this batch (null and 0 when there was none to send). */
  status: 'sending' | 'sent' | null;
  recipientCount: number;
  totalRecipients: number;
}

export function batchSize(env: Bindings): number {
  const n = Number(env.NEWSLETTER_BATCH_SIZE);
  return Number.isInteger(n) && n > 0 ? Math.min(n, 990) : DEFAULT_BATCH_SIZE;
}

export function leaseMs(env: Bindings): number {
  const n = Number(env.NEWSLETTER_CLAIM_LEASE_SECONDS);
  return (Number.isFinite(n) && n >= 0 ? n : DEFAULT_CLAIM_LEASE_SECONDS) * 1000;
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
  const stats: BatchStats = { newsletterId: null, claimed: 0, sent: 0, failed: 0, retryLater: 0, providerRequests: 0, d1Calls: 0, status: null, recipientCount: 0, totalRecipients: 0 };
  const now = options.now ?? new Date();
  stats.d1Calls++;
  const [[newsletter], settings] = await db.batch([newsletterToSendQuery(db, options.newsletterId), clickTrackingQuery(db)]);
  const tracking = settings[0]?.clickTracking ?? true;
  if (newsletter) Object.assign(stats, progressOf(newsletter));
  if (newsletter?.status !== 'sending') return stats; // none, or already sent

  stats.d1Calls++;
  const claimed = await claimDeliveries(db, newsletter.id, { limit: options.limit ?? batchSize(env), now, staleBefore: new Date(now.getTime() - leaseMs(env)) });
  stats.claimed = claimed.length;
  if (claimed.length) {
    const origin = options.origin ?? siteOrigin(env);
    // The frame states the firm as published: one KV read, and one D1 read when this isolate has not read that version yet.
    const { firm } = await publishedContent(env);
    const messages = await Promise.all(claimed.map((delivery) => newsletterEmail(env, firm, newsletter, delivery, origin, now, tracking)));
    const transport = options.transport ?? emailTransport(env);
    if (transport.name === 'mailchannels') stats.providerRequests += messages.length;
    stats.d1Calls += 2;
    const settledAt = new Date();
    let outcomes: DeliveryOutcome[] = [];
    const settle = (results: BatchSendOutcome[], logIds: number[]) => {
      outcomes = results.map((result, i) => ({ ...deliveryOutcome(result, claimed[i]), emailLogId: logIds[i] }));
      return outcomeStatements(db, newsletter.id, outcomes, settledAt);
    };
    await enqueue({ env, transport, settle }, messages);
    for (const outcome of outcomes) {
      if (outcome.status === 'sent') stats.sent++;
      else if (outcome.status === 'pending') stats.retryLater++;
      else stats.failed++;
    }
  } else {
    stats.d1Calls++;
    await recountStatement(db, newsletter.id);
  }
  stats.d1Calls++;
  Object.assign(stats, (await readProgress(db, newsletter.id)) ?? { status: null });
  return stats;
}

/** Sent; or back to pending when the provider certainly refused it and attempts remain; else failed. */
function deliveryOutcome(result: BatchSendOutcome, delivery: ClaimedDelivery): DeliveryOutcome {
  if (result.ok) return { id: delivery.id, status: 'sent' };
  const retry = result.retryable && delivery.attempts < MAX_ATTEMPTS;
  return { id: delivery.id, status: retry ? 'pending' : 'failed', error: result.error ?? 'Failed' };
}

/**
 * The newsletter as one recipient gets it, with their own unsubscribe links (RFC 8058 one-click
 * too; the token names the issue, for its report's "unsubscribed through it") and, unless the
 * owner turned tracking off, the body's links as their own signed /r/ links (click-tracking.ts).
 */
async function newsletterEmail(
  env: Bindings,
  firm: FirmFacts,
  newsletter: NewsletterRow,
  delivery: ClaimedDelivery,
  origin: string,
  now: Date,
  tracking: boolean,
): Promise<OutgoingEmail> {
  const token = await signLinkToken(env.JWT_SECRET, 'newsletter-unsubscribe', { id: delivery.subscriberId }, now, { newsletterId: newsletter.id });
  let bodyHtml = newsletter.content;
  if (tracking) {
    const hrefs = await Promise.all(
      issueLinks(bodyHtml).map(async (url, linkIndex) =>
        url === null ? null : clickUrl(origin, await clickToken(env.JWT_SECRET, { newsletterId: newsletter.id, deliveryId: delivery.id, linkIndex })),
      ),
    );
    bodyHtml = rewriteLinks(bodyHtml, (index) => hrefs[index]!);
  }
  const { html, text } = renderNewsletterEmail({
    subject: newsletter.subject,
    bodyHtml,
    unsubscribeUrl: unsubscribePageUrl(origin, token),
    origin,
    firm,
  });
  return {
    to: delivery.email,
    subject: newsletter.subject,
    text,
    html,
    kind: 'newsletter',
    headers: {
      'List-Unsubscribe': `<${oneClickUnsubscribeUrl(origin, token)}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  };
}

/**
 * One line per invocation that worked on a newsletter: what it sent and what the whole invocation
 * cost (`d1Calls` counted by the caller; read by `npm run bench:newsletter`).
 */
export function logNewsletterBatch(context: Record<string, string>, stats: BatchStats, d1Calls: number): void {
  if (stats.newsletterId === null) return;
  console.log(`[newsletter-batch] ${JSON.stringify({ ...context, ...stats, d1Calls, subrequests: d1Calls + stats.providerRequests })}`);
}
