import { drizzle } from 'drizzle-orm/d1';
import * as schema from './schema';

const handles = new WeakMap<D1Database, ReturnType<typeof makeDb>>();
const makeDb = (d1: D1Database) => drizzle(d1, { schema });

/**
 * A Drizzle handle over a D1 binding, made once per binding object and kept while the binding
 * lives: building one maps the whole schema's relations, which cost as much as a query's own
 * SQL building on the visitor write paths. The handle holds nothing but the binding.
 */
export function getDb(d1: D1Database) {
  let db = handles.get(d1);
  if (!db) {
    db = makeDb(d1);
    handles.set(d1, db);
  }
  return db;
}

export type Db = ReturnType<typeof getDb>;
