import type { Bindings } from '../../env';
import { type Job, passJob, type Prune } from '../platform/jobs';
import { sendImportConfirmations } from './confirmations';
import { oldDeliveryEventsPurge, stalePendingPurge } from './list-hygiene';
import { sendNewsletterNow } from './send-now';
import { batchSize, logNewsletterBatch, sendNewsletterBatch } from './sender';
import { pruneSignupWindows } from './signup-throttle';

// The newsletter's share of the Cron Trigger (worker/cron.ts), in the shapes of
// worker/services/platform/jobs.ts: two jobs and three prunes.

/** A batch's D1 calls besides its N provider requests (sender.ts). */
export const BATCH_D1_CALLS = 5;
/** What a full default batch (40 + 5) leaves of the free plan's 50, for the tick's other work. */
export const BATCH_MARGIN = 5;

/**
 * The double opt-in e-mails of imported subscribers (confirmations.ts, at most
 * IMPORT_CONFIRMATIONS_PER_TICK under the daily confirmation cap).
 */
export const importConfirmationsJob = passJob('Import confirmations', ({ env, db, at }) => sendImportConfirmations(env, db, at), (result) => result.due > 0);

/**
 * The administrator's scheduled draft due this minute (drafts.ts: the earliest, claimed exactly
 * once) or else the scheduler's issue of the period (scheduler.ts: when running and due, at most
 * once per period), either sending its first batch; otherwise one batch of the oldest newsletter
 * still sending, so every send, interrupted or too large for one invocation, is finished by the
 * following ticks. A draft due in the same minute as the monthly issue goes first; the issue, which
 * catches up within a week, waits for the next tick: one start per tick (docs/product.md §5.9).
 *
 * The batch costs its N provider requests plus BATCH_D1_CALLS; N is the batch size, less what the
 * room (the invocation's budget less the jobs before and the reserve of those after) cannot hold
 * after the checks above. The job writes its own line (logNewsletterBatch, read by
 * `npm run bench:newsletter`), so its report stays quiet (didWork false).
 */
export const newsletterJob: Job = {
  name: 'Newsletter',
  needs: (env: Bindings) => batchSize(env) + BATCH_D1_CALLS + BATCH_MARGIN,
  async run(tick) {
    const { env, db, at } = tick;
    const callsBefore = tick.d1Calls();
    const draft = await sendNewsletterNow(env, db, { kind: 'scheduled-draft', at });
    const issue = draft.outcome === 'created' ? draft : await sendNewsletterNow(env, db, { kind: 'period', trigger: 'scheduled', force: false, at });
    const limit = Math.max(1, Math.min(batchSize(env), tick.room - BATCH_D1_CALLS - (tick.d1Calls() - callsBefore)));
    const stats = issue.outcome === 'created' ? issue.stats : await sendNewsletterBatch(env, db, { limit });
    logNewsletterBatch({ scheduler: draft.outcome === 'created' ? 'not-started' : issue.outcome, draft: draft.outcome }, stats, tick.d1Calls());
    // Its D1 calls (a first batch started by sendNewsletterNow included) and its provider requests.
    return { subrequests: tick.d1Calls() - callsBefore + stats.providerRequests, didWork: false, newsletterId: stats.newsletterId, sent: stats.sent };
  },
};

/**
 * The newsletter's cleanups in the tick's one housekeeping batch: sign-ups never confirmed within
 * PENDING_RETENTION_DAYS (counted: "staleSignUps"), delivery-event keys past their retention
 * (list-hygiene.ts), and sign-up windows whose hour has ended (signup-throttle.ts).
 */
export const stalePendingPrune: Prune = { counts: 'staleSignUps', statements: (db, at) => [stalePendingPurge(db, at)] };
export const deliveryEventsPrune: Prune = { statements: (db, at) => [oldDeliveryEventsPurge(db, at)] };
export const signupWindowsPrune: Prune = { statements: (db, at) => [pruneSignupWindows(db, at.getTime())] };

export const prunes: Prune[] = [stalePendingPrune, deliveryEventsPrune, signupWindowsPrune];
