import { and, lt, lte } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { loginAttempts } from '../../db/schema';

// The sign-in limits of docs/product.md §6.1 and §8, in D1 so they hold exactly under concurrency
// (docs/decisions/0006-where-each-limit-lives.md). Every attempt is claimed by ONE atomic UPSERT
// before the password is verified, so a parallel burst cannot slip guesses past the count:
// - per (username, network): MAX_ATTEMPTS_PER_NETWORK attempts within LOGIN_WINDOW_MS, then 429
//   until the window passes. Per pair, so a stranger's failures from one network never lock the
//   admin out of another; a successful sign-in clears its pair;
// - per username, across networks: after USERNAME_FREE_ATTEMPTS failures in the window, each
//   further attempt waits a growing delay (1, 2, 4 ... MAX_USERNAME_DELAY_SECONDS s) after the one
//   before: a distributed guess is slowed, the admin is never locked out for longer than that;
// - a known device (a browser that signed in as this admin before, worker/services/admin-auth/known-device.ts)
//   is counted by itself, MAX_ATTEMPTS_PER_NETWORK per window, instead of both: no other network's
//   failures delay or lock it (docs/decisions/0011-known-devices-and-the-sign-in-delay.md).
export const MAX_ATTEMPTS_PER_NETWORK = 5;
export const LOGIN_WINDOW_MS = 15 * 60 * 1000;
export const USERNAME_FREE_ATTEMPTS = 10;
export const MAX_USERNAME_DELAY_SECONDS = 30;

const normalized = (username: string) => username.trim().toLowerCase();
export const pairKey = (username: string, networkHash: string) => `pair:${normalized(username)}:${networkHash}`;
export const usernameKey = (username: string) => `user:${normalized(username)}`;
export const deviceKey = (username: string, deviceId: string) => `device:${normalized(username)}:${deviceId}`;

/** What an attempt is counted against: a known device of the user, or the network it came from (hashed). */
export type LoginSubject = { device: string } | { network: string };

export type LoginClaim = { ok: true } | LoginRefusal;
export type LoginRefusal = { ok: false; limit: 'network' | 'username'; retryAfterSeconds: number };

/** The 429 message of a refused attempt (docs/product.md §8). */
export function throttledMessage(refusal: LoginRefusal): string {
  if (refusal.limit === 'network') {
    const minutes = Math.ceil(refusal.retryAfterSeconds / 60);
    return `Too many failed sign-in attempts. Please wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again.`;
  }
  const seconds = refusal.retryAfterSeconds;
  return `Too many failed sign-in attempts for this account. Please wait ${seconds} second${seconds === 1 ? '' : 's'} and try again.`;
}

const secondsUntil = (at: number, now: number) => Math.max(1, Math.ceil((at - now) / 1000));

/**
 * Claims one attempt for the (username, network) pair: an UPSERT that only increments while under
 * the limit (a window older than LOGIN_WINDOW_MS starts again at 1), like takeIpAllowance in
 * worker/services/limits/submission-limits.ts. 50 simultaneous attempts get exactly 5 claims.
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
 * Counts a sign-in attempt (or any other check of an admin's password) BEFORE its password is
 * verified; refused attempts must not be verified.
 *
 * A known device claims its own count only. From a network, the pair is claimed first, so a network
 * that used up its own attempts cannot keep pushing the username-wide delay. An attempt the
 * username-wide delay refuses is told when to come back (Retry-After, kept on the pair row): it
 * gives its pair slot back when it came no earlier than it was told, so an admin who waits as told
 * keeps their network's attempts; one that comes back early (a poller) spends a slot each time,
 * uses up its network's attempts within seconds and no longer takes the slot each delay frees.
 */
export async function claimLoginAttempt(d1: D1Database, username: string, subject: LoginSubject, now = Date.now()): Promise<LoginClaim> {
  const own = 'device' in subject ? deviceKey(username, subject.device) : pairKey(username, subject.network);
  if (!(await claimPairAttempt(d1, own, now))) {
    const row = await readAttempts(d1, own);
    return { ok: false, limit: 'network', retryAfterSeconds: secondsUntil((row?.windowStart ?? now) + LOGIN_WINDOW_MS, now) };
  }
  if ('device' in subject) return { ok: true };
  const user = usernameKey(username);
  if (!(await claimUsernameAttempt(d1, user, now))) {
    const row = await readAttempts(d1, user);
    const retryAt = Math.max(row?.blockedUntil ?? now, now);
    await d1
      .prepare(
        `UPDATE login_attempts SET count = max(0, count - CASE WHEN blocked_until <= ?2 THEN 1 ELSE 0 END), blocked_until = ?3
         WHERE key = ?1`,
      )
      .bind(own, now, retryAt)
      .run();
    return { ok: false, limit: 'username', retryAfterSeconds: secondsUntil(retryAt, now) };
  }
  return { ok: true };
}

/**
 * After a successful sign-in (or password check): the device's or pair's attempts are forgiven,
 * and for a network the username-wide count gives back this attempt, so it counts failures only (a
 * running delay is kept: it ends on its own).
 */
export async function forgiveLoginAttempt(d1: D1Database, username: string, subject: LoginSubject): Promise<void> {
  if ('device' in subject) {
    await d1.prepare('DELETE FROM login_attempts WHERE key = ?1').bind(deviceKey(username, subject.device)).run();
    return;
  }
  await d1.batch([
    d1.prepare('DELETE FROM login_attempts WHERE key = ?1').bind(pairKey(username, subject.network)),
    d1.prepare('UPDATE login_attempts SET count = count - 1 WHERE key = ?1 AND count > 0').bind(usernameKey(username)),
  ]);
}

/**
 * Housekeeping for the cron (worker/services/platform/jobs.ts, housekeepingJob): rows whose window has passed and
 * whose delay has ended no longer limit anyone.
 */
export function pruneLoginAttempts(db: Db, now = Date.now()) {
  return db
    .delete(loginAttempts)
    .where(and(lte(loginAttempts.windowStart, new Date(now - LOGIN_WINDOW_MS)), lt(loginAttempts.blockedUntil, new Date(now))));
}
