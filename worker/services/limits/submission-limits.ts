import { and, eq, lt, sql, type SQL } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import type { SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core';
import { getDb, type Db } from '../../db/client';
import { builtOnce, slot, type PreparableQuery } from '../../db/built-once';
import { mixedBatch, previousChanged, rowInsertIfPreviousChanged, type MixedBatchItem } from '../../db/granted-batch';
import { appointments, dailyCounters, dailySubmitters, submissionWindows } from '../../db/schema';
import type { Bindings } from '../../env';
import { firm } from '#core/content/firm';
import { claimDailyCount, dailyClaimAfterStatement, firmDay, intSetting, releaseDailyCount, releaseDailyStatement } from './daily-counters';
import { emailTransport, logQueuedOrReport, queuedLogAfterInsert, rowIdMarker, type LoggedMessages, type MailAfterRow } from '../email/send-email';
import type { EmailTransport, OutgoingEmail } from '../email/types';
import { claimWindowSlot, type ClaimCondition, windowClaimStatement, windowStartOf } from './window-counters';

// The abuse limits for the two public forms, contact (with the chat hand-off) + booking
// (docs/product.md §8), all claimed in D1 by ONE atomic statement each, so they hold exactly
// under concurrency (docs/decisions/0006). Every per-visitor count is per network (an IPv4
// address or an IPv6 /64, worker/services/limits/client-ip.ts):
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

/** Housekeeping for the cron (worker/services/platform/housekeeping.ts): windows that have ended no longer limit anyone. */
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
  // One claim at a time: this is storeSubmission's way when its one-call batch (which makes the same
  // two claims first) has failed, so each claim keeps its own failure rule.
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

/**
 * The outcome of storeSubmission: the stored row (with its e-mail, when one was asked for, logged
 * as 'queued' and ready for deliverAfterAnswer), or a refusal with its status: 429 for a limit
 * (`retryAfter` in seconds when waiting helps, null when it does not: open bookings), 409 when a
 * unique index refused the row (`taken`, a booking's slot).
 */
export type StoredSubmission<Row> =
  | { ok: true; row: Row; mail: { transport: EmailTransport; logged: LoggedMessages } | null }
  | { ok: false; status: 429 | 409; message: string; retryAfter: number | null };

/**
 * A condition a submission is judged by before any of its claims, in the same transaction
 * (SubmissionWrite.gate): D1 runs one batch at a time, so of two simultaneous submissions the
 * second is judged after the first has written.
 */
export interface SubmissionGate {
  /** The SELECT of the facts, first in the batch: one row of numbers. */
  facts: (d1: D1Database) => D1PreparedStatement;
  /** The condition the first claim is made under: the facts allow the submission. */
  admits: ClaimCondition;
  /** The answer's message from the facts row, or null when the submission may go ahead. */
  refusalOf(facts: Record<string, number>): string | null;
  /** The same judgement in its own call, for the step-by-step path. */
  check: (db: Db) => Promise<string | null>;
}

/** A table whose rows have an integer AUTOINCREMENT id (contact_messages, appointments). */
type RowTable = SQLiteTable & { id: SQLiteColumn };

/** What a form writes: its row, and either a recheck of a limit that counts rows, or its e-mail. */
export type SubmissionWrite<T extends RowTable> = {
  table: T;
  values: T['$inferInsert'];
  /** When a unique index may refuse the row (a booking's slot): the 409 answer's message. */
  taken?: string;
  /**
   * A condition judged before any claim, in the same transaction (a booking's day and slot,
   * worker/services/appointments/availability.ts availabilityGate; a chat session not handed off yet,
   * worker/services/chat/sessions.ts handoffGate): when it refuses, nothing is claimed or stored
   * and the answer is 409 with its message.
   */
  gate?: SubmissionGate;
} & (
  | {
      /**
       * Runs right after the row is written and removes it again (RETURNING its id) when a limit
       * that counts rows is now exceeded, e.g. the open bookings: D1 runs one transaction at a
       * time, so parallel requests are judged one after another and a burst cannot pass. The
       * daily slot is then given back and the answer is `refusal`.
       */
      recheck: { statement: (db: Db) => PreparableQuery; refusal: string };
      /**
       * The e-mails about the row, logged in the same transaction after the recheck (a booking's
       * confirmation under the unverified-mail cap and the firm's notification), see MailAfterRow.
       */
      mailAfterRow?: (db: Db, transport: EmailTransport) => MailAfterRow;
      mail?: never;
      after?: never;
    }
  | {
      recheck?: never;
      /** The firm's e-mail about the row, built before its id is known: `id` stands for it. */
      mail?: (id: number | string) => OutgoingEmail;
      /**
       * One more statement in the same transaction (after the e-mail's log row), run only when the
       * row was written (`row.written`), with the row's id as SQL (`row.id`).
       */
      after?: (db: Db, row: { id: SQL; written: SQL }) => BatchItem<'sqlite'>;
      mailAfterRow?: never;
    }
);

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

/**
 * Stores one form submission (contact message, booking, chat hand-off) under the abuse limits, in
 * ONE D1 call when all goes well: a batch, so one transaction, where each statement runs
 * only when the one before it changed a row (worker/db/granted-batch.ts):
 *   [the gate's facts ->] per-network window claim (made only when the gate admits) -> daily claim
 *   -> today's submitter record -> the row -> the recheck, or the e-mail's 'queued' log row
 *   -> the `after` statement; then `mailAfterRow`'s statements, each guarded by the row standing.
 * A refused claim therefore writes nothing after it, the window claim is kept when the daily cap
 * refuses (the rule of admitSubmission), and the row, its trace in the e-mail log and the claims
 * commit together. A unique index refusing the row (a booking's slot) does not fail the batch
 * (ON CONFLICT DO NOTHING): the per-network claim stays counted, the daily slot is given back, and
 * the answer is `taken`.
 *
 * If the batch fails for platform reasons, nothing of it was written, and the submission goes the
 * long way: admitSubmission (the per-network allowance fails open, the daily cap fails closed),
 * then the row with its submitter record, then the e-mail's log row. If the row's write fails there,
 * the daily slot is given back and the error is rethrown for the route to answer (e.g. 409).
 */
export async function storeSubmission<T extends RowTable>(
  env: Bindings,
  form: SubmissionForm,
  ipHash: string,
  write: SubmissionWrite<T>,
): Promise<StoredSubmission<T['$inferSelect']>> {
  const limit = submissionsPerIpPerWindow(env);
  const cap = dailySubmissionCap(env, form);
  if (limit > 0 && cap > 0) {
    const now = new Date();
    const day = submissionDay(now);
    const db = getDb(env.DB);
    const transport = emailTransport(env);
    const marker = rowIdMarker();
    const mail = write.mail ? queuedLogAfterInsert(db, transport, write.mail(marker), marker) : null;
    const mailAfterRow = write.mailAfterRow?.(db, transport) ?? null;
    const statements: MixedBatchItem[] = [
      // The gate's facts first: a SELECT, so the window claim's own condition decides, not changes().
      ...(write.gate ? [write.gate.facts(env.DB)] : []),
      windowClaimStatement(env.DB, 'submission_windows', ipHash, { windowMs: IP_WINDOW_MS, limit, nowMs: now.getTime() }, write.gate?.admits),
      dailyClaimAfterStatement(env.DB, form, cap, day),
      // Only where a unique index may refuse the row (`taken`), whose submitter record is then taken
      // back when this request made it. A SELECT leaves changes() as it is: whether the network was
      // already recorded today.
      ...(write.taken ? [env.DB.prepare('SELECT 1 AS known FROM daily_submitters WHERE day = ?1 AND ip_hash = ?2').bind(day, ipHash)] : []),
      submitterAfterClaimStatement(env.DB, day, ipHash),
      rowInsertIfPreviousChanged(db, write.table, write.values, write.taken !== undefined),
    ];
    if (write.recheck) statements.push(write.recheck.statement(db));
    if (mail) statements.push(mail.statement);
    // After the log row, last_insert_rowid() is the log's: the row is the table's newest (AUTOINCREMENT, one transaction).
    if (write.after) statements.push(write.after(db, { id: sql`(select max(${write.table.id}) from ${write.table})`, written: previousChanged }) as unknown as MixedBatchItem);
    // Where mailAfterRow's results start once the gate's facts are taken off the front.
    const mailAfterRowAt = statements.length - (write.gate ? 1 : 0);
    if (mailAfterRow) statements.push(...mailAfterRow.statements);
    let results: unknown[] | null = null;
    try {
      results = await mixedBatch(env.DB, statements);
    } catch (error) {
      console.error('[throttle] batched submission failed, storing it step by step:', error instanceof Error ? error.message : String(error));
    }
    if (results && write.gate) {
      const refusal = write.gate.refusalOf((results.shift() as D1Result<Record<string, number>>).results[0]);
      if (refusal) return { ok: false, status: 409, message: refusal, retryAfter: null };
    }
    if (results) {
      if ((results[0] as D1Result).results.length === 0) return limitRefusal(IP_LIMIT_MESSAGE);
      if ((results[1] as D1Result).results.length === 0) return limitRefusal(DAILY_CAP_MESSAGE);
      // The row's result follows the claims, the submitter record and (with `taken`) its SELECT.
      const rowAt = write.taken ? 4 : 3;
      const [row] = results[rowAt] as T['$inferSelect'][];
      // Granted claims without a row that stands: the daily slot goes back, and the submitter record
      // too when this request made it (as when the write fails on the step-by-step path, whose
      // transaction takes it back). Without `taken` the record stays (there is no SELECT to tell).
      const releaseClaims = () => {
        const recorded = !write.taken || (results[2] as D1Result).results.length > 0;
        return env.DB.batch([
          releaseDailyStatement(env.DB, form, day),
          ...(recorded ? [] : [env.DB.prepare('DELETE FROM daily_submitters WHERE day = ?1 AND ip_hash = ?2').bind(day, ipHash)]),
        ]);
      };
      // Only a unique index (ON CONFLICT DO NOTHING, with `taken`) leaves granted claims without a row.
      if (!row) {
        // Without `taken` this does not happen (the insert would have failed the batch).
        await releaseClaims();
        if (!write.taken) throw new Error(`storeSubmission: the ${form} row was not written`);
        return { ok: false, status: 409, message: write.taken, retryAfter: null };
      }
      // The recheck took the row back (a booking's open requests): a refusal that leaves no trace.
      if (write.recheck && (results[rowAt + 1] as unknown[]).length > 0) {
        await releaseClaims();
        return { ok: false, status: 429, message: write.recheck.refusal, retryAfter: null };
      }
      const rowId = (row as { id: number }).id;
      const logged = mail ? mail.logged(results[rowAt + 1] as { id: number }[], rowId) : mailAfterRow ? mailAfterRow.logged(results.slice(mailAfterRowAt), rowId) : null;
      return { ok: true, row, mail: logged ? { transport, logged } : null };
    }
  }
  return storeStepByStep(env, form, ipHash, write);
}

const limitRefusal = (message: string) => ({ ok: false as const, status: 429 as const, message, retryAfter: IP_WINDOW_SECONDS });

/** storeSubmission the long way, one D1 call per step (see there). */
async function storeStepByStep<T extends RowTable>(
  env: Bindings,
  form: SubmissionForm,
  ipHash: string,
  write: SubmissionWrite<T>,
): Promise<StoredSubmission<T['$inferSelect']>> {
  const refusal = write.gate ? await write.gate.check(getDb(env.DB)) : null;
  if (refusal) return { ok: false, status: 409, message: refusal, retryAfter: null };
  const admission = await admitSubmission(env, form, ipHash);
  if (!admission.ok) return limitRefusal(admission.message);
  const db = getDb(env.DB);
  const insert = db.insert(write.table).values(write.values).returning() as unknown as MixedBatchItem;
  const submitter = recordSubmitter(db, admission.day, ipHash) as unknown as MixedBatchItem;
  let results: unknown[];
  try {
    results = await mixedBatch(env.DB, write.recheck ? [insert, write.recheck.statement(db), submitter] : [insert, submitter]);
  } catch (error) {
    await releaseDailySubmission(env, form, admission.day);
    throw error;
  }
  if (write.recheck && (results[1] as unknown[]).length > 0) {
    await releaseDailySubmission(env, form, admission.day);
    return { ok: false, status: 429, message: write.recheck.refusal, retryAfter: null };
  }
  const row = (results[0] as (T['$inferSelect'] & { id: number })[])[0];
  if (write.after) await db.batch([write.after(db, { id: sql`${row.id}`, written: sql`1` })]);
  if (!write.mail && !write.mailAfterRow) return { ok: true, row, mail: null };
  // The row is committed: a broken e-mail log must not fail the visitor's request.
  const transport = emailTransport(env);
  const logged = write.mail ? await logQueuedOrReport(db, transport, [write.mail(row.id)]) : await write.mailAfterRow!(db, transport).stepByStep(row.id);
  return { ok: true, row, mail: logged ? { transport, logged } : null };
}

/**
 * The recheck of a booking just written (storeSubmission): deletes it again, RETURNING its id, when
 * its e-mail address or its network now has more open requests than allowed. Open: requested (not
 * confirmed, not cancelled) for today or later.
 */
export function openBookingsRecheck(env: Bindings, booking: { email: string; networkHash: string }, today: string = submissionDay()) {
  const values = { email: booking.email, networkHash: booking.networkHash, today, perEmail: openBookingsPerEmail(env), perNetwork: openBookingsPerNetwork(env) };
  // Built once per isolate, its values bound on each use (worker/db/built-once.ts). Each count stops
  // one past its limit (all it must tell), over the partial indexes of open requests
  // (appointments_open_email_idx, appointments_open_network_idx): a booking costs the same whatever
  // the number of appointments stored.
  return (db: Db): PreparableQuery =>
    builtOnce(
      'open-bookings-recheck',
      () => {
        const open = sql`${appointments.status} = 'requested' AND ${appointments.date} >= ${slot('today')}`;
        const openForEmail = sql`(SELECT count(*) FROM (SELECT 1 FROM ${appointments} WHERE lower(${appointments.email}) = lower(${slot('email')}) AND ${open} LIMIT ${slot('perEmail')} + 1))`;
        const openForNetwork = sql`(SELECT count(*) FROM (SELECT 1 FROM ${appointments} WHERE ${appointments.networkHash} = ${slot('networkHash')} AND ${open} LIMIT ${slot('perNetwork')} + 1))`;
        return db
          .delete(appointments)
          .where(
            and(
              // Only right after this request's insert wrote the row (storeSubmission's chain): else
              // last_insert_rowid() is an older statement's.
              previousChanged,
              sql`${appointments.id} = last_insert_rowid()`,
              sql`(${openForEmail} > ${slot('perEmail')} OR ${openForNetwork} > ${slot('perNetwork')})`,
            ),
          )
          .returning({ id: appointments.id });
      },
      values,
    );
}
