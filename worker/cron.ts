import { getDb } from './db/client';
import type { Bindings } from './env';
import { pruneLoginFailures } from './services/login-throttle';
import { countingD1 } from './services/newsletter/d1-counter';
import { startPeriodNewsletter } from './services/newsletter/scheduler';
import { batchSize, sendNewsletterBatch } from './services/newsletter/sending';
import { pruneSubmissionWindows } from './services/submission-limits';

/**
 * Subrequests the scheduler may spend before the send batch in the same invocation (scheduler
 * state, subscriber count, the AI call, creating the newsletter): the batch shrinks by this much
 * so the invocation stays under the plan's subrequest limit.
 */
const SCHEDULER_OVERHEAD = 10;

/**
 * The Cron Trigger (wrangler.toml [triggers]): housekeeping, then the newsletter scheduler (sends
 * this period's issue when running and due; at most once per period), then one batch of whatever
 * newsletter is still sending, so an interrupted send is finished by the following ticks.
 */
export async function scheduled(controller: ScheduledController, env: Bindings, _ctx: ExecutionContext): Promise<void> {
  const d1 = countingD1(env.DB);
  const tickEnv = { ...env, DB: d1.db };
  const db = getDb(d1.db);
  await pruneLoginFailures(db);
  await pruneSubmissionWindows(db);
  const at = new Date(controller.scheduledTime || Date.now());
  const result = await startPeriodNewsletter(tickEnv, db, { at, trigger: 'scheduled' });
  const limit = result.outcome === 'created' ? Math.max(1, batchSize(env) - SCHEDULER_OVERHEAD) : batchSize(env);
  const stats = await sendNewsletterBatch(tickEnv, db, { limit });
  if (stats.newsletterId !== null) {
    // One line per tick: what was sent and what it cost (read by `npm run bench:newsletter`).
    const d1Calls = d1.calls();
    console.log(`[newsletter-batch] ${JSON.stringify({ scheduler: result.outcome, ...stats, d1Calls, subrequests: d1Calls + stats.providerRequests })}`);
  }
}
