import { sql } from 'drizzle-orm';
import type { Bindings } from '../../env';
import type { EmailKind, OutgoingEmail } from '../../mail-types';
import { builtOnce, slot } from '../../db/built-once';
import type { Db } from '../../db/client';
import type { RowInBatch } from '../../db/granted-batch';
import type { ClaimCondition } from './window-counters';
import { dailyCounters } from '../../db/schema';
import { firm } from '#core/content/firm';
import { firmToday } from '#core/firm-time';

// The daily limits (D1 daily_counters, one row per firm day and counter), each claimed by ONE
// atomic UPSERT that only increments while under its cap, so concurrent requests can never push a
// count past it (docs/decisions/0006):
// - 'contact' and 'booking': the two forms' separate daily caps (worker/services/limits/submission-limits.ts);
// - 'chat-ai': Workers AI calls (CHAT_AI_DAILY_BUDGET), after which the chat answers from the
//   knowledge base (worker/services/chat/answer.ts);
// - e-mails to addresses nobody has proven are the visitor's own, so the site cannot be made to mail
//   strangers in bulk in the firm's name; one counter per kind, so a flood of one
//   kind (scripted newsletter sign-ups) never stops another (the booking confirmation with its
//   invite and links): 'booking-confirmation-mail' (BOOKING_CONFIRMATION_DAILY_CAP),
//   'newsletter-confirmation-mail' (NEWSLETTER_CONFIRMATION_DAILY_CAP) and 'unverified-mail'
//   (UNVERIFIED_MAIL_DAILY_CAP: any other kind; the default of the two others when they are unset);
// - 'appointment-changes:<id>': the visitor's changes of one appointment through its links
//   (worker/services/appointments/changes.ts);
// - 'admin-links:<owner id>': the invitations, resent invitations and password-reset links one
//   owner sends in a day (worker/services/admin-auth/invitations.ts).

/** The daily counters of e-mail to unverified addresses, one per kind (unverifiedMailBudget). */
export type UnverifiedMailCounter = 'booking-confirmation-mail' | 'newsletter-confirmation-mail' | 'unverified-mail';

export type DailyCounter = 'contact' | 'booking' | 'chat-ai' | UnverifiedMailCounter | `appointment-changes:${number}` | `admin-links:${number}`;

/** A non-negative integer setting, else the fallback (also for '', a typo or a negative number). */
export function intSetting(value: string | undefined, fallback: number): number {
  const parsed = Number.parseInt(value ?? '', 10);
  return Number.isFinite(parsed) && parsed >= 0 ? parsed : fallback;
}

/** The counting day: today's date in the firm's time zone. */
export const firmDay = (at: Date = new Date()) => firmToday(firm.timeZone, at);

/**
 * Claims one unit of today's `counter` under `cap`: the new count, or null when the cap is reached
 * (or is 0). The refused claim is not counted.
 */
export async function claimDailyCount(env: Pick<Bindings, 'DB'>, counter: DailyCounter, cap: number, day: string = firmDay()): Promise<number | null> {
  if (cap <= 0) return null;
  const row = await dailyClaimStatement(env.DB, counter, cap, day).first<{ count: number }>();
  return row ? row.count : null;
}

/**
 * claimDailyCount as a statement, for a caller's batch: it returns the new count and changes one
 * row when granted, no row and no change when the cap is reached (or `when` is false: then the
 * claim is not even attempted). `cap` must be positive.
 */
export function dailyClaimStatement(d1: D1Database, counter: DailyCounter, cap: number, day: string = firmDay(), when?: ClaimCondition): D1PreparedStatement {
  const source = when ? `SELECT ?1, ?2, 1 WHERE ${when.sql}` : 'VALUES (?1, ?2, 1)';
  return d1
    .prepare(
      `INSERT INTO daily_counters (day, counter, count) ${source}
       ON CONFLICT(day, counter) DO UPDATE SET count = daily_counters.count + 1 WHERE daily_counters.count < ?3
       RETURNING count`,
    )
    .bind(day, counter, cap, ...(when?.params ?? []));
}

