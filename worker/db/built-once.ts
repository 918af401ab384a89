import { fillPlaceholders, sql, type Placeholder } from 'drizzle-orm';

// The statements of the visitor forms' one-call batches (worker/services/limits/submission-limits.ts) have
// the same SQL on every request; only their values change. Drizzle builds a query's SQL by walking
// its chunks on every use, and for a booking's five Drizzle statements that walk cost about 0.6 ms
// of the isolate's CPU per request, as much as the D1 call itself (docs/decisions/0006).
// So each is built ONCE per isolate, with a named placeholder (Drizzle's sql.placeholder) for every
// value that changes, and each use only binds its values, through the columns' encoders as Drizzle's
// own prepared queries do.

/** A Drizzle query (insert, update, delete, select) that can be prepared and its D1 result mapped back. */
export interface PreparableQuery {
  prepare(): { getQuery(): { sql: string; params: unknown[] }; mapResult(response: unknown, isFromBatch?: boolean): unknown };
}

/** A named placeholder, for the value a use of a once-built query binds under that name. */
export const slot = <Name extends string>(name: Name): Placeholder<Name> => sql.placeholder(name);

const built = new Map<string, ReturnType<PreparableQuery['prepare']>>();

/**
 * The query `key` names, built by `build` on its first use in this isolate, with `values` bound to its
 * placeholders (slot). Everything `build` puts in the query that is not a slot is fixed for the
 * isolate's life, so `key` must name everything the query's shape depends on (which columns are
 * given, which condition): the same key, the same SQL. A placeholder without a value throws.
 */
export function builtOnce(key: string, build: () => PreparableQuery, values: Record<string, unknown>): PreparableQuery {
  let prepared = built.get(key);
  if (!prepared) {
    prepared = build().prepare();
    built.set(key, prepared);
  }
  const template = prepared;
  const { sql: text, params } = template.getQuery();
  const bound = { sql: text, params: fillPlaceholders(params, values) };
  return { prepare: () => ({ getQuery: () => bound, mapResult: (response, isFromBatch) => template.mapResult(response, isFromBatch) }) };
}
