import type { Db } from '../../db/client';
import type { Bindings } from '../../env';
import { type DueDraftResult, startDueDraft } from './drafts';
import { sanitizeHtml } from './sanitize-html';
import { startPeriodNewsletter, type ScheduledSendResult } from './scheduler';
import { batchSize, type BatchStats, leaseMs, logNewsletterBatch, sendNewsletterBatch } from './sender';
import { getDb } from '../../db/client';
import { countingD1 } from '../platform/d1-call-count';
import { countActiveSubscribers, createNewsletter, findRecentNewsletter, type NewsletterProgress } from './store';
import { siteOrigin } from '../platform/site-origin';

/**
 * D1 calls and other subrequests an invocation makes besides the first batch of a newsletter it
 * creates (the session check, counts, the duplicate check and creating the newsletter; for the
 * generated issue the scheduler state and the AI call; in the cron, the housekeeping before). The
 * first batch shrinks by this much so the invocation stays under the plan's subrequest limit; the
 * cron sends the rest.
 */
const FIRST_BATCH_OVERHEAD = 10;

/** A second identical newsletter within this window is refused: a double click must not mail everyone twice. */
const DUPLICATE_WINDOW_MS = 10 * 60 * 1000;

export type NewsletterSource =
  /** The admin's own newsletter, from the send dialog (content is sanitised here). */
  | { kind: 'composed'; subject: string; content: string }
  /**
   * This period's generated issue. `force` (the admin's buttons) skips the scheduler's running and
   * due checks, never the once-per-period rule.
   */
  | { kind: 'period'; trigger: 'manual' | 'scheduled'; force: boolean; at?: Date }
  /** The earliest scheduled draft due at `at` (drafts.ts), claimed by this cron tick. */
  | { kind: 'scheduled-draft'; at: Date };

type Created = { outcome: 'created'; newsletterId: number };
type Refusal = 'empty-content' | 'duplicate' | Exclude<ScheduledSendResult['outcome'], 'created'> | Exclude<DueDraftResult['outcome'], 'created'>;

export type SendNowResult = { outcome: 'created'; newsletter: NewsletterProgress; stats: BatchStats } | { outcome: Refusal };

/**
 * Creates a newsletter with its recipient ledger and sends its first batch in this invocation,
 * within the subrequest budget; the cron's ticks send the rest. The one way a newsletter starts:
 * the admin's send routes and the cron's scheduler and scheduled drafts all come through here.
 */
export async function sendNewsletterNow(env: Bindings, db: Db, source: NewsletterSource, options: { origin?: string } = {}): Promise<SendNowResult> {
  const origin = options.origin ?? siteOrigin(env);
  const created =
    source.kind === 'composed'
      ? await createComposed(db, source)
      : source.kind === 'scheduled-draft'
        ? await startDueDraft(db, source.at, leaseMs(env))
        : await startPeriodNewsletter(env, db, { trigger: source.trigger, force: source.force, at: source.at, origin });
  if (created.outcome !== 'created') return { outcome: created.outcome };
  const limit = Math.max(1, batchSize(env) - FIRST_BATCH_OVERHEAD);
  const stats = await sendNewsletterBatch(env, db, { newsletterId: created.newsletterId, origin, limit });
  const newsletter: NewsletterProgress = {
    newsletterId: created.newsletterId,
    // The batch read the newsletter it was given, just created: its status is known.
    status: stats.status!,
    recipientCount: stats.recipientCount,
    totalRecipients: stats.totalRecipients,
  };
  return { outcome: 'created', newsletter, stats };
}

async function createComposed(db: Db, draft: { subject: string; content: string }): Promise<Created | { outcome: Refusal }> {
  const content = sanitizeHtml(draft.content);
  if (!content.replace(/<[^>]*>/g, '').trim()) return { outcome: 'empty-content' };
  if ((await countActiveSubscribers(db)) === 0) return { outcome: 'no-subscribers' };
  if (await findRecentNewsletter(db, { subject: draft.subject, content }, new Date(Date.now() - DUPLICATE_WINDOW_MS))) return { outcome: 'duplicate' };
  const created = await createNewsletter(db, { subject: draft.subject, content, trigger: 'manual' });
  return { outcome: 'created', newsletterId: created.id };
}

/**
 * The admin's send dialog: their own newsletter, started as sendNewsletterNow does, its first
 * batch logged with the D1 calls of the request (counted here, plus the session check that ran
 * before the handler).
 */
export async function sendComposedNewsletter(env: Bindings, draft: { subject: string; content: string }, origin: string): Promise<SendNowResult> {
  const d1 = countingD1(env.DB);
  const result = await sendNewsletterNow({ ...env, DB: d1.db }, getDb(d1.db), { kind: 'composed', ...draft }, { origin });
  // +1: the session check in requireAdmin ran before this handler.
  if (result.outcome === 'created') logNewsletterBatch({ source: 'send-newsletter' }, result.stats, d1.calls() + 1);
  return result;
}
