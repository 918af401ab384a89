import { getDb } from './db/client';
import type { Bindings } from './env';
import { pruneLoginFailures } from './services/login-throttle';
import { countingD1 } from './services/newsletter/d1-counter';
import { sendNewsletterNow } from './services/newsletter/send-now';
import { logNewsletterBatch, sendNewsletterBatch } from './services/newsletter/sender';
import { pruneSubmissionWindows } from './services/submission-limits';

/**
 * The Cron Trigger (wrangler.toml [triggers]): housekeeping, then the newsletter scheduler (starts
 * this period's issue when running and due, at most once per period, and sends its first batch);
 * otherwise one batch of the oldest newsletter still sending, so every send, interrupted or too
 * large for one invocation, is finished by the following ticks.
 */
export async function scheduled(controller: ScheduledController, env: Bindings, _ctx: ExecutionContext): Promise<void> {
  const d1 = countingD1(env.DB);
  const tickEnv = { ...env, DB: d1.db };
  const db = getDb(d1.db);
  await pruneLoginFailures(db);
  await pruneSubmissionWindows(db);
  const at = new Date(controller.scheduledTime || Date.now());
  const issue = await sendNewsletterNow(tickEnv, db, { kind: 'period', trigger: 'scheduled', force: false, at });
  const stats = issue.outcome === 'created' ? issue.stats : await sendNewsletterBatch(tickEnv, db);
  logNewsletterBatch({ scheduler: issue.outcome }, stats, d1.calls());
}
