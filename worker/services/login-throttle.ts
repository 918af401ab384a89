import { and, count, eq, gt, inArray, lt } from 'drizzle-orm';
import type { Db } from '../db/client';
import { loginFailures } from '../db/schema';

// The sign-in limit of docs/product.md §6.1 and §8: 5 failures within 15 minutes, per username and
// per IP, lock further attempts for that key until the window passes.
export const MAX_LOGIN_FAILURES = 5;
export const LOGIN_WINDOW_MS = 15 * 60 * 1000;

export const loginKeys = (username: string, ipHash: string) => [
  `user:${username.toLowerCase()}`,
  `ip:${ipHash}`,
];

/** True when any of the keys has used up its failures in the current window. */
export async function isLoginLocked(db: Db, keys: string[], now = Date.now()): Promise<boolean> {
  const since = new Date(now - LOGIN_WINDOW_MS);
  const rows = await db
    .select({ key: loginFailures.key, failures: count() })
    .from(loginFailures)
    .where(and(inArray(loginFailures.key, keys), gt(loginFailures.createdAt, since)))
    .groupBy(loginFailures.key);
  return rows.some((row) => row.failures >= MAX_LOGIN_FAILURES);
}

export async function recordLoginFailure(db: Db, keys: string[]): Promise<void> {
  await db.insert(loginFailures).values(keys.map((key) => ({ key })));
}

/** A successful sign-in forgives the username's failures (the IP's stay counted). */
export async function clearUserFailures(db: Db, username: string): Promise<void> {
  await db.delete(loginFailures).where(eq(loginFailures.key, `user:${username.toLowerCase()}`));
}

/** Housekeeping for the cron (worker/services/housekeeping.ts): failures older than the window no longer matter. */
export function pruneLoginFailures(db: Db, now = Date.now()) {
  return db.delete(loginFailures).where(lt(loginFailures.createdAt, new Date(now - LOGIN_WINDOW_MS)));
}
