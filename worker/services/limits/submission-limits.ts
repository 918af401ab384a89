import { and, eq, lt, sql } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import { getDb, type Db } from '../../db/client';
import type { RowInBatch } from '../../db/granted-batch';
import { type BatchStatement, type OneCallWrite, type RowEmails, type RowTable, rowsOf, writeInOneCall } from '../../db/one-call-write';
import { dailyCounters, dailySubmitters, submissionWindows } from '../../db/schema';
import type { Bindings } from '../../env';
import { defaultContent } from '#core/content/default-content';
import { claimDailyCount, dailyClaimAfterStatement, dailyClaimStatement, firmDay, intSetting, releaseDailyStatement, reportUnverifiedSkip, unverifiedMailBudget, unverifiedMailClaim } from './daily-counters';
import type { LoggedMessages } from '../../db/queued-mail';
import { emailTransport } from '../email/delivery';
import { safeErrorSummary } from '../platform/log-safe';
import type { EmailTransport } from '../../mail-types';
import type { Prune } from '../platform/jobs';
import { claimWindowSlotOrAdmit, type ClaimCondition, windowClaimStatement, windowStartOf } from './window-counters';

// The abuse limits for the two public forms, contact (with the chat hand-off) + booking
// (docs/product.md §8), all claimed in D1 by ONE atomic statement each, so they hold exactly
// under concurrency (docs/decisions/0006). Every per-visitor count is per network (an IPv4
// address or an IPv6 /64, worker/services/limits/client-ip.ts):
// - per network: SUBMISSIONS_PER_IP_PER_WINDOW submissions per 10-minute window. Not in KV: KV
//   refuses a second write to a key within a second and has a daily write quota, so a visitor
//   sending two forms quickly would hit a storage error, and its read-then-write count lets a burst through;
// - per day and form: DAILY_CONTACT_CAP and DAILY_BOOKING_CAP (80 each; DAILY_SUBMISSION_CAP, when
//   set, is the default of both) per calendar day in the firm's time zone. Separate, so whoever
//   fills one form's cap does not close the other form.
// A form's own limit that counts rows (a booking's open requests, worker/services/appointments/
// open-bookings.ts) is its `recheck`, run in the same transaction.

export const IP_WINDOW_SECONDS = 10 * 60;
const DEFAULT_PER_IP = 5;
const DEFAULT_DAILY_CAP = 80;

/** The two forms with a daily cap each; the chat hand-off is a contact message. */
export type SubmissionForm = 'contact' | 'booking';

// The refusals name the firm's phone as published (the routes pass it); the constants are the defaults' wording.
export const ipLimitMessage = (phone: string) => `Too many submissions from your connection. Please wait 10 minutes and try again, or call us at ${phone}.`;
export const dailyCapMessage = (phone: string) => `We have received an unusually high number of requests today. Please try again tomorrow or call us at ${phone}.`;
export const IP_LIMIT_MESSAGE = ipLimitMessage(defaultContent.firm.contact.phone);
export const DAILY_CAP_MESSAGE = dailyCapMessage(defaultContent.firm.contact.phone);

/** The day's cap of one form: its own setting, else DAILY_SUBMISSION_CAP, else 80. */
export function dailySubmissionCap(env: Bindings, form: SubmissionForm): number {
  const fallback = intSetting(env.DAILY_SUBMISSION_CAP, DEFAULT_DAILY_CAP);
  return intSetting(form === 'contact' ? env.DAILY_CONTACT_CAP : env.DAILY_BOOKING_CAP, fallback);
}
export const submissionsPerIpPerWindow = (env: Bindings) => intSetting(env.SUBMISSIONS_PER_IP_PER_WINDOW, DEFAULT_PER_IP);

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
  return claimWindowSlotOrAdmit(env.DB, 'submission_windows', ipHash, { windowMs: IP_WINDOW_MS, limit, nowMs }, { allowance: 'per-IP submission', use: 'submission' });
}

/** Housekeeping for the cron (worker/services/platform/jobs.ts, housekeepingJob): windows that have ended no longer limit anyone. */
export function pruneSubmissionWindows(db: Db, nowMs: number = Date.now()) {
  return db.delete(submissionWindows).where(lt(submissionWindows.windowStart, new Date(windowStartOf(nowMs, IP_WINDOW_MS))));
}

/**
 * Claims one of today's submissions of `form` under its own cap (one atomic UPSERT, see
 * worker/services/limits/daily-counters.ts). Returns the new count, or null when the cap is reached.
 */
