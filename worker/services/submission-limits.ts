import { lt, sql } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import { getDb, type Db } from '../db/client';
import { dailySubmissions, dailySubmitters, submissionWindows } from '../db/schema';
import type { Bindings } from '../env';
import { firm } from '../../web/content/firm';
import { firmToday } from './firm-time';

// The abuse limits for the two public forms, contact + booking (docs/product.md §8), both claimed
// in D1 by ONE atomic statement each, so they hold exactly under concurrency (docs/decisions/0006):
// - per IP: SUBMISSIONS_PER_IP_PER_WINDOW submissions per 10-minute window. Not in KV: KV refuses
//   a second write to a key within a second and has a daily write quota, so a visitor sending two
//   forms quickly would hit a storage error, and its read-then-write count lets a burst through;
// - per day: DAILY_SUBMISSION_CAP (80) submissions across both forms per calendar day in the
//   firm's time zone.

export const IP_WINDOW_SECONDS = 10 * 60;
const DEFAULT_PER_IP = 5;
const DEFAULT_DAILY_CAP = 80;

export const IP_LIMIT_MESSAGE = `Too many submissions from your connection. Please wait 10 minutes and try again, or call us at ${firm.contact.phone}.`;
export const DAILY_CAP_MESSAGE = `We have received an unusually high number of requests today. Please try again tomorrow or call us at ${firm.contact.phone}.`;

function intSetting(value: string | undefined, fallback: number): number {
  const parsed = Number.parseInt(value ?? '', 10);
  return Number.isFinite(parsed) && parsed >= 0 ? parsed : fallback;
}

export const dailySubmissionCap = (env: Bindings) => intSetting(env.DAILY_SUBMISSION_CAP, DEFAULT_DAILY_CAP);
export const submissionsPerIpPerWindow = (env: Bindings) => intSetting(env.SUBMISSIONS_PER_IP_PER_WINDOW, DEFAULT_PER_IP);

/** The submission day: today's date in the firm's time zone. */
export const submissionDay = (at: Date = new Date()) => firmToday(firm.timeZone, at);

const IP_WINDOW_MS = IP_WINDOW_SECONDS * 1000;

/**
 * Counts one submission for this IP in its current 10-minute window; false once the window's
 * allowance is used up (the attempt is then not counted again). One UPSERT that only increments
 * while under the limit, like claimDailySubmission: 20 simultaneous requests from one IP with a
 * limit of 5 get exactly 5 allowances.
 *
 * If the statement itself fails, the submission is let through and the failure logged: this is
 * the courtesy limit, and the daily cap (checked next, fail-closed) still bounds the day.
 */
export async function takeIpAllowance(env: Bindings, ipHash: string, nowMs: number = Date.now()): Promise<boolean> {
  const limit = submissionsPerIpPerWindow(env);
  if (limit <= 0) return false;
  const windowStart = Math.floor(nowMs / IP_WINDOW_MS) * IP_WINDOW_MS;
  try {
    const row = await env.DB.prepare(
      `INSERT INTO submission_windows (ip_hash, window_start, count) VALUES (?1, ?2, 1)
       ON CONFLICT(ip_hash, window_start) DO UPDATE SET count = submission_windows.count + 1 WHERE submission_windows.count < ?3
       RETURNING count`,
    )
      .bind(ipHash, windowStart, limit)
      .first<{ count: number }>();
    return row !== null;
  } catch (error) {
    console.error('[throttle] per-IP submission allowance unavailable, admitting the submission:', error instanceof Error ? error.message : String(error));
    return true;
  }
}

/** Housekeeping for the cron (worker/services/housekeeping.ts): windows that have ended no longer limit anyone. */
export function pruneSubmissionWindows(db: Db, nowMs: number = Date.now()) {
  return db.delete(submissionWindows).where(lt(submissionWindows.windowStart, new Date(Math.floor(nowMs / IP_WINDOW_MS) * IP_WINDOW_MS)));
}

