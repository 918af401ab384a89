import { and, eq, lt, sql } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import { getDb, type Db } from '../db/client';
import { appointments, dailyCounters, dailySubmitters, submissionWindows } from '../db/schema';
import type { Bindings } from '../env';
import { firm } from '../../web/content/firm';
import { claimDailyCount, dailyClaimAfterStatement, firmDay, intSetting, releaseDailyCount } from './daily-counters';
import { claimWindowSlot, windowClaimStatement, windowStartOf } from './window-counters';

// The abuse limits for the two public forms, contact (with the chat hand-off) + booking
// (docs/product.md §8), all claimed in D1 by ONE atomic statement each, so they hold exactly
// under concurrency (docs/decisions/0006). Every per-visitor count is per network (an IPv4
// address or an IPv6 /64, worker/services/client-ip.ts):
// - per network: SUBMISSIONS_PER_IP_PER_WINDOW submissions per 10-minute window. Not in KV: KV
//   refuses a second write to a key within a second and has a daily write quota, so a visitor
//   sending two forms quickly would hit a storage error, and its read-then-write count lets a burst through;
// - per day and form: DAILY_CONTACT_CAP and DAILY_BOOKING_CAP (80 each; DAILY_SUBMISSION_CAP, when
//   set, is the default of both) per calendar day in the firm's time zone. Separate, so whoever
//   fills one form's cap does not close the other form;
// - bookings: at most OPEN_BOOKINGS_PER_EMAIL (2) open requests (requested, not yet confirmed or
//   cancelled, today or later) per e-mail address and OPEN_BOOKINGS_PER_NETWORK (3) per network,
//   so nobody can squat the calendar's slots.

export const IP_WINDOW_SECONDS = 10 * 60;
const DEFAULT_PER_IP = 5;
const DEFAULT_DAILY_CAP = 80;
const DEFAULT_OPEN_BOOKINGS_PER_EMAIL = 2;
const DEFAULT_OPEN_BOOKINGS_PER_NETWORK = 3;

/** The two forms with a daily cap each; the chat hand-off is a contact message. */
export type SubmissionForm = 'contact' | 'booking';

export const IP_LIMIT_MESSAGE = `Too many submissions from your connection. Please wait 10 minutes and try again, or call us at ${firm.contact.phone}.`;
export const DAILY_CAP_MESSAGE = `We have received an unusually high number of requests today. Please try again tomorrow or call us at ${firm.contact.phone}.`;
export const OPEN_BOOKINGS_MESSAGE = `You already have appointment requests waiting for our confirmation. Please wait until we confirm them, or call us at ${firm.contact.phone} to book another time.`;

/** The day's cap of one form: its own setting, else DAILY_SUBMISSION_CAP, else 80. */
export function dailySubmissionCap(env: Bindings, form: SubmissionForm): number {
  const fallback = intSetting(env.DAILY_SUBMISSION_CAP, DEFAULT_DAILY_CAP);
  return intSetting(form === 'contact' ? env.DAILY_CONTACT_CAP : env.DAILY_BOOKING_CAP, fallback);
}
export const submissionsPerIpPerWindow = (env: Bindings) => intSetting(env.SUBMISSIONS_PER_IP_PER_WINDOW, DEFAULT_PER_IP);
export const openBookingsPerEmail = (env: Bindings) => intSetting(env.OPEN_BOOKINGS_PER_EMAIL, DEFAULT_OPEN_BOOKINGS_PER_EMAIL);
export const openBookingsPerNetwork = (env: Bindings) => intSetting(env.OPEN_BOOKINGS_PER_NETWORK, DEFAULT_OPEN_BOOKINGS_PER_NETWORK);

/** The submission day: today's date in the firm's time zone. */
export const submissionDay = firmDay;

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
  try {
    return await claimWindowSlot(env.DB, 'submission_windows', ipHash, { windowMs: IP_WINDOW_MS, limit, nowMs });
  } catch (error) {
    console.error('[throttle] per-IP submission allowance unavailable, admitting the submission:', error instanceof Error ? error.message : String(error));
    return true;
  }
}