/**
 * claimDailyCount as a statement that claims only when the statement run just before it in the
 * same batch changed a row (SQLite's changes()): batched right after windowClaimStatement, the day's
 * unit is taken only when the per-network window admitted the request, in one D1 call. Returns the
 * new count, or no row when the window refused or the cap is reached. `cap` must be positive.
 */
export function dailyClaimAfterStatement(d1: D1Database, counter: DailyCounter, cap: number, day: string): D1PreparedStatement {
  return d1
    .prepare(
      `INSERT INTO daily_counters (day, counter, count) SELECT ?1, ?2, 1 WHERE changes() > 0
       ON CONFLICT(day, counter) DO UPDATE SET count = daily_counters.count + 1 WHERE daily_counters.count < ?3
       RETURNING count`,
    )
    .bind(day, counter, cap);
}

/**
 * dailyClaimStatement made only while `row`, which the same batch wrote, stands (the row the unit is
 * for): the new count, or no row (and no change) when the row does not stand or the cap is reached.
 * `cap` must be positive.
 */
export function dailyClaimWhileRowStands(db: Db, counter: DailyCounter, cap: number, day: string, row: RowInBatch) {
  // Built once per isolate for the counter and the way the row is found (worker/db/built-once.ts).
  return builtOnce(
    `daily-claim:${counter}:${row.kind}`,
    () =>
      db
        .insert(dailyCounters)
        .select(sql`select ${slot('day')}, ${counter}, 1 where ${row.stands}`)
        .onConflictDoUpdate({
          target: [dailyCounters.day, dailyCounters.counter],
          set: { count: sql`${dailyCounters.count} + 1` },
          setWhere: sql`${dailyCounters.count} < ${slot('cap')}`,
        })
        .returning({ count: dailyCounters.count }),
    { day, cap, ...row.values },
  );
}

/** Gives a claimed unit back, as a statement (for a caller's batch). */
export function releaseDailyStatement(d1: D1Database, counter: DailyCounter, day: string): D1PreparedStatement {
  return d1.prepare('UPDATE daily_counters SET count = count - 1 WHERE day = ?1 AND counter = ?2 AND count > 0').bind(day, counter);
}

/** Gives a claimed unit back (what it was claimed for did not happen). */
export async function releaseDailyCount(env: Pick<Bindings, 'DB'>, counter: DailyCounter, day: string): Promise<void> {
  await releaseDailyStatement(env.DB, counter, day).run();
}

const DEFAULT_CHAT_AI_DAILY_BUDGET = 2000;
const DEFAULT_UNVERIFIED_MAIL_DAILY_CAP = 200;

export const chatAiDailyBudget = (env: Pick<Bindings, 'CHAT_AI_DAILY_BUDGET'>) => intSetting(env.CHAT_AI_DAILY_BUDGET, DEFAULT_CHAT_AI_DAILY_BUDGET);

/** The settings of the daily caps on e-mail to unverified addresses. */
type UnverifiedMailSetting = 'UNVERIFIED_MAIL_DAILY_CAP' | 'BOOKING_CONFIRMATION_DAILY_CAP' | 'NEWSLETTER_CONFIRMATION_DAILY_CAP';
export type UnverifiedMailEnv = Pick<Bindings, 'DB' | UnverifiedMailSetting>;

/** Which counter, under which setting, an e-mail to an unverified address draws on. */
export interface UnverifiedMailBudget {
  counter: UnverifiedMailCounter;
  setting: UnverifiedMailSetting;
  cap: number;
}

/** The kinds with a budget of their own; every other kind shares UNVERIFIED_MAIL_DAILY_CAP. */
const OWN_BUDGETS: Partial<Record<EmailKind, { counter: UnverifiedMailCounter; setting: UnverifiedMailSetting }>> = {
  'appointment-confirmation': { counter: 'booking-confirmation-mail', setting: 'BOOKING_CONFIRMATION_DAILY_CAP' },
  'newsletter-confirmation': { counter: 'newsletter-confirmation-mail', setting: 'NEWSLETTER_CONFIRMATION_DAILY_CAP' },
};

