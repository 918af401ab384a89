import { getDb } from './db/client';
import type { Bindings } from './env';
import { jwtSecretLogLine, jwtSecretProblem } from './middleware/require-jwt-secret';
import { housekeeping } from './services/platform/housekeeping';
import { safeErrorSummary } from './services/platform/log-safe';
import { countingD1 } from './services/newsletter/d1-counter';
import { sendNewsletterNow } from './services/newsletter/send-now';
import { batchSize, logNewsletterBatch, sendNewsletterBatch } from './services/newsletter/sender';
import { sendDueReminders } from './services/appointments/reminders';
import { refreshDueBusyCalendars } from './services/appointments/busy-calendars';
import { sweepOutbox } from './services/email/outbox-sweep';
import { sendImportConfirmations } from './services/newsletter/subscriptions';

/**
 * The Cron Trigger (wrangler.toml [triggers]): housekeeping in one D1 batch
 * (worker/services/platform/housekeeping.ts), then the appointment reminders due
 * within 24 hours (worker/services/appointments/reminders.ts: exactly once each, at most REMINDERS_PER_TICK per
 * tick), then the firm's busy calendars not fetched for 15 minutes
 * (worker/services/appointments/busy-calendars.ts: at most BUSY_CALENDAR_LIMITS.perTick per tick), then the
 * outbox's sweep (the visitors' e-mails still queued after their request,
 * worker/services/email/outbox-sweep.ts, at most OUTBOX_SWEEP_PER_TICK), then the double opt-in e-mails of
 * imported subscribers (worker/services/newsletter/subscriptions.ts, at most IMPORT_CONFIRMATIONS_PER_TICK
 * under the daily confirmation cap), then the newsletter scheduler (starts
 * this period's issue when running and due, at most once per period, and sends its first batch);
 * otherwise one batch of the oldest newsletter still sending, so every send, interrupted or too
 * large for one invocation, is finished by the following ticks.
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
  // A failing reminder pass must not stop the newsletter: logged, retried by the next tick.
  const reminders = await sendDueReminders(tickEnv, db, at).catch((error: unknown) => {
    console.error('Appointment reminders failed', safeErrorSummary(error));
    return null;
  });
  if (reminders?.due) console.log('Appointment reminders', JSON.stringify(reminders));
  // Likewise a failing calendar pass (each calendar's own failure is recorded on its row).
  const calendars = await refreshDueBusyCalendars(tickEnv, db, at).catch((error: unknown) => {
    console.error('Busy calendar refresh failed', safeErrorSummary(error));
    return null;
  });
  if (calendars?.due) console.log('Busy calendars', JSON.stringify(calendars));
  const outbox = await sweepOutbox(tickEnv, at).catch((error: unknown) => {
    console.error('Outbox sweep failed', safeErrorSummary(error));
    return null;
  });
  if (outbox?.swept) console.log('Outbox sweep', JSON.stringify(outbox));
  const imported = await sendImportConfirmations(tickEnv, db, at).catch((error: unknown) => {
    console.error('Import confirmations failed', safeErrorSummary(error));
    return null;
  });
  if (imported?.due) console.log('Import confirmations', JSON.stringify(imported));
  const issue = await sendNewsletterNow(tickEnv, db, { kind: 'period', trigger: 'scheduled', force: false, at });
  // A tick that sent reminders, fetched calendars or swept the outbox takes their subrequests out of
  // the newsletter batch, so it stays within the plan's limit (a quiet tick's few reads fit the batch's margin).
  const spent =
    (reminders?.claimed ? reminders.subrequests : 0) +
    (calendars?.due ? calendars.subrequests : 0) +
    (outbox?.swept ? outbox.subrequests : 0) +
    // (Its read of who is due runs every tick: a quiet tick spends it too.)
    (imported ? imported.subrequests : 0);
  const limit = Math.max(1, batchSize(env) - spent);
  const stats = issue.outcome === 'created' ? issue.stats : await sendNewsletterBatch(tickEnv, db, { limit });
  logNewsletterBatch({ scheduler: issue.outcome }, stats, d1.calls());
}