/** Housekeeping for the cron (worker/services/housekeeping.ts): windows that have ended no longer limit anyone. */
export function pruneSubmissionWindows(db: Db, nowMs: number = Date.now()) {
  return db.delete(submissionWindows).where(lt(submissionWindows.windowStart, new Date(windowStartOf(nowMs, IP_WINDOW_MS))));
}

/**
 * Claims one of today's submissions of `form` under its own cap (one atomic UPSERT, see
 * worker/services/daily-counters.ts). Returns the new count, or null when the cap is reached.
 */
export function claimDailySubmission(env: Bindings, form: SubmissionForm, day: string): Promise<number | null> {
  return claimDailyCount(env, form, dailySubmissionCap(env, form), day);
}

/** Gives a claimed submission back (the write it was claimed for did not happen). */
export function releaseDailySubmission(env: Bindings, form: SubmissionForm, day: string): Promise<void> {
  return releaseDailyCount(env, form, day);
}

/** The statement recording a submitting IP (as its salted hash) for the day; idempotent. */
export function recordSubmitter(db: Db, day: string, ipHash: string) {
  return db.insert(dailySubmitters).values({ day, ipHash }).onConflictDoNothing();
}

export type AdmissionResult = { ok: true; day: string } | { ok: false; message: string };

/**
 * The gate both forms pass before writing: the per-network allowance, then a slot under the form's
 * daily cap. On success the caller owns one daily slot and must release it if its write fails.
 *
 * The per-network allowance is taken first and never given back (not when the daily cap refuses,
 * not when the write fails, e.g. a booking's slot was just taken): it counts attempts, so one
 * network hammering the forms is stopped before it can use up the day's cap.
 */
export async function admitSubmission(env: Bindings, form: SubmissionForm, ipHash: string, now: Date = new Date()): Promise<AdmissionResult> {
  const limit = submissionsPerIpPerWindow(env);
  const cap = dailySubmissionCap(env, form);
  if (limit > 0 && cap > 0) {
    const day = submissionDay(now);
    // Both claims in one D1 call (issue 17: one round trip less per form): the daily claim runs only
    // when the window claim just before it changed a row, so the order and the rule above hold.
    let claims: D1Result<{ count: number }>[] | null = null;
    try {
      claims = await env.DB.batch<{ count: number }>([
        windowClaimStatement(env.DB, 'submission_windows', ipHash, { windowMs: IP_WINDOW_MS, limit, nowMs: now.getTime() }),
        dailyClaimAfterStatement(env.DB, form, cap, day),
      ]);
    } catch (error) {
      // The batch is one transaction, so nothing was claimed: claim one by one below, where the
      // per-network allowance fails open and the daily cap fails closed.
      console.error('[throttle] batched submission claims failed, claiming one by one:', error instanceof Error ? error.message : String(error));
    }
    if (claims) {
      if (claims[0].results.length === 0) return { ok: false, message: IP_LIMIT_MESSAGE };
      if (claims[1].results.length === 0) return { ok: false, message: DAILY_CAP_MESSAGE };
      return { ok: true, day };
    }
  }
  if (!(await takeIpAllowance(env, ipHash, now.getTime()))) return { ok: false, message: IP_LIMIT_MESSAGE };
  const day = submissionDay(now);
  if ((await claimDailySubmission(env, form, day)) === null) return { ok: false, message: DAILY_CAP_MESSAGE };
  return { ok: true, day };
}

/** Today's count and cap of one form. */
export type FormStats = { count: number; cap: number };

/**
 * Today's totals for the admin badges: submissions counted (both forms together, as the badge
 * "Today's Submissions n/cap" shows them, and each form with its own cap) and distinct submitting networks.
 */