/**
 * Today's budget for e-mails of `kind` to unverified addresses: booking confirmations
 * and newsletter confirmations each have their own counter and cap, any other kind draws on
 * UNVERIFIED_MAIL_DAILY_CAP. That former shared cap is also the default of the two own caps, so a
 * deployment that set only it keeps its number, per kind now.
 */
export function unverifiedMailBudget(env: Pick<Bindings, UnverifiedMailSetting>, kind: EmailKind): UnverifiedMailBudget {
  const shared = intSetting(env.UNVERIFIED_MAIL_DAILY_CAP, DEFAULT_UNVERIFIED_MAIL_DAILY_CAP);
  const own = OWN_BUDGETS[kind];
  if (!own) return { counter: 'unverified-mail', setting: 'UNVERIFIED_MAIL_DAILY_CAP', cap: shared };
  return { ...own, cap: intSetting(env[own.setting], shared) };
}

/**
 * Claims one Workers AI call from today's budget; false once it is spent. Fails closed: when the
 * count cannot be taken the model is not called and the knowledge base answers, so an outage of
 * the counter never makes the spend unbounded.
 */
export async function claimAiCall(env: Pick<Bindings, 'DB' | 'CHAT_AI_DAILY_BUDGET'>): Promise<boolean> {
  try {
    return (await claimDailyCount(env, 'chat-ai', chatAiDailyBudget(env))) !== null;
  } catch (error) {
    console.error('[throttle] chat AI budget unavailable, answering from the knowledge base:', error instanceof Error ? error.message : String(error));
    return false;
  }
}

/** Why an e-mail to an unverified address was not sent, for the log line. */
export const unverifiedMailCapReason = (budget: Pick<UnverifiedMailBudget, 'setting'>) =>
  `today's cap on this kind of e-mail to unverified addresses (${budget.setting}) is reached`;

/**
 * Claims one of today's e-mails of `kind` to an address that has not been verified (a booking
 * confirmation, a newsletter confirmation), under that kind's own cap (unverifiedMailBudget); false
 * once it is reached, and then the caller skips that e-mail (the submission itself is still stored
 * and the firm still told). Fails closed like claimAiCall.
 */
export async function claimUnverifiedMail(env: UnverifiedMailEnv, kind: EmailKind): Promise<boolean> {
  const budget = unverifiedMailBudget(env, kind);
  try {
    if ((await claimDailyCount(env, budget.counter, budget.cap)) !== null) return true;
    reportUnverifiedSkip(kind, budget);
    return false;
  } catch (error) {
    reportUnverifiedSkip(kind, budget, { error });
    return false;
  }
}

/** The console line for an e-mail to an unverified address not sent: past its cap, or the count unavailable. */
export function reportUnverifiedSkip(kind: string, budget: UnverifiedMailBudget, unavailable?: { error: unknown }) {
  if (!unavailable) console.warn(`[mail] ${kind} to an unverified address skipped: ${unverifiedMailCapReason(budget)}`);
  else console.error(`[mail] ${kind} to an unverified address skipped: the daily count is unavailable:`, unavailable.error instanceof Error ? unavailable.error.message : String(unavailable.error));
}

/**
 * The claim of one of today's e-mails of a message's kind to an unverified address (a booking
 * confirmation), made in the batch that writes the row the mail is about
 * (worker/db/one-call-write.ts), only while `row` stands: a row a unique index refused or a recheck
 * took back claims nothing. Null when that kind's cap is 0 (no claim, the e-mail is skipped).
 */
export function unverifiedMailClaim(env: Omit<UnverifiedMailEnv, 'DB'>, db: Db, day: string = firmDay()) {
  return (row: RowInBatch, message: OutgoingEmail) => {
    const budget = unverifiedMailBudget(env, message.kind);
    return budget.cap > 0 ? dailyClaimWhileRowStands(db, budget.counter, budget.cap, day, row) : null;
  };
}
