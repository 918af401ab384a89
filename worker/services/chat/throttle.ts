import { lt } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { chatWindows } from '../../db/schema';
import { intSetting } from '../limits/daily-counters';
import { claimWindowSlot, windowStartOf } from '../limits/window-counters';

// Per-network chat throttle (worker/services/limits/client-ip.ts: an IPv4 address or an IPv6 /64). A
// visitor types a few messages a minute; 20 in ten minutes leaves room for a real conversation
// while capping what one network can cost us in Workers AI calls (the day's total is bounded by
// CHAT_AI_DAILY_BUDGET, worker/services/limits/daily-counters.ts).
//
// Counted in D1 (chat_windows) by one atomic UPSERT, like the forms' submission_windows: exact under
// a parallel burst. It used to be a KV counter that failed open, so a burst whose KV writes were
// refused (one write per key per second, the daily write quota) was let through uncounted
// (docs/decisions/0006). A failing D1 is not let through either: the statement's error
// answers 500, as every other chat step that needs the same database would.
export const CHAT_MESSAGES_PER_WINDOW = 20;
/** The configured allowance (env CHAT_MESSAGES_PER_WINDOW), else the default above. */
export const chatMessagesPerWindow = (configured: string | undefined) => intSetting(configured, CHAT_MESSAGES_PER_WINDOW);
export const CHAT_WINDOW_SECONDS = 10 * 60;
const CHAT_WINDOW_MS = CHAT_WINDOW_SECONDS * 1000;

/**
 * Counts one message for this (hashed) network in its current window; false when the window's
 * allowance is used up (the refused message is not counted): 25 simultaneous messages with a
 * limit of 20 get exactly 20 allowances.
 */
export function takeChatAllowance(d1: D1Database, ipHash: string, now = Date.now(), limit = CHAT_MESSAGES_PER_WINDOW): Promise<boolean> {
  return claimWindowSlot(d1, 'chat_windows', ipHash, { windowMs: CHAT_WINDOW_MS, limit, nowMs: now });
}

/** Housekeeping for the cron (worker/services/platform/jobs.ts, housekeepingJob): windows that have ended no longer limit anyone. */
export function pruneChatWindows(db: Db, nowMs: number = Date.now()) {
  return db.delete(chatWindows).where(lt(chatWindows.windowStart, new Date(windowStartOf(nowMs, CHAT_WINDOW_MS))));
}