export function claimDailySubmission(env: Bindings, form: SubmissionForm, day: string): Promise<number | null> {
  return claimDailyCount(env, form, dailySubmissionCap(env, form), day);
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

/**
 * The outcome of storeSubmission: the stored row's id (with its e-mails, when it has any, queued in
 * the outbox and ready for worker/services/email/enqueue.ts), or a refusal with its status: 429 for a limit
 * (`retryAfter` in seconds when waiting helps, null when it does not: open bookings), 409 when the
 * gate or a unique index refused the row (`taken`, a booking's slot).
 */
export type StoredSubmission =
  | { ok: true; id: number; mail: { transport: EmailTransport; logged: LoggedMessages } | null }
  | { ok: false; status: 429 | 409; message: string; retryAfter: number | null };

/**
 * A condition a submission is judged by before any of its claims, in the same transaction
 * (Submission.gate): D1 runs one batch at a time, so of two simultaneous submissions the
 * second is judged after the first has written.
 */
export interface SubmissionGate {
  /** The SELECT of the facts, first in the batch: one row of numbers. */
  facts: (d1: D1Database) => D1PreparedStatement;
  /** The condition the first claim is made under: the facts allow the submission. */
  admits: ClaimCondition;
  /** The answer's message from the facts row, or null when the submission may go ahead. */
  refusalOf(facts: Record<string, unknown>): string | null;
}

/** What a form declares (its route): the row, the conditions it is written under, and its e-mails. */
export interface Submission<T extends RowTable> {
  table: T;
  values: T['$inferInsert'];
  /**
   * The column and value, chosen before the insert, that find the row in its batch (a booking's
   * public id): needed by `recheck` and by an e-mail to an unverified address.
   */
  key?: { column: SQLiteColumn; value: string };
  /** When a unique index may refuse the row (a booking's slot): the 409 answer's message. */
  taken?: string;
  /**
   * A condition judged before any claim, in the same transaction (a booking's day and slot,
   * worker/services/appointments/availability.ts availabilityGate; a chat session not handed off yet,
   * worker/services/chat/sessions.ts handoffGate): when it refuses, nothing is claimed or stored
   * and the answer is 409 with its message.
   */
  gate?: SubmissionGate;
  /**
   * Runs right after the row is written and removes it again (RETURNING its id) when a limit
   * that counts rows is now exceeded, e.g. the open bookings: D1 runs one transaction at a
   * time, so parallel requests are judged one after another and a burst cannot pass. The
   * daily slot is then given back and the answer is `refusal`.
   */
  recheck?: { statement: (row: RowInBatch) => BatchStatement; refusal: string };
  /**
   * The e-mails about the row, built before it exists from its values: `always` (the firm's
   * notification) and `unverified` (a booking's confirmation), which is queued only under the
   * day's cap on its kind of e-mail to unverified addresses (unverifiedMailBudget).
   */
  emails?: RowEmails;
  /** One more statement about the row in the same transaction, while it stands (chat hand-off). */
  after?: (row: RowInBatch) => BatchStatement;
  /** The firm's phone as published, which the limits' refusals name (the default content's when absent). */
  phone?: string;
}

/**
 * The statement recording the submitting network for the day, in the claims' chain: it runs only
 * when the daily claim just before it was granted, and then always counts as one change (an
 * existing record is "updated" to itself), so the row's insert after it still sees the grant.
 */
function submitterAfterClaimStatement(d1: D1Database, day: string, ipHash: string): D1PreparedStatement {
  return d1
    .prepare(
      `INSERT INTO daily_submitters (day, ip_hash) SELECT ?1, ?2 WHERE changes() > 0
       ON CONFLICT(day, ip_hash) DO UPDATE SET ip_hash = excluded.ip_hash`,
    )
    .bind(day, ipHash);
}

const limitRefusal = (message: string) => ({ ok: false as const, status: 429 as const, message, retryAfter: IP_WINDOW_SECONDS });

/**
 * Stores one form submission (contact message, booking, chat hand-off) under the abuse limits, in
 * ONE D1 call (worker/db/one-call-write.ts): a batch, so one transaction, where each statement runs
 * only when the one before it changed a row:
 *   [the gate's facts ->] per-network window claim (made only when the gate admits) -> daily claim
 *   -> today's submitter record -> the row -> [the recheck] -> the e-mails queued in the outbox
 *   -> [the `after` statement] -> [the unverified-mail claim -> its e-mail].
 * A refused claim therefore writes nothing after it, the window claim is kept when the daily cap
 * refuses (it counts attempts), and the row, its e-mails and the claims commit together.
 * A unique index refusing the row (a booking's slot) does not fail the batch (ON CONFLICT DO
 * NOTHING): the per-network claim stays counted, the daily slot is given back, and the answer is
 * `taken`.
 *
 * If the batch fails, nothing of it was written, and the same write is made once more without the
 * per-network claim: that is the courtesy limit, which fails open (its table may be what failed),
 * while the daily cap, still claimed, fails closed. If that fails too, once more without the
 * e-mails (the e-mail log may be what fails: the visitor's row must not be lost with them,
 * reported on the console). A failure of that last try is thrown to the route.
 */
export async function storeSubmission<T extends RowTable>(env: Bindings, form: SubmissionForm, ipHash: string, submission: Submission<T>): Promise<StoredSubmission> {
  const limit = submissionsPerIpPerWindow(env);
  const cap = dailySubmissionCap(env, form);
  const phone = submission.phone ?? defaultContent.firm.contact.phone;
  if (limit <= 0) return limitRefusal(ipLimitMessage(phone));
  if (cap <= 0) return limitRefusal((await takeIpAllowance(env, ipHash)) ? dailyCapMessage(phone) : ipLimitMessage(phone));
  const now = new Date();
  const day = submissionDay(now);
  const transport = emailTransport(env);
  const write = (parts: { window: boolean; emails: boolean }): OneCallWrite<T, 'window' | 'daily'> => ({
    facts: submission.gate ? { statement: submission.gate.facts(env.DB), refusal: submission.gate.refusalOf } : undefined,
    claims: parts.window
      ? [
          { name: 'window', statement: windowClaimStatement(env.DB, 'submission_windows', ipHash, { windowMs: IP_WINDOW_MS, limit, nowMs: now.getTime() }, submission.gate?.admits) },
          { name: 'daily', statement: dailyClaimAfterStatement(env.DB, form, cap, day) },
        ]
      : [{ name: 'daily', statement: dailyClaimStatement(env.DB, form, cap, day, submission.gate?.admits) }],
    bookkeeping: [
      // Only where a unique index may refuse the row (`taken`), whose submitter record is then taken
      // back when this request made it. A SELECT leaves changes() as it is: whether the network was
      // already recorded today.
      ...(submission.taken ? [{ name: 'known', statement: env.DB.prepare('SELECT 1 AS known FROM daily_submitters WHERE day = ?1 AND ip_hash = ?2').bind(day, ipHash) }] : []),
      { name: 'submitter', statement: submitterAfterClaimStatement(env.DB, day, ipHash) },
    ],
    row: { table: submission.table, values: submission.values, key: submission.key, mayConflict: submission.taken !== undefined },
    recheck: submission.recheck?.statement,
    emails: submission.emails && parts.emails
      ? {
          transport,
          messages: submission.emails,
          unverifiedClaim: submission.key ? unverifiedMailClaim(env, getDb(env.DB), day) : undefined,
        }
      : undefined,
    after: submission.after,
  });
  let outcome;
  try {
    outcome = await writeInOneCall(env.DB, write({ window: true, emails: true }));
  } catch (error) {
    console.error('[throttle] per-IP submission allowance unavailable, admitting the submission:', error instanceof Error ? error.message : String(error));
    try {
      outcome = await writeInOneCall(env.DB, write({ window: false, emails: true }));
    } catch (mailError) {
      // The e-mail log may be what fails: the row must not be lost with its e-mails.
      console.error('E-mail not logged, not sent', form, safeErrorSummary(mailError));
      outcome = await writeInOneCall(env.DB, write({ window: false, emails: false }));
    }
  }
  if (outcome.written) {
    if (outcome.unverifiedSkipped) reportUnverifiedSkip(outcome.unverifiedSkipped, unverifiedMailBudget(env, outcome.unverifiedSkipped));
    return { ok: true, id: outcome.id, mail: outcome.mail ? { transport, logged: outcome.mail } : null };
  }
  switch (outcome.refusedBy) {
    case 'facts':
      return { ok: false, status: 409, message: outcome.message, retryAfter: null };
    case 'window':
      return limitRefusal(ipLimitMessage(phone));
    case 'daily':
      return limitRefusal(dailyCapMessage(phone));
  }
  // Granted claims without a row that stands: the daily slot goes back, and the submitter record
  // too when this request made it. Without `taken` the record stays (there is no SELECT to tell).
  const recorded = !submission.taken || rowsOf(outcome.results, 'known').length > 0;
  await env.DB.batch([
    releaseDailyStatement(env.DB, form, day),
    ...(recorded ? [] : [env.DB.prepare('DELETE FROM daily_submitters WHERE day = ?1 AND ip_hash = ?2').bind(day, ipHash)]),
  ]);
  // Only a unique index (ON CONFLICT DO NOTHING, with `taken`) leaves the row unwritten.
  if (outcome.refusedBy === 'conflict') {
    if (!submission.taken) throw new Error(`storeSubmission: the ${form} row was not written`);
    return { ok: false, status: 409, message: submission.taken, retryAfter: null };
  }
  // The recheck took the row back (a booking's open requests): a refusal that leaves no trace.
  if (!submission.recheck) throw new Error(`storeSubmission: the ${form} row was taken back without a recheck`);
  return { ok: false, status: 429, message: submission.recheck.refusal, retryAfter: null };
}

/** The forms' ended network windows, in the cron's housekeeping batch (worker/services/platform/jobs.ts). */
export const limitsPrunes: Prune[] = [{ statements: (db, at) => [pruneSubmissionWindows(db, at.getTime())] }];
