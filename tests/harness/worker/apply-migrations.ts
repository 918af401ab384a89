import { applyD1Migrations, env, reset } from 'cloudflare:test';
import { afterEach, beforeAll } from 'vitest';
import { forgetPublishedPointer } from '../../../worker/services/content/published';
import { resetWebhookKeyState } from '../../../worker/services/email/delivery-webhook';
import { migratedTables, quote } from './d1-tables';

// Every test starts from an empty, fully migrated database and empty KV, and an isolate that has
// not read the published-content pointer from KV (worker/services/content/published.ts keeps it a
// few seconds) nor remembered a MailChannels signing key (worker/services/email/delivery-webhook.ts
// keeps them per isolate).
//
// The migrations run once per file, not before every test: the pool keeps one runtime (and its
// storage) per worker, so a later file finds them applied and applyD1Migrations skips them. After
// each test every table goes back to exactly what the migrations left (the rows they seed, such as
// weekday_slots, and sqlite_sequence), in one transaction, and every KV namespace is emptied: the
// same starting state `reset()` plus the migrations gave, without rebuilding the schema each time.
// A test that changed the schema (some drop a table to make a store fail) gets the full `reset()`
// and the migrations again.

interface TableRows {
  table: string;
  rows: Record<string, unknown>[];
}

/** The whole schema (tables, indexes), to notice a test that changed it. */
const schemaOf = async () => JSON.stringify((await env.DB.prepare('select type, name, sql from sqlite_master order by type, name').all()).results);

let schema = '';
let tables: string[] = [];
let seeded: TableRows[] = [];
let sequences: Record<string, unknown>[] = [];

function insertRows(table: string, rows: Record<string, unknown>[]): D1PreparedStatement[] {
  return rows.map((row) => {
    const columns = Object.keys(row);
    return env.DB.prepare(`insert into ${quote(table)} (${columns.map(quote).join(', ')}) values (${columns.map(() => '?').join(', ')})`).bind(
      ...columns.map((column) => row[column] ?? null),
    );
  });
}

beforeAll(async () => {
  await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
  tables = await migratedTables();
  const contents = await env.DB.batch(tables.map((table) => env.DB.prepare(`select * from ${quote(table)}`)));
  seeded = tables.map((table, i) => ({ table, rows: contents[i].results as Record<string, unknown>[] })).filter(({ rows }) => rows.length > 0);
  sequences = (await env.DB.prepare('select name, seq from sqlite_sequence').all()).results;
  schema = await schemaOf();
});

/** Every key of every KV namespace wrangler.jsonc binds. */
async function emptyKv(): Promise<void> {
  for (const binding of env.TEST_KV_BINDINGS) {
    const kv = (env as unknown as Record<string, KVNamespace>)[binding];
    let cursor: string | undefined;
    do {
      const page: KVNamespaceListResult<unknown> = await kv.list({ cursor });
      await Promise.all(page.keys.map((key) => kv.delete(key.name)));
      cursor = page.list_complete ? undefined : page.cursor;
    } while (cursor);
  }
}

afterEach(async () => {
  forgetPublishedPointer();
  // Here, not in the webhook fake's module: with one runtime per worker slot (isolate: false) a
  // harness module is loaded once, so a hook it registers runs only in the first file that imported
  // it, and a later file's test then met the previous key pair's remembered key (401).
  resetWebhookKeyState();
  if ((await schemaOf()) !== schema) {
    await reset();
    await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
    return;
  }
  await env.DB.batch([
    // One transaction: foreign keys are checked at its end, when every table is empty or seeded.
    env.DB.prepare('pragma defer_foreign_keys = on'),
    ...tables.map((table) => env.DB.prepare(`delete from ${quote(table)}`)),
    ...seeded.flatMap(({ table, rows }) => insertRows(table, rows)),
    env.DB.prepare('delete from sqlite_sequence'),
    ...sequences.map((row) => env.DB.prepare('insert into sqlite_sequence (name, seq) values (?, ?)').bind(row.name, row.seq)),
  ]);
  await emptyKv();
});
