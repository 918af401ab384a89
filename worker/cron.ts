import type { Bindings } from './env';
import { jwtSecretLogLine, jwtSecretProblem } from './middleware/require-jwt-secret';
import { prunes as adminAuthPrunes } from './services/admin-auth';
import { busyCalendarJob, prunes as appointmentPrunes, reminderJob } from './services/appointments';
import { auditPrunes } from './services/audit/audit-log';
import { prunes as chatPrunes } from './services/chat';
import { emailPrunes } from './services/email/log-retention';
import { outboxSweepJob } from './services/email/outbox-sweep';
import { limitsPrunes } from './services/limits/submission-limits';
import { importConfirmationsJob, newsletterJob, prunes as newsletterPrunes } from './services/newsletter';
import { housekeepingJob, type Job, runJobs } from './services/platform/jobs';

/**
 * The Cron Trigger's table (wrangler.jsonc "triggers", every minute), run in this order by runJobs
 * (worker/services/platform/jobs.ts), each in the room the invocation's subrequest budget leaves it:
 * every domain's prunes in one D1 batch; the appointment reminders due within 24 hours; the outbox's
 * sweep of visitors' e-mails still queued; the double opt-in e-mails of imported subscribers; the
 * scheduled draft, else the period's issue, else one batch of the oldest newsletter still sending;
 * last the firm's busy calendars, whose reserve the jobs before keep for them, since they read what
 * third parties serve (docs/decisions/0019-recurrence-rules-that-cannot-stall.md). A new job is one row.
 */
export const cronTable: Job[] = [
  housekeepingJob([...limitsPrunes, ...chatPrunes, ...newsletterPrunes, ...appointmentPrunes, ...emailPrunes, ...adminAuthPrunes, ...auditPrunes]),
  reminderJob,
  outboxSweepJob,
  importConfirmationsJob,
  newsletterJob,
  busyCalendarJob,
];

export async function scheduled(controller: ScheduledController, env: Bindings, _ctx: ExecutionContext): Promise<void> {
  // Reminders and newsletters carry signed links: without the secret no tick can do its work.
  const secretProblem = jwtSecretProblem(env.JWT_SECRET);
  if (secretProblem) {
    console.error(`Scheduled tick skipped: ${jwtSecretLogLine(secretProblem)}`);
    return;
  }
  await runJobs(cronTable, env, env.DB, new Date(controller.scheduledTime || Date.now()));
}
