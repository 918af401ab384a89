import { getTableName } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';

const UNIQUE_FAILED = 'UNIQUE constraint failed: ';

/**
 * True when `error` is the database refusing a row because a UNIQUE index over exactly `columns`
 * (in the index's order) already holds its values.
 *
 * D1 gives such an error no code or type: the refusal exists only as SQLite's text, on the error or
 * on its cause (Drizzle wraps it), e.g. "D1_ERROR: UNIQUE constraint failed: appointments.date,
 * appointments.time_slot: SQLITE_CONSTRAINT". This is the one place that reads that text, and the
 * names it expects come from the Drizzle columns, so a route names the index's columns, not a
 * pattern, and a renamed column cannot silently turn a 409 into a 500.
 *
 * @example
 * if (isUniqueViolation(error, [appointments.date, appointments.timeSlot])) return c.json({ message }, 409)
 */
export function isUniqueViolation(error: unknown, columns: readonly SQLiteColumn[]): boolean {
  const expected = columns.map((column) => `${getTableName(column.table)}.${column.name}`).join(', ');
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    const at = e.message.indexOf(UNIQUE_FAILED);
    if (at === -1) continue;
    // The column list runs to the next ": " (D1 appends the SQLite code) or to the end.
    const failed = e.message.slice(at + UNIQUE_FAILED.length).split(': ')[0].trim();
    if (failed === expected) return true;
  }
  return false;
}

/**
 * True when `error` is the database refusing a row because the UNIQUE index `name` over an
 * expression already holds its value: SQLite names such an index rather than columns, e.g.
 * "UNIQUE constraint failed: index 'admin_users_username_lower_uq'".
 */
export function isUniqueIndexViolation(error: unknown, name: string): boolean {
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    if (e.message.includes(`${UNIQUE_FAILED}index '${name}'`)) return true;
  }
  return false;
}
