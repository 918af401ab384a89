import { env } from 'cloudflare:test';

// What the worker harness knows of the test database's tables, shared by the reset after each test
// (apply-migrations.ts) and the fuzzer's write log (fuzz-routes.ts).

/** A table or column name as an SQL identifier. */
export const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** The tables the migrations made: not SQLite's or D1's own, nor the migrations log. */
export async function migratedTables(): Promise<string[]> {
  const { results } = await env.DB.prepare(
    "select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like '_cf_%' and name <> 'd1_migrations' order by name",
  ).all<{ name: string }>();
  return results.map((row) => row.name);
}
