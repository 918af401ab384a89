import type { Job, Prune } from '../platform/jobs';
import { BUSY_CALENDAR_PASS_CALLS, refreshDueBusyCalendars, SUBREQUESTS_PER_BUSY_CALENDAR } from './busy-calendars';
import { sendDueReminders } from './reminders';

// The appointments' work in the Cron Trigger (worker/cron.ts), as rows of its table
// (worker/services/platform/jobs.ts): the reminders due within 24 hours, early in the tick, and the
// firm's busy calendars, last, since they read what third parties serve
// (docs/decisions/0019-recurrence-rules-that-cannot-stall.md).

/** The reminders due within 24 hours (./reminders.ts: exactly once each, at most REMINDERS_PER_TICK per tick). */
export const reminderJob: Job = {
  name: 'Appointment reminders',
  async run({ env, db, at }) {
    const stats = await sendDueReminders(env, db, at);
    return { ...stats, didWork: stats.due > 0 };
  },
};

/**
 * The busy calendars not fetched for 15 minutes (./busy-calendars.ts: at most
 * BUSY_CALENDAR_LIMITS.perTick per tick, within the room the tick has left). Its reserve is kept out
 * of the jobs before it (the newsletter batch), so it can always read at least one calendar.
 */
export const busyCalendarJob: Job = {
  name: 'Busy calendar refresh',
  reserve: BUSY_CALENDAR_PASS_CALLS + SUBREQUESTS_PER_BUSY_CALENDAR,
  async run({ env, db, at, room }) {
    const stats = await refreshDueBusyCalendars(env, db, at, room);
    return { ...stats, didWork: stats.due > 0 };
  },
};

/** Nothing of the appointments is pruned by the housekeeping batch (worker/services/platform/jobs.ts, housekeepingJob). */
export const prunes: Prune[] = [];
