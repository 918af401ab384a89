import { passJob, type Prune } from '../platform/jobs';
import { BUSY_CALENDAR_PASS_CALLS, refreshDueBusyCalendars, SUBREQUESTS_PER_BUSY_CALENDAR } from './busy-calendars';
import { sendDueReminders } from './reminders';

// The appointments' work in the Cron Trigger (worker/cron.ts), as rows of its table
// (worker/services/platform/jobs.ts): the reminders due within 24 hours, early in the tick, and the
// firm's busy calendars, last, since they read what third parties serve
// (docs/decisions/0019-recurrence-rules-that-cannot-stall.md).

/** The reminders due within 24 hours (./reminders.ts: exactly once each, at most REMINDERS_PER_TICK per tick). */
export const reminderJob = passJob('Appointment reminders', ({ env, db, at }) => sendDueReminders(env, db, at), (stats) => stats.due > 0);

/**
 * The busy calendars not fetched for 15 minutes (./busy-calendars.ts: at most
 * BUSY_CALENDAR_LIMITS.perTick per tick, within the room the tick has left). Its reserve is kept out
 * of the jobs before it (the newsletter batch), so it can always read at least one calendar.
 */
export const busyCalendarJob = passJob(
  'Busy calendar refresh',
  ({ env, db, at, room }) => refreshDueBusyCalendars(env, db, at, room),
  (stats) => stats.due > 0,
  { reserve: BUSY_CALENDAR_PASS_CALLS + SUBREQUESTS_PER_BUSY_CALENDAR },
);

/** Nothing of the appointments is pruned by the housekeeping batch (worker/services/platform/jobs.ts, housekeepingJob). */
export const prunes: Prune[] = [];
