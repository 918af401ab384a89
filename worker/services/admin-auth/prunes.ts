import type { Prune } from '../platform/jobs';
import { pruneLoginAttempts } from './login-throttle';
import { pruneExpiredSessions } from './session';

/**
 * Admin sign-in's cleanup in the cron's housekeeping batch (worker/services/platform/jobs.ts):
 * sign-in attempt windows that have passed, and revoked or expired sessions' rows.
 */
export const prunes: Prune[] = [
  { statements: (db, at) => [pruneLoginAttempts(db, at.getTime())] },
  // A session's expiry is a wall-clock fact: a tick stamped ahead of now (a replayed or test
  // tick) must not end sessions that are still valid.
  { statements: (db, at) => [pruneExpiredSessions(db, Math.min(at.getTime(), Date.now()))] },
];
