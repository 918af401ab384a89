import { Hono } from 'hono';
import { getDb } from '../../db/client';
import type { AppEnv } from '../../env';
import { submissionDay, todaysSubmissionStats } from '../../services/submission-limits';

/** GET /api/admin/rate-limit-stats: today's (firm time) submissions and distinct submitting IPs. */
export const adminRateLimitStats = new Hono<AppEnv>().get('/', async (c) => {
  const stats = await todaysSubmissionStats(getDb(c.env.DB), submissionDay());
  return c.json(stats, 200);
});
