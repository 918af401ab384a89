import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { getDb } from '../../worker/db/client';
import { importConfirmationsJob, newsletterJob, prunes } from '../../worker/services/newsletter';

const jobs = [importConfirmationsJob, newsletterJob];
import { createNewsletter } from '../../worker/services/newsletter/store';
import { countingD1 } from '../../worker/services/platform/d1-call-count';
import { fakeMailChannels, mailChannelsEnv } from '../harness/worker/mailchannels-fake';

// The newsletter's rows of the cron's table (worker/services/newsletter/jobs.ts, in the shapes of
// worker/services/platform/jobs.ts): the batch's budget arithmetic lives with the job.

async function addSubscribers(n: number) {
  const statements = Array.from({ length: n }, (_, i) =>
    env.DB.prepare("INSERT INTO newsletter_subscriptions (email, active, confirmed_at) VALUES (?, 'true', 1)").bind(`job${String(i).padStart(4, '0')}@example.com`),
  );
  for (let i = 0; i < statements.length; i += 100) await env.DB.batch(statements.slice(i, i + 100));
}

describe('the newsletter jobs and prunes', () => {
  it('come from the door in the order the cron runs them, the prunes with the figure the tick logs', () => {
    expect(jobs.map((job) => job.name)).toEqual(['Import confirmations', 'Newsletter']);
    expect(prunes.map((prune) => prune.counts)).toEqual(['staleSignUps', undefined, undefined]);
  });

  it('needs its batch plus the batch\'s D1 calls and the margin: 50 by default, more for a paid plan\'s batch', () => {
    expect(newsletterJob.needs!(mailChannelsEnv())).toBe(50);
    expect(newsletterJob.needs!(mailChannelsEnv({ NEWSLETTER_BATCH_SIZE: '200' }))).toBe(210);
  });

  it('sends a batch that fits the room it is given, and reports every subrequest it spent', async () => {
    await addSubscribers(60);
    const requests = fakeMailChannels();
    const testEnv = mailChannelsEnv(); // the default batch of 40
    const d1 = countingD1(testEnv.DB);
    const db = getDb(d1.db);
    // The scheduler stays stopped whatever the day: the job only continues this newsletter.
    await createNewsletter(getDb(testEnv.DB), { subject: 'Room', content: '<p>Hi</p>', trigger: 'manual' });
    const report = await newsletterJob.run({ env: { ...testEnv, DB: d1.db }, db, at: new Date(), room: 20, d1Calls: d1.calls });
    expect(requests.length).toBeGreaterThan(0);
    expect(requests.length).toBeLessThan(40);
    expect(report.subrequests).toBe(d1.calls() + requests.length);
    expect(report.subrequests).toBeLessThanOrEqual(20);
    expect(report).toMatchObject({ didWork: false, sent: requests.length });
  });
});
