import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { getDb } from '../../worker/db/client';
import { busyCalendarJob, prunes, reminderJob } from '../../worker/services/appointments';

const jobs = [reminderJob, busyCalendarJob];
import { BUSY_CALENDAR_PASS_CALLS, SUBREQUESTS_PER_BUSY_CALENDAR } from '../../worker/services/appointments/busy-calendars';
import type { Tick } from '../../worker/services/platform/jobs';

// The appointments' rows of the cron's table (worker/services/platform/jobs.ts), from the domain's door.
const tick = (at: Date, room = 50): Tick => ({ env, db: getDb(env.DB), at, room, d1Calls: () => 0 });

describe("the appointments' jobs and prunes", () => {
  it('lists the reminders, then the busy calendars with their reserve; no prune', () => {
    expect(jobs.map((job) => job.name)).toEqual(['Appointment reminders', 'Busy calendar refresh']);
    expect(jobs[0].reserve).toBeUndefined();
    expect(jobs[1].reserve).toBe(BUSY_CALENDAR_PASS_CALLS + SUBREQUESTS_PER_BUSY_CALENDAR);
    expect(prunes).toEqual([]);
  });

  it('report their subrequests and stay quiet when nothing is due', async () => {
    const at = new Date();
    const [reminders, busy] = await Promise.all(jobs.map((job) => job.run(tick(at))));
    expect(reminders).toMatchObject({ due: 0, subrequests: 1, didWork: false });
    expect(busy).toMatchObject({ due: 0, refreshed: 0, subrequests: 1, didWork: false });
  });

  it('the busy calendars read none when the room is smaller than their reserve', async () => {
    await env.DB.prepare("INSERT INTO busy_calendars (label, url) VALUES ('Work', 'https://calendar.example.com/secret.ics')").run();
    const report = await jobs[1].run(tick(new Date(), BUSY_CALENDAR_PASS_CALLS + SUBREQUESTS_PER_BUSY_CALENDAR - 1));
    expect(report).toMatchObject({ due: 0, subrequests: 0, didWork: false });
  });
});
