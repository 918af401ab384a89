import { getTableColumns, getTableName, is, sql, SQL } from 'drizzle-orm';
import type { SQLiteInsertValue, SQLiteTable } from 'drizzle-orm/sqlite-core';
import { builtOnce, slot, type PreparableQuery } from './built-once';
import type { Db } from './client';

// One D1 call for a chain of statements where each runs only when the one before it changed a row
// (SQLite's changes(), which still holds the previous statement's count while the next one runs):
// the visitor forms claim their limits and write their row this way, in one transaction
// (worker/services/limits/submission-limits.ts).

/** A statement of a mixed batch: raw D1, or a Drizzle query. */
export type MixedBatchItem = D1PreparedStatement | PreparableQuery;

const isDrizzle = (item: MixedBatchItem): item is PreparableQuery => typeof (item as Partial<PreparableQuery>).prepare === 'function';

/**
 * Runs raw D1 statements and Drizzle queries in ONE D1 batch (one transaction, in order), the way
 * Drizzle's own db.batch does for its queries: each Drizzle query's result is mapped back to its
 * rows (RETURNING, column names and types), each raw statement's D1Result is returned as is.
 */
export async function mixedBatch(d1: D1Database, items: MixedBatchItem[]): Promise<unknown[]> {
  const prepared = items.map((item) => (isDrizzle(item) ? item.prepare() : null));
  const statements = items.map((item, i) => {
    const query = prepared[i]?.getQuery();
    return query ? d1.prepare(query.sql).bind(...query.params) : (item as D1PreparedStatement);
  });
  const results = await d1.batch(statements);
  return results.map((result, i) => prepared[i]?.mapResult(result, true) ?? result);
}

/** The SQL condition "the statement just before this one, in the same batch, changed a row". */
export const previousChanged = sql`changes() > 0`;

/**
 * `INSERT INTO table (every column) SELECT <values> WHERE changes() > 0`: the row is written only
 * when the statement just before it in the batch changed a row (a claim was granted). The values
 * are laid out as Drizzle's own .values() does (same columns, same order, the columns' defaults
 * for what is not given), so the caller chains .onConflictDoNothing() and .returning() as usual.
 */
export function insertIfPreviousChanged<T extends SQLiteTable>(db: Db, table: T, values: SQLiteInsertValue<T>) {
  return insertWhen(db, table, values, previousChanged);
}

/** insertIfPreviousChanged with any condition: `INSERT INTO table (every column) SELECT <values> WHERE <condition>`. */
export function insertWhen<T extends SQLiteTable>(db: Db, table: T, values: SQLiteInsertValue<T>, condition: SQL) {
  const given = values as Record<string, unknown>;
  const list = Object.entries(getTableColumns(table)).map(([key, column]) => {
    const value = given[key];
    if (value !== undefined) return is(value, SQL) ? value : sql.param(value, column);
    const fallback = column.default ?? column.defaultFn?.();
    if (fallback === undefined || fallback === null) return sql`null`;
    return is(fallback, SQL) ? fallback : sql.param(fallback, column);
  });
  return db.insert(table).select(sql`select ${sql.join(list, sql`, `)} where ${condition}`);
}

/**
 * `insertIfPreviousChanged(db, table, values)` RETURNING the row (with ON CONFLICT DO NOTHING when
 * `ignoreConflict`), its SQL built once per isolate for the table, the columns given and the conflict
 * handling, every value bound as a parameter (worker/db/built-once.ts): the visitor forms' row.
 * A value that is SQL, or a column default computed in JS (defaultFn) that would be fixed at the
 * first build, makes it a query built for this use alone.
 */
export function rowInsertIfPreviousChanged<T extends SQLiteTable>(db: Db, table: T, values: SQLiteInsertValue<T>, ignoreConflict: boolean): PreparableQuery {
  const build = (given: SQLiteInsertValue<T>) => {
    const insert = insertIfPreviousChanged(db, table, given);
    return ignoreConflict ? insert.onConflictDoNothing().returning() : insert.returning();
  };
  const given = Object.entries(values as Record<string, unknown>).filter(([, value]) => value !== undefined);
  const names = new Set(given.map(([key]) => key));
  const computedDefault = Object.entries(getTableColumns(table)).some(([key, column]) => !names.has(key) && column.defaultFn);
  if (computedDefault || given.some(([, value]) => is(value, SQL))) return build(values);
  const key = `row:${getTableName(table)}:${ignoreConflict ? 'ignore' : 'fail'}:${[...names].join(',')}`;
  return builtOnce(key, () => build(Object.fromEntries(given.map(([name]) => [name, slot(name)])) as SQLiteInsertValue<T>), Object.fromEntries(given));
}

/**
 * Where a batch's earlier statement put a row, for the statements after it in the same batch: its
 * id as SQL, and the condition that it stands (was written and not taken back). Statements using
 * them are built once per isolate (worker/db/built-once.ts), so `id` and `stands` take what differs
 * from one row to the next as placeholders (slot), with their values in `values`, and `kind` names
 * the way the row is found: the same kind, the same SQL.
 */
export interface RowInBatch {
  kind: string;
  id: SQL;
  stands: SQL;
  values: Record<string, unknown>;
}