export async function todaysSubmissionStats(
  env: Bindings,
  day: string,
): Promise<{ globalCount: number; globalCap: number; ipCount: number; contact: FormStats; booking: FormStats }> {
  const db = getDb(env.DB);
  const counted = await db
    .select({ counter: dailyCounters.counter, count: dailyCounters.count })
    .from(dailyCounters)
    .where(and(eq(dailyCounters.day, day), sql`${dailyCounters.counter} in ('contact', 'booking')`));
  const [networks] = await db
    .select({ count: sql<number>`count(*)` })
    .from(dailySubmitters)
    .where(eq(dailySubmitters.day, day));
  const stats = (form: SubmissionForm): FormStats => ({
    count: counted.find((row) => row.counter === form)?.count ?? 0,
    cap: dailySubmissionCap(env, form),
  });
  const contact = stats('contact');
  const booking = stats('booking');
  return {
    globalCount: contact.count + booking.count,
    globalCap: contact.cap + booking.cap,
    ipCount: Number(networks?.count ?? 0),
    contact,
    booking,
  };
}

/** A refusal is answered 429; `retryAfter` (seconds) when waiting helps, null when it does not (open bookings). */
export type StoredSubmission<Row> = { ok: true; row: Row } | { ok: false; message: string; retryAfter: number | null };

/**
 * Stores one form submission (contact message or booking) under the abuse limits: admits it, then
 * writes its row and today's submitter record in one transaction. If that write fails, the daily
 * slot is given back and the error is rethrown for the route to answer (e.g. 409 for a taken slot).
 *
 * `recheck`, when given, runs in the same transaction right after the row is written and removes
 * it again (RETURNING its id) when a limit that counts rows is now exceeded, e.g. the open
 * bookings: D1 runs one transaction at a time, so parallel requests are judged one after another
 * and a burst cannot pass. The daily slot is then given back and the answer is `refusal`.
 */
export async function storeSubmission<Row>(
  env: Bindings,
  form: SubmissionForm,
  ipHash: string,
  insertRow: (db: Db) => BatchItem<'sqlite'>,
  recheck?: { statement: (db: Db) => BatchItem<'sqlite'>; refusal: string },
): Promise<StoredSubmission<Row>> {
  const admission = await admitSubmission(env, form, ipHash);
  if (!admission.ok) return { ...admission, retryAfter: IP_WINDOW_SECONDS };
  const db = getDb(env.DB);
  const submitter = recordSubmitter(db, admission.day, ipHash);
  let results: unknown[];
  try {
    results = await db.batch(recheck ? [insertRow(db), recheck.statement(db), submitter] : [insertRow(db), submitter]);
  } catch (error) {
    await releaseDailySubmission(env, form, admission.day);
    throw error;
  }
  if (recheck && (results[1] as unknown[]).length > 0) {
    await releaseDailySubmission(env, form, admission.day);
    return { ok: false, message: recheck.refusal, retryAfter: null };
  }
  return { ok: true, row: (results[0] as Row[])[0] };
}

/**
 * The recheck of a booking just written (storeSubmission): deletes it again, RETURNING its id, when
 * its e-mail address or its network now has more open requests than allowed. Open: requested (not
 * confirmed, not cancelled) for today or later.
 */
export function openBookingsRecheck(env: Bindings, booking: { email: string; networkHash: string }, today: string = submissionDay()) {
  const open = sql`${appointments.status} = 'requested' AND ${appointments.date} >= ${today}`;
  const openForEmail = sql`(SELECT count(*) FROM ${appointments} WHERE lower(${appointments.email}) = lower(${booking.email}) AND ${open})`;
  const openForNetwork = sql`(SELECT count(*) FROM ${appointments} WHERE ${appointments.networkHash} = ${booking.networkHash} AND ${open})`;
  return (db: Db) =>
    db
      .delete(appointments)
      .where(
        and(
          sql`${appointments.id} = last_insert_rowid()`,
          sql`(${openForEmail} > ${openBookingsPerEmail(env)} OR ${openForNetwork} > ${openBookingsPerNetwork(env)})`,
        ),
      )
      .returning({ id: appointments.id });
}
