import { lt } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { signupWindows } from '../../db/schema';
import type { Bindings } from '../../env';
import { intSetting } from '../limits/daily-counters';
import { claimWindowSlotOrAdmit, windowStartOf } from '../limits/window-counters';

// Newsletter sign-ups per network (worker/services/limits/client-ip.ts: an IPv4 address or an IPv6 /64)
// per hour: generous for people, a wall for scripts mailing strangers. Counted in D1
// (signup_windows) by one atomic UPSERT, like the forms' and the chat's windows, so 220
// simultaneous sign-ups from one network with a limit of 10 get exactly 10 (the former
// KV read-then-write let 61 through, docs/decisions/0006).
//
// When the statement fails the sign-up goes through and the failure is logged: the exact
// protection of strangers' inboxes is elsewhere and fails closed (one confirmation e-mail per
// address per 10 minutes, the day's cap on newsletter confirmations).

/** Sign-ups per network per hour, unless SUBSCRIBES_PER_IP_PER_HOUR says otherwise. */
export const DEFAULT_SUBSCRIBES_PER_IP_PER_HOUR = 10;
export const SIGNUP_WINDOW_MS = 60 * 60 * 1000;

export const subscribesPerIpPerHour = (env: Pick<Bindings, 'SUBSCRIBES_PER_IP_PER_HOUR'>) =>
  intSetting(env.SUBSCRIBES_PER_IP_PER_HOUR, DEFAULT_SUBSCRIBES_PER_IP_PER_HOUR);

/**
 * Counts one sign-up for this (hashed) network in its current hour; false once the hour's
 * allowance is used up (the refused sign-up is not counted). True, and logged, when the count
 * cannot be taken.
 */
export function takeSignupAllowance(env: Pick<Bindings, 'DB' | 'SUBSCRIBES_PER_IP_PER_HOUR'>, ipHash: string, nowMs = Date.now()): Promise<boolean> {
  const limit = subscribesPerIpPerHour(env);
  return claimWindowSlotOrAdmit(env.DB, 'signup_windows', ipHash, { windowMs: SIGNUP_WINDOW_MS, limit, nowMs }, { allowance: 'newsletter sign-up', use: 'sign-up' });
}

/** Housekeeping for the cron (worker/services/platform/jobs.ts, housekeepingJob): hours that have ended no longer limit anyone. */
export function pruneSignupWindows(db: Db, nowMs: number = Date.now()) {
  return db.delete(signupWindows).where(lt(signupWindows.windowStart, new Date(windowStartOf(nowMs, SIGNUP_WINDOW_MS))));
}