/**
 * Claims one of today's submissions: a single UPSERT that only increments while the count is under
 * the cap, so concurrent requests can never push it past the cap (no read-then-write). Returns the
 * new count, or null when the cap is reached.
 */
export async function claimDailySubmission(env: Bindings, day: string): Promise<number | null> {
  const cap = dailySubmissionCap(env);
  if (cap <= 0) return null;
  const row = await env.DB.prepare(
    `INSERT INTO daily_submissions (day, count) VALUES (?1, 1)
     ON CONFLICT(day) DO UPDATE SET count = daily_submissions.count + 1 WHERE daily_submissions.count < ?2
     RETURNING count`,
  )
    .bind(day, cap)
    .first<{ count: number }>();
  return row ? row.count : null;
}

/** Gives a claimed submission back (the write it was claimed for did not happen). */
export async function releaseDailySubmission(env: Bindings, day: string): Promise<void> {
  await env.DB.prepare('UPDATE daily_submissions SET count = count - 1 WHERE day = ?1 AND count > 0').bind(day).run();
}

/** The statement recording a submitting IP (as its salted hash) for the day; idempotent. */
export function recordSubmitter(db: Db, day: string, ipHash: string) {
  return db.insert(dailySubmitters).values({ day, ipHash }).onConflictDoNothing();
}

export type AdmissionResult = { ok: true; day: string } | { ok: false; message: string };

/**
 * The gate both forms pass before writing: the per-IP allowance, then a slot under the daily cap.
 * On success the caller owns one daily slot and must release it if its write fails.
 *
 * The per-IP allowance is taken first and never given back (not when the daily cap refuses, not
 * when the write fails, e.g. a booking's slot was just taken): it counts attempts, so one address
 * hammering the forms is stopped before it can use up the day's shared cap.
 */
export async function admitSubmission(env: Bindings, ipHash: string, now: Date = new Date()): Promise<AdmissionResult> {
  if (!(await takeIpAllowance(env, ipHash, now.getTime()))) return { ok: false, message: IP_LIMIT_MESSAGE };
  const day = submissionDay(now);
  if ((await claimDailySubmission(env, day)) === null) return { ok: false, message: DAILY_CAP_MESSAGE };
  return { ok: true, day };
}

/** Today's totals for the admin badges: submissions counted and distinct submitting IPs. */
export async function todaysSubmissionStats(db: Db, day: string): Promise<{ globalCount: number; ipCount: number }> {
  const [counted] = await db
    .select({ count: dailySubmissions.count })
    .from(dailySubmissions)
    .where(sql`${dailySubmissions.day} = ${day}`);
  const [ips] = await db
    .select({ count: sql<number>`count(*)` })
    .from(dailySubmitters)
    .where(sql`${dailySubmitters.day} = ${day}`);
  return { globalCount: counted?.count ?? 0, ipCount: Number(ips?.count ?? 0) };
}

export type StoredSubmission<Row> = { ok: true; row: Row } | { ok: false; message: string };

/**
 * Stores one form submission (contact message or booking) under the abuse limits: admits it, then
 * writes its row and today's submitter record in one transaction. If that write fails, the daily
 * slot is given back and the error is rethrown for the route to answer (e.g. 409 for a taken slot).
 */
export async function storeSubmission<Row>(
  env: Bindings,
  ipHash: string,
  insertRow: (db: Db) => BatchItem<'sqlite'>,
): Promise<StoredSubmission<Row>> {
  const admission = await admitSubmission(env, ipHash);
  if (!admission.ok) return admission;
  const db = getDb(env.DB);
  try {
    const [inserted] = await db.batch([insertRow(db), recordSubmitter(db, admission.day, ipHash)]);
    return { ok: true, row: (inserted as Row[])[0] };
  } catch (error) {
    await releaseDailySubmission(env, admission.day);
    throw error;
  }
}
