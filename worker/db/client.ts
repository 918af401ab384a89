import { drizzle } from 'drizzle-orm/d1';
import * as schema from './schema';

/** A Drizzle handle over the request's D1 binding (created per request: no global state). */
export function getDb(d1: D1Database) {
  return drizzle(d1, { schema });
}

export type Db = ReturnType<typeof getDb>;
