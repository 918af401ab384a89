// The decision `npm run deploy` makes between the remote migrations and `wrangler deploy`
// (scripts/deploy.ts): deploy only when every migration in migrations/ is recorded as applied on the
// remote D1. `wrangler d1 migrations apply --remote` exits 0 when the operator answers "no" at its
// prompt, and also when a statement reports failure without an error message, so its exit code
// alone cannot say whether the new code's schema is there.

/** The migration files the code expects, as wrangler names them in d1_migrations (`0000_init.sql`). */
export function migrationNames(files: readonly string[]): string[] {
  return files.filter((file) => /^\d{4}_[\w-]+\.sql$/.test(file)).sort();
}

/**
 * The names recorded in the remote d1_migrations table, from the output of
 * `wrangler d1 execute DB --remote --json --command "SELECT name FROM d1_migrations"`: a JSON array
 * of statement results ({ results: [{ name }], success }). Throws when the output is not that or a
 * statement failed, so a deploy never goes ahead on an answer it could not read.
 */
export function appliedMigrationNames(output: string): string[] {
  const start = output.indexOf('[');
  if (start < 0) throw new Error('wrangler printed no JSON result for the d1_migrations query');
  let parsed: unknown;
  try {
    parsed = JSON.parse(output.slice(start));
  } catch {
    throw new Error('wrangler printed a d1_migrations result that is not JSON');
  }
  if (!Array.isArray(parsed)) throw new Error('the d1_migrations result is not a list of statement results');
  const names: string[] = [];
  for (const statement of parsed.flat()) {
    const { success, results } = (statement ?? {}) as { success?: unknown; results?: unknown };
    if (success !== true || !Array.isArray(results)) throw new Error('the d1_migrations query did not succeed on the remote database');
    for (const row of results) {
      const name = (row ?? {}) as { name?: unknown };
      if (typeof name.name === 'string') names.push(name.name);
    }
  }
  return names;
}

/** The local migrations the remote database has not recorded (empty: safe to deploy). */
export function unappliedMigrations(local: readonly string[], applied: readonly string[]): string[] {
  const done = new Set(applied);
  return migrationNames(local).filter((name) => !done.has(name));
}
