// The per-network window allowances counted in D1 (docs/decisions/0006-where-each-limit-lives.md):
// the forms' submission windows, the chat's and the newsletter sign-ups', one table each with the same shape
// (ip_hash, window_start, count) and the same single-statement claim.

/** The tables that hold window counts; a closed list, so the name can be written into the SQL. */
export type WindowTable = 'submission_windows' | 'chat_windows' | 'signup_windows';

/** The start of the window `nowMs` falls in. */
export const windowStartOf = (nowMs: number, windowMs: number) => Math.floor(nowMs / windowMs) * windowMs;

/**
 * Counts one use for this (hashed) network in its current window; false once the window's
 * allowance is used up (the refused use is not counted). One UPSERT that only increments while
 * under the limit, so N simultaneous requests with a limit of L get exactly min(N, L) allowances.
 * Throws when the statement fails: each caller decides whether its limit fails open or closed.
 */
export async function claimWindowSlot(
  d1: D1Database,
  table: WindowTable,
  ipHash: string,
  { windowMs, limit, nowMs = Date.now() }: { windowMs: number; limit: number; nowMs?: number },
): Promise<boolean> {
  if (limit <= 0) return false;
  const row = await windowClaimStatement(d1, table, ipHash, { windowMs, limit, nowMs }).first<{ count: number }>();
  return row !== null;
}

/**
 * claimWindowSlot for a courtesy limit that fails open (the forms' window, the newsletter
 * sign-ups'): when the statement fails the use is admitted and the failure logged as
 * `[throttle] <allowance> allowance unavailable, admitting the <use>` (docs/operations.md), while
 * the limits behind it, which fail closed, still hold.
 */
export async function claimWindowSlotOrAdmit(
  d1: D1Database,
  table: WindowTable,
  ipHash: string,
  window: { windowMs: number; limit: number; nowMs?: number },
  log: { allowance: string; use: string },
): Promise<boolean> {
  try {
    return await claimWindowSlot(d1, table, ipHash, window);
  } catch (error) {
    console.error(`[throttle] ${log.allowance} allowance unavailable, admitting the ${log.use}:`, error instanceof Error ? error.message : String(error));
    return true;
  }
}

/**
 * The claim of claimWindowSlot as a statement, for a caller that batches it with what follows
 * (worker/services/limits/submission-limits.ts): it returns the new count, or no row when refused, and it
 * changes one row exactly when the use is allowed. `limit` must be positive.
 */
export function windowClaimStatement(
  d1: D1Database,
  table: WindowTable,
  ipHash: string,
  { windowMs, limit, nowMs = Date.now() }: { windowMs: number; limit: number; nowMs?: number },
  when?: ClaimCondition,
): D1PreparedStatement {
  // With a condition, the claim is not even attempted (nothing counted) when it is false.
  const source = when ? `SELECT ?1, ?2, 1 WHERE ${when.sql}` : 'VALUES (?1, ?2, 1)';
  return d1
    .prepare(
      `INSERT INTO ${table} (ip_hash, window_start, count) ${source}
       ON CONFLICT(ip_hash, window_start) DO UPDATE SET count = ${table}.count + 1 WHERE ${table}.count < ?3
       RETURNING count`,
    )
    .bind(ipHash, windowStartOf(nowMs, windowMs), limit, ...(when?.params ?? []));
}

/** A SQL condition a claim is made under, written with its parameters numbered from ?4 on (?1 to ?3 are the claim's). */
export interface ClaimCondition {
  sql: string;
  params: unknown[];
}
