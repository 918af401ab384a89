import { getDb } from './db/client';
import type { Bindings } from './env';
import { jwtSecretLogLine, jwtSecretProblem } from './middleware/require-jwt-secret';
import { housekeeping } from './services/platform/housekeeping';
import { safeErrorSummary } from './services/platform/log-safe';
import { countingD1 } from './services/newsletter/d1-counter';
import { sendNewsletterNow } from './services/newsletter/send-now';
import { batchSize, logNewsletterBatch, sendNewsletterBatch } from './services/newsletter/sender';
import { busyCalendarJob, refreshDueBusyCalendars, sendDueReminders } from './services/appointments';
import { sweepOutbox } from './services/email/outbox-sweep';
import { sendImportConfirmations } from './services/newsletter/subscriptions';

/** The one D1 batch of housekeeping. */
const HOUSEKEEPING_CALLS = 1;
/** Workers' subrequests per invocation on the free plan. */
const FREE_PLAN_SUBREQUESTS = 50;
/** A batch's D1 calls besides its N provider requests (worker/services/newsletter/sender.ts). */
const BATCH_D1_CALLS = 5;
/** What a full default batch (40 + 5) leaves of the free plan's 50, for the tick's other work. */
const BATCH_MARGIN = 5;
/** Kept out of the newsletter batch so the busy calendars, which run after it, can read at least one calendar. */
const CALENDAR_RESERVE = busyCalendarJob.reserve ?? 0;

/**
 * A pass of the tick whose failure must not stop the passes after it (and the newsletter): the
 * failure is logged as `<name> failed` and retried by the next tick; a pass that did something is
 * logged with its figures.
 */
async function independentPass<T>(name: string, run: () => Promise<T>, didWork: (result: T) => unknown): Promise<T | null> {
  const result = await run().catch((error: unknown) => {
    console.error(`${name} failed`, safeErrorSummary(error));
    return null;
  });
  if (result !== null && didWork(result)) console.log(name, JSON.stringify(result));
  return result;
}

/**
 * The Cron Trigger (wrangler.jsonc "triggers"): housekeeping in one D1 batch
 * (worker/services/platform/housekeeping.ts), then the appointment reminders due
 * within 24 hours (worker/services/appointments/reminders.ts: exactly once each, at most REMINDERS_PER_TICK per
 * tick), then the outbox's sweep (the visitors' e-mails still queued after their request,
 * worker/services/email/outbox-sweep.ts, at most OUTBOX_SWEEP_PER_TICK), then the double opt-in e-mails of
 * imported subscribers (worker/services/newsletter/subscriptions.ts, at most IMPORT_CONFIRMATIONS_PER_TICK
 * under the daily confirmation cap), then the administrator's scheduled drafts
 * (worker/services/newsletter/drafts.ts: the earliest one due, claimed exactly once) or else the
 * newsletter scheduler (starts this period's issue when running and due, at most once per period),
 * either sending its first batch;
 * otherwise one batch of the oldest newsletter still sending, so every send, interrupted or too
 * large for one invocation, is finished by the following ticks. Last, the firm's busy calendars not
 * fetched for 15 minutes (worker/services/appointments/busy-calendars.ts: at most
 * BUSY_CALENDAR_LIMITS.perTick per tick, within what the tick has left): they read what third
 * parties serve, so whatever one does cannot hold up the firm's own work before it
 * (docs/decisions/0019-recurrence-rules-that-cannot-stall.md).
 */
export async function scheduled(controller: ScheduledController, env: Bindings, _ctx: ExecutionContext): Promise<void> {
  // Reminders and newsletters carry signed links: without the secret no tick can do its work.
  const secretProblem = jwtSecretProblem(env.JWT_SECRET);
  if (secretProblem) {
    console.error(`Scheduled tick skipped: ${jwtSecretLogLine(secretProblem)}`);
    return;
  }
  const d1 = countingD1(env.DB);
  const tickEnv = { ...env, DB: d1.db };
  const db = getDb(d1.db);
  const at = new Date(controller.scheduledTime || Date.now());
  const cleaned = await housekeeping(db, at);
  if (cleaned?.chatConversations || cleaned?.staleSignUps) console.log('Housekeeping', JSON.stringify(cleaned));
  const reminders = await independentPass('Appointment reminders', () => sendDueReminders(tickEnv, db, at), (r) => r.due);
  const outbox = await independentPass('Outbox sweep', () => sweepOutbox(tickEnv, at), (r) => r.swept);
  const imported = await independentPass('Import confirmations', () => sendImportConfirmations(tickEnv, db, at), (r) => r.due);
  // A draft scheduled for this minute first (docs/product.md §5.9); the monthly issue, which catches
  // up within a week, waits for the next tick when both fall on the same minute: one start per tick.
  const callsBeforeNewsletters = d1.calls();
  const draft = await sendNewsletterNow(tickEnv, db, { kind: 'scheduled-draft', at });
  const issue = draft.outcome === 'created' ? draft : await sendNewsletterNow(tickEnv, db, { kind: 'period', trigger: 'scheduled', force: false, at });
  // The batch costs its N provider requests plus BATCH_D1_CALLS. What this tick spent before it
  // (housekeeping, the reminders, outbox and imports passes with their own requests, the
  // newsletter checks) and the busy calendars' reserve come out of the invocation's budget: the
  // free plan's 50, or more when NEWSLETTER_BATCH_SIZE is set for a paid plan's limit (its batch
  // plus the same margin).
  const spent =
    HOUSEKEEPING_CALLS + (reminders?.subrequests ?? 0) + (outbox?.subrequests ?? 0) + (imported?.subrequests ?? 0) + (d1.calls() - callsBeforeNewsletters);
  const budget = Math.max(FREE_PLAN_SUBREQUESTS, batchSize(env) + BATCH_D1_CALLS + BATCH_MARGIN);
  const limit = Math.max(1, Math.min(batchSize(env), budget - BATCH_D1_CALLS - CALENDAR_RESERVE - spent));
  const stats = issue.outcome === 'created' ? issue.stats : await sendNewsletterBatch(tickEnv, db, { limit });
  logNewsletterBatch({ scheduler: draft.outcome === 'created' ? 'not-started' : issue.outcome, draft: draft.outcome }, stats, d1.calls());
  // What is left of the budget after the newsletter (its D1 calls are in d1.calls(), its provider
  // requests in the stats; a first batch started by sendNewsletterNow is counted the same way).
  const left = budget - HOUSEKEEPING_CALLS - (reminders?.subrequests ?? 0) - (outbox?.subrequests ?? 0) - (imported?.subrequests ?? 0) - (d1.calls() - callsBeforeNewsletters) - stats.providerRequests;
  // Each calendar's own failure is recorded on its row; this catches the pass's.
  await independentPass('Busy calendar refresh', () => refreshDueBusyCalendars(tickEnv, db, at, left), (r) => r.due);
}
