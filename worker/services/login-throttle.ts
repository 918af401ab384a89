import { and, lt, lte } from 'drizzle-orm';
import type { Db } from '../db/client';
import { loginAttempts } from '../db/schema';

// The sign-in limits of docs/product.md §6.1 and §8, in D1 so they hold exactly under concurrency
// (docs/decisions/0006-where-each-limit-lives.md). Every attempt is claimed by ONE atomic UPSERT
// before the password is verified, so a parallel burst cannot slip guesses past the count:
// - per (username, network): MAX_ATTEMPTS_PER_NETWORK attempts within LOGIN_WINDOW_MS, then 429
//   until the window passes. Per pair, so a stranger's failures from one network never lock the
//   admin out of another; a successful sign-in clears its pair;
// - per username, across networks: after USERNAME_FREE_ATTEMPTS failures in the window, each
//   further attempt waits a growing delay (1, 2, 4 ... MAX_USERNAME_DELAY_SECONDS s) after the one
//   before: a distributed guess is slowed, the admin is never locked out for longer than that.
export const MAX_ATTEMPTS_PER_NETWORK = 5;
export const LOGIN_WINDOW_MS = 15 * 60 * 1000;
export const USERNAME_FREE_ATTEMPTS = 10;
export const MAX_USERNAME_DELAY_SECONDS = 30;

const normalized = (username: string) => username.trim().toLowerCase();
export const pairKey = (username: string, networkHash: string) => `pair:${normalized(username)}:${networkHash}`;
export const usernameKey = (username: string) => `user:${normalized(username)}`;

export type LoginClaim = { ok: true } | { ok: false; limit: 'network' | 'username'; retryAfterSeconds: number };

const secondsUntil = (at: number, now: number) => Math.max(1, Math.ceil((at - now) / 1000));

/**
 * Claims one attempt for the (username, network) pair: an UPSERT that only increments while under
 * the limit (a window older than LOGIN_WINDOW_MS starts again at 1), like takeIpAllowance in
 * worker/services/submission-limits.ts. 50 simultaneous attempts get exactly 5 claims.
 */
async function claimPairAttempt(d1: D1Database, key: string, now: number): Promise<boolean> {
  const row = await d1
    .prepare(
      `INSERT INTO login_attempts (key, window_start, count) VALUES (?1, ?2, 1)
       ON CONFLICT(key) DO UPDATE SET
         window_start = CASE WHEN login_attempts.window_start <= ?2 - ?3 THEN ?2 ELSE login_attempts.window_start END,
         count = CASE WHEN login_attempts.window_start <= ?2 - ?3 THEN 1 ELSE login_attempts.count + 1 END
       WHERE login_attempts.count < ?4 OR login_attempts.window_start <= ?2 - ?3
       RETURNING count`,
    )
    .bind(key, now, LOGIN_WINDOW_MS, MAX_ATTEMPTS_PER_NETWORK)
    .first<{ count: number }>();
  return row !== null;
}

/**
 * Claims one attempt for the username across networks: refused while an earlier attempt's delay
 * runs; past USERNAME_FREE_ATTEMPTS in the window, each admitted attempt sets the next delay,
 * doubling up to MAX_USERNAME_DELAY_SECONDS. One statement, so parallel attempts cannot share a slot.
 */
async function claimUsernameAttempt(d1: D1Database, key: string, now: number): Promise<boolean> {
  const row = await d1
    .prepare(
      `INSERT INTO login_attempts (key, window_start, count, blocked_until) VALUES (?1, ?2, 1, 0)
       ON CONFLICT(key) DO UPDATE SET
         window_start = CASE WHEN login_attempts.window_start <= ?2 - ?3 THEN ?2 ELSE login_attempts.window_start END,
         count = CASE WHEN login_attempts.window_start <= ?2 - ?3 THEN 1 ELSE login_attempts.count + 1 END,
         blocked_until = CASE
           WHEN login_attempts.window_start <= ?2 - ?3 OR login_attempts.count + 1 <= ?4 THEN 0
           ELSE ?2 + 1000 * min(?5, 1 << min(login_attempts.count - ?4, 8))
         END
       WHERE login_attempts.blocked_until <= ?2
       RETURNING count`,
    )
    .bind(key, now, LOGIN_WINDOW_MS, USERNAME_FREE_ATTEMPTS, MAX_USERNAME_DELAY_SECONDS)
    .first<{ count: number }>();
  return row !== null;
}

async function readAttempts(d1: D1Database, key: string) {
  return d1
    .prepare('SELECT window_start AS windowStart, blocked_until AS blockedUntil FROM login_attempts WHERE key = ?1')
    .bind(key)
    .first<{ windowStart: number; blockedUntil: number }>();
}

/**
 * Counts a sign-in attempt BEFORE its password is verified; refused attempts must not be verified.
 * The pair is claimed first, so a network that used up its own attempts cannot keep pushing the
 * username-wide delay; an attempt the username-wide delay refuses gives its pair slot back, so an
 * admin told to wait a few seconds does not also use up their own network's attempts.
 */
export async function claimLoginAttempt(d1: D1Database, username: string, networkHash: string, now = Date.now()): Promise<LoginClaim> {
  const pair = pairKey(username, networkHash);
  if (!(await claimPairAttempt(d1, pair, now))) {
    const row = await readAttempts(d1, pair);
    return { ok: false, limit: 'network', retryAfterSeconds: secondsUntil((row?.windowStart ?? now) + LOGIN_WINDOW_MS, now) };
  }
  const user = usernameKey(username);
  if (!(await claimUsernameAttempt(d1, user, now))) {
    await d1.prepare('UPDATE login_attempts SET count = count - 1 WHERE key = ?1 AND count > 0').bind(pair).run();
    const row = await readAttempts(d1, user);
    return { ok: false, limit: 'username', retryAfterSeconds: secondsUntil(row?.blockedUntil ?? now, now) };
  }
  return { ok: true };
}

/**
 * After a successful sign-in: the pair's attempts are forgiven, and the username-wide count gives
 * back this attempt, so it counts failures only (a running delay is kept: it ends on its own).
 */
export async function forgiveLoginAttempt(d1: D1Database, username: string, networkHash: string): Promise<void> {
  await d1.batch([
    d1.prepare('DELETE FROM login_attempts WHERE key = ?1').bind(pairKey(username, networkHash)),
    d1.prepare('UPDATE login_attempts SET count = count - 1 WHERE key = ?1 AND count > 0').bind(usernameKey(username)),
  ]);
}

/**
 * Housekeeping for the cron (worker/services/housekeeping.ts): rows whose window has passed and
 * whose delay has ended no longer limit anyone.
 */
export function pruneLoginAttempts(db: Db, now = Date.now()) {
  return db
    .delete(loginAttempts)
    .where(and(lte(loginAttempts.windowStart, new Date(now - LOGIN_WINDOW_MS)), lt(loginAttempts.blockedUntil, new Date(now))));
}
