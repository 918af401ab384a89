import { getDb } from './db/client';
import type { Bindings } from './env';
import { jwtSecretLogLine, jwtSecretProblem } from './middleware/require-jwt-secret';
import { housekeeping } from './services/platform/housekeeping';
import { safeErrorSummary } from './services/platform/log-safe';
import { countingD1 } from './services/platform/d1-call-count';
import { importConfirmationsJob, newsletterJob } from './services/newsletter';
import { busyCalendarJob, refreshDueBusyCalendars, sendDueReminders } from './services/appointments';
import { sweepOutbox } from './services/email/outbox-sweep';

/** The one D1 batch of housekeeping. */
const HOUSEKEEPING_CALLS = 1;
/** Workers' subrequests per invocation on the free plan. */
const FREE_PLAN_SUBREQUESTS = 50;
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
 * imported subscribers (worker/services/newsletter/confirmations.ts, at most IMPORT_CONFIRMATIONS_PER_TICK
 * under the daily confirmation cap), then the newsletter's job (worker/services/newsletter/jobs.ts):
 * the administrator's scheduled draft due, else the scheduler's issue of the period, else one batch
 * of the oldest newsletter still sending, in the room the tick leaves it. Last, the firm's busy calendars not
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
  // The invocation's budget: the free plan's 50, or more when NEWSLETTER_BATCH_SIZE is set for a
  // paid plan's limit (its batch plus the same margin, newsletterJob.needs).
  const budget = Math.max(FREE_PLAN_SUBREQUESTS, newsletterJob.needs!(env));
  const before = HOUSEKEEPING_CALLS + (reminders?.subrequests ?? 0) + (outbox?.subrequests ?? 0);
  const tick = (room: number) => ({ env: tickEnv, db, at, room, d1Calls: d1.calls });
  const imported = await independentPass(
    importConfirmationsJob.name,
    () => importConfirmationsJob.run(tick(budget - before)).then(({ didWork: _, ...figures }) => figures),
    (r) => r.due,
  );
  // What this tick spent before the newsletter (housekeeping, the reminders, outbox and imports
  // passes with their own requests) and the busy calendars' reserve come out of its room.
  const spent = before + (imported?.subrequests ?? 0);
  const newsletter = await newsletterJob.run(tick(budget - spent - CALENDAR_RESERVE));
  // What is left of the budget after the newsletter (its D1 calls and provider requests).
  const left = budget - spent - newsletter.subrequests;
  // Each calendar's own failure is recorded on its row; this catches the pass's.
  await independentPass('Busy calendar refresh', () => refreshDueBusyCalendars(tickEnv, db, at, left), (r) => r.due);
}
