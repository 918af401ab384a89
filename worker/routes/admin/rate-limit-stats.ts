import { Hono } from 'hono';
import type { AppEnv } from '../../env';
import { submissionDay, todaysSubmissionStats } from '../../services/limits/submission-limits';

/**
 * GET /api/admin/rate-limit-stats: today's (firm time) submissions, both forms together
 * (globalCount of globalCap) and per form with its own cap, and distinct submitting networks (ipCount).
 */
export const adminRateLimitStats = new Hono<AppEnv>().get('/', async (c) => {
  const stats = await todaysSubmissionStats(c.env, submissionDay());
  return c.json(stats, 200);
});
