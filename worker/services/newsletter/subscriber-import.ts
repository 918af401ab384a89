import { and, eq } from 'drizzle-orm';
import { emailField, FIELD_LIMITS, foldLine } from '#core/schemas/fields';
import { firm } from '#core/content/firm';
import { IMPORT_MAX_ROWS, type ImportRow } from '#core/schemas/subscriber-import';
import { readOptInDate } from '#core/subscriber-import-csv';
import type { Db } from '../../db/client';
import { subscriberImports } from '../../db/schema';

/**
 * CSV import of subscribers (docs/product.md §5.10), in three steps, each safe to repeat:
 *  1. stage: the browser parses the file and sends its rows in chunks (IMPORT_CHUNK_ROWS, 500, a
 *     request of at most 1 MB; 16 rows a statement within D1's 100 bound parameters); each row is checked here and stored under its line number,
 *     so a chunk sent twice is stored once;
 *  2. dry run: what the import would do, worked out in SQL over the staged rows: new, already on
 *     the list, suppressed (bounced, complained or unsubscribed: never re-activated), duplicates
 *     in the file and invalid rows (line and why);
 *  3. confirm (the admin confirms the people's consent, and whether it was already given), then
 *     run: each call imports the next IMPORT_RUN_ROWS staged rows in one D1 batch and moves the
 *     import's cursor in the same transaction, so a retried or overlapping call imports nothing
 *     twice; INSERT ... ON CONFLICT (email) DO NOTHING leaves every address already known as it
 *     is. A row's Subscription Date is the file's opt-in date where it has one (else the import's
 *     time), never the day of the import for a person who opted in years ago. Rows imported with
 *     consent given are active at once; otherwise pending, and the cron
 *     sends each its double opt-in e-mail under the daily cap on mail to unverified addresses
 *     (confirmations.ts sendImportConfirmations).
 */

/** Staged rows imported per run call: one INSERT ... SELECT, far under D1's per-query time. */
export const IMPORT_RUN_ROWS = 500;
/** Rows listed per category in the dry run (the counts are always complete). */
const LISTED = 100;

const validEmail = emailField();

/** Export status values that mean the person left that list: such a row is not imported. */
const LEFT_THE_LIST = /unsubscrib|blocklist|blacklist|cleaned|bounced|opted.?out|non.?subscrib/i;

/** The row as stored: normalised, with why it cannot be imported (null when it can). */
export function checkRow(row: ImportRow, now = new Date()): { email: string; name: string | null; consentAt: Date | null; source: string | null; problem: string | null } {
  const rawEmail = row.email.trim();
  // A name from a spreadsheet may hold a line break or a tab: folded onto one line, since it becomes
  // the display name of every e-mail to that person (core/schemas/fields.ts foldLine).
  const name = (row.name && foldLine(row.name)) || null;
  const source = row.source?.trim() || null;
  const consentText = row.consentDate?.trim() || '';
  // The file's opt-in date (core/subscriber-import-csv.ts readOptInDate): strict, so a slip in a
  // spreadsheet (2/30/2024, a date to come) is a row to fix, not a made-up Subscription Date.
  const consent = consentText ? readOptInDate(consentText, now, firm.timeZone) : null;
  const consentAt = consent && 'at' in consent ? consent.at : null;
  const base = { email: rawEmail.toLowerCase().slice(0, FIELD_LIMITS.email + 50), name: name?.slice(0, FIELD_LIMITS.name) ?? null, consentAt, source: source?.slice(0, 200) ?? null };
  let problem: string | null = null;
  if (!rawEmail) problem = 'No e-mail address';
  else if (!validEmail.safeParse(rawEmail).success) problem = 'Not a valid e-mail address';
  else if (name && name.length > FIELD_LIMITS.name) problem = `Name longer than ${FIELD_LIMITS.name} characters`;
  else if (consent && 'problem' in consent) problem = consent.problem;
  else if (row.status && LEFT_THE_LIST.test(row.status)) problem = `The export marks this address "${row.status.trim().slice(0, 40)}"`;
  return { ...base, problem };
}

export type ImportRecord = typeof subscriberImports.$inferSelect;

export async function createImport(db: Db, input: { fileName: string; createdBy: string }): Promise<ImportRecord> {
  const [created] = await db.insert(subscriberImports).values(input).returning();
  return created;
}

export async function findImport(db: Db, id: number): Promise<ImportRecord | undefined> {
  return db.query.subscriberImports.findFirst({ where: eq(subscriberImports.id, id) });
}

/**
 * Stores a chunk of rows (insert-or-nothing on (import, line): a chunk sent again changes nothing).
 * Refuses with 'not-found' when the import is unknown, 'closed' once it was confirmed (its dry run
 * must stay what the admin confirmed), 'too-many' when the chunk's new rows would take the import
 * past IMPORT_MAX_ROWS (nothing of it is stored). The rows go in only while the import is still staged
 * and under the cap, checked in the same transaction; the batch counts the import's rows first and
 * last (staged_rows), and clears the stored dry run when rows were added. Raw D1 statements:
 * Drizzle's D1 batch does not bind a raw statement's parameters.
 */
export type StageResult = { ok: true; staged: number } | { ok: false; reason: 'not-found' | 'closed' | 'too-many' };

export async function stageRows(d1: D1Database, db: Db, importId: number, rows: ImportRow[]): Promise<StageResult> {
  const refused = (reason: 'not-found' | 'closed' | 'too-many') => ({ ok: false, reason }) as const;
  const record = await findImport(db, importId);
  if (!record) return refused('not-found');
  if (record.status !== 'staged') return refused('closed');
  const now = new Date();
  const checked = rows.map((row) => ({ line: row.line, ...checkRow(row, now) }));
  const lines = JSON.stringify([...new Set(rows.map((row) => row.line))]);
  let added = new Set(rows.map((row) => row.line)).size;
  if (record.stagedRows + added > IMPORT_MAX_ROWS) {
    // Near the cap, lines already stored (a chunk sent again) do not count twice.
    const present = await d1.prepare('SELECT count(*) AS n FROM subscriber_import_rows WHERE import_id = ?1 AND line IN (SELECT value FROM json_each(?2))').bind(importId, lines).first<{ n: number }>();
    added -= present?.n ?? 0;
    if (record.stagedRows + added > IMPORT_MAX_ROWS) return refused('too-many');
  }
  const count = 'SELECT count(*) FROM subscriber_import_rows WHERE import_id = ?1';
  const statements: D1PreparedStatement[] = [d1.prepare(`UPDATE subscriber_imports SET staged_rows = (${count}) WHERE id = ?1`).bind(importId)];
  // 6 parameters a row plus the import id; D1 binds at most 100 per statement: 16 rows a statement.
  for (let i = 0; i < checked.length; i += 16) {
    const chunk = checked.slice(i, i + 16);
    statements.push(
      d1
        .prepare(
          `INSERT INTO subscriber_import_rows (import_id, line, email, name, consent_at, source, problem)
           SELECT ?1, v.column1, v.column2, v.column3, v.column4, v.column5, v.column6
           FROM (VALUES ${chunk.map((_, j) => `(${[1, 2, 3, 4, 5, 6].map((k) => `?${2 + j * 6 + k - 1}`).join(', ')})`).join(', ')}) AS v
           WHERE EXISTS (SELECT 1 FROM subscriber_imports WHERE id = ?1 AND status = 'staged' AND staged_rows + ${Math.max(0, added)} <= ${IMPORT_MAX_ROWS})
           ON CONFLICT (import_id, line) DO NOTHING`,
        )
        .bind(importId, ...chunk.flatMap((r) => [r.line, r.email, r.name, r.consentAt?.getTime() ?? null, r.source, r.problem])),
    );
  }
  statements.push(d1.prepare(`UPDATE subscriber_imports SET dry_run = NULL, staged_rows = (${count}) WHERE id = ?1 AND staged_rows != (${count})`).bind(importId));
  statements.push(
    d1
      .prepare(`SELECT (${count}) AS n, (SELECT count(*) FROM subscriber_import_rows WHERE import_id = ?1 AND line IN (SELECT value FROM json_each(?2))) AS present`)
      .bind(importId, lines),
  );
  const results = await d1.batch<{ n: number; present: number }>(statements);
  const last = results[results.length - 1].results[0];
  // The chunk's rows are all there, or the same transaction refused them: confirmed or full meanwhile.
  if (last && last.present < JSON.parse(lines).length) return refused((await findImport(db, importId))?.status === 'staged' ? 'too-many' : 'closed');
  return { ok: true, staged: last?.n ?? 0 };
}

export type SkipReason = 'bounced' | 'complained' | 'unsubscribed';

/** The dry run's part computed over the rows: how many, each category's count and the rows listed. */
export interface DryRun {
  rows: number;
  counts: { new: number; alreadySubscribed: number; suppressed: number; duplicates: number; invalid: number };
  invalid: { line: number; email: string; problem: string }[];
  duplicates: { line: number; email: string }[];
  suppressed: { line: number; email: string; reason: SkipReason }[];
}

/**
 * The dry run: every staged row in exactly one category. The first valid row of an address counts
 * as new, already subscribed (active or awaiting confirmation: left as it is) or suppressed;
 * later rows of the same address are duplicates; invalid rows say why. Worked out once per set of
 * staged rows and stored on the import (dry_run), so reading it again (the screen polls it, a
 * second tab opens it) costs one row, not a scan of up to IMPORT_MAX_ROWS rows; staging more rows
 * clears it (stageRows). Stored only if no rows were staged meanwhile (staged_rows unchanged).
 */
async function dryRun(d1: D1Database, record: ImportRecord): Promise<DryRun> {
  if (record.dryRun) return record.dryRun as DryRun;
  const categorised = `
    WITH staged AS (
      SELECT r.line, r.email, r.problem,
        EXISTS (SELECT 1 FROM subscriber_import_rows e WHERE e.import_id = r.import_id AND e.email = r.email AND e.problem IS NULL AND e.line < r.line) AS repeated
      FROM subscriber_import_rows r WHERE r.import_id = ?1
    )
    SELECT staged.line, staged.email, staged.problem,
      CASE
        WHEN staged.problem IS NOT NULL THEN 'invalid'
        WHEN staged.repeated THEN 'duplicate'
        WHEN s.id IS NULL THEN 'new'
        WHEN s.import_id = ?1 THEN 'new'
        WHEN s.suppressed_at IS NOT NULL OR s.unsubscribed_at IS NOT NULL THEN 'suppressed'
        ELSE 'existing'
      END AS category,
      CASE WHEN s.suppression_reason IS NOT NULL THEN s.suppression_reason WHEN s.unsubscribed_at IS NOT NULL THEN 'unsubscribed' END AS reason
    FROM staged LEFT JOIN newsletter_subscriptions s ON s.email = staged.email AND staged.problem IS NULL`;
  const query = (columns: string, rest: string) => d1.prepare(`SELECT ${columns} FROM (${categorised}) ${rest}`).bind(record.id);
  const listed = (category: string) => `WHERE category = '${category}' ORDER BY line LIMIT ${LISTED}`;
  // One batch, one transaction: the staged_rows read is the set of rows the categories describe.
  const [stagedRows, counts, invalid, duplicates, suppressed] = await d1.batch<Record<string, unknown>>([
    d1.prepare('SELECT staged_rows AS n FROM subscriber_imports WHERE id = ?1').bind(record.id),
    query('category, count(*) AS n', 'GROUP BY category'),
    query('line, email, problem', listed('invalid')),
    query('line, email', listed('duplicate')),
    query('line, email, reason', listed('suppressed')),
  ]);
  const n = Object.fromEntries(counts.results.map((c) => [c.category as string, c.n as number]));
  const result: DryRun = {
    rows: Object.values(n).reduce((a, b) => a + b, 0),
    counts: { new: n.new ?? 0, alreadySubscribed: n.existing ?? 0, suppressed: n.suppressed ?? 0, duplicates: n.duplicate ?? 0, invalid: n.invalid ?? 0 },
    invalid: invalid.results as DryRun['invalid'],
    duplicates: duplicates.results as DryRun['duplicates'],
    suppressed: suppressed.results as DryRun['suppressed'],
  };
  await d1
    .prepare('UPDATE subscriber_imports SET dry_run = ?2 WHERE id = ?1 AND dry_run IS NULL AND staged_rows = ?3')
    .bind(record.id, JSON.stringify(result), stagedRows.results[0]?.n ?? 0)
    .run();
  return result;
}

/** The import screen's view of one import (importSummary), or null when the id is unknown. */
export async function importStatus(d1: D1Database, db: Db, id: number) {
  const record = await findImport(db, id);
  return record ? importSummary(d1, record) : null;
}

/** The import as the screen shows it: who, when, its state, and its dry run (dryRun, computed once). */
export async function importSummary(d1: D1Database, record: ImportRecord) {
  return {
    id: record.id,
    fileName: record.fileName,
    status: record.status,
    consent: record.consent,
    createdBy: record.createdBy,
    createdAt: record.createdAt.toISOString(),
    confirmedBy: record.confirmedBy,
    confirmedAt: record.confirmedAt?.toISOString() ?? null,
    importedCount: record.importedCount,
    ...(await dryRun(d1, record)),
  };
}

/**
 * The admin confirms the people's consent: the import records how, who and when, and starts.
 * Confirming again with the same choice is a no-op (a retried request); another choice is refused.
 */
export async function confirmImport(db: Db, id: number, input: { consent: 'given' | 'confirm'; by: string; now?: Date }): Promise<ImportRecord | null | 'conflict'> {
  const [updated] = await db
    .update(subscriberImports)
    .set({ status: 'importing', consent: input.consent, confirmedBy: input.by, confirmedAt: input.now ?? new Date() })
    .where(and(eq(subscriberImports.id, id), eq(subscriberImports.status, 'staged')))
    .returning();
  if (updated) return updated;
  const record = await findImport(db, id);
  if (!record) return null;
  return record.consent === input.consent ? record : 'conflict';
}

/**
 * Imports the next IMPORT_RUN_ROWS staged rows of a confirmed import, in ONE D1 batch (one
 * transaction): the insert reads the cursor from the import row and the cursor moves past the same
 * window, so a retry after a crash, or a second tab, continues where the last committed run ended.
 */
export async function runImport(d1: D1Database, db: Db, id: number, now = new Date()): Promise<ImportRecord | null> {
  // The window: staged rows from the cursor, up to (not including) the IMPORT_RUN_ROWS-th after it.
  const windowEnd = `coalesce((SELECT line FROM subscriber_import_rows WHERE import_id = ?1 AND line >= i.next_line ORDER BY line LIMIT 1 OFFSET ${IMPORT_RUN_ROWS}), 9007199254740991)`;
  const lastLine = '(SELECT coalesce(max(line), 0) FROM subscriber_import_rows WHERE import_id = ?1)';
  await d1.batch([
    d1
      .prepare(
        `INSERT INTO newsletter_subscriptions (email, name, active, subscription_date, confirmed_at, import_id, consent_source, consent_at)
         SELECT r.email, r.name, CASE WHEN i.consent = 'given' THEN 'true' ELSE 'false' END, coalesce(r.consent_at, ?2),
           CASE WHEN i.consent = 'given' THEN ?2 END, i.id, coalesce(r.source, 'CSV import ' || i.file_name), coalesce(r.consent_at, ?2)
         FROM subscriber_import_rows r JOIN subscriber_imports i ON i.id = r.import_id
         WHERE r.import_id = ?1 AND i.status = 'importing' AND r.problem IS NULL AND r.line >= i.next_line AND r.line < ${windowEnd}
         ORDER BY r.line
         ON CONFLICT (email) DO NOTHING`,
      )
      .bind(id, now.getTime()),
    d1
      .prepare(
        `UPDATE subscriber_imports AS i SET
           next_line = ${windowEnd},
           imported_count = (SELECT count(*) FROM newsletter_subscriptions WHERE import_id = ?1),
           status = CASE WHEN ${windowEnd} > ${lastLine} THEN 'done' ELSE 'importing' END,
           finished_at = CASE WHEN ${windowEnd} > ${lastLine} THEN ?2 END
         WHERE i.id = ?1 AND i.status = 'importing'`,
      )
      .bind(id, now.getTime()),
  ]);
  return (await findImport(db, id)) ?? null;
}

export type RunImportResult = { ok: true; ran: boolean; status: ImportRecord['status']; importedCount: number } | { ok: false; reason: 'not-found' | 'not-confirmed' };

/**
 * The import screen's "run": the next rows of a confirmed import (runImport); a finished import
 * answers with where it ended, and `ran` says whether rows were run (the route audits only those).
 */
export async function runConfirmedImport(d1: D1Database, db: Db, id: number): Promise<RunImportResult> {
  const record = await findImport(db, id);
  if (!record) return { ok: false, reason: 'not-found' };
  if (record.status === 'staged') return { ok: false, reason: 'not-confirmed' };
  const after = record.status === 'done' ? record : await runImport(d1, db, id);
  return { ok: true, ran: record.status !== 'done', status: after!.status, importedCount: after!.importedCount };
}

export type ConfirmImportResult = { ok: true; record: ImportRecord; summary: Awaited<ReturnType<typeof importSummary>> } | { ok: false; reason: 'not-found' | 'conflict' };

/** The import screen's "confirm consent" (confirmImport), answered with the import as the screen shows it. */
export async function confirmConsent(d1: D1Database, db: Db, id: number, input: { consent: 'given' | 'confirm'; by: string }): Promise<ConfirmImportResult> {
  const result = await confirmImport(db, id, input);
  if (result === null) return { ok: false, reason: 'not-found' };
  if (result === 'conflict') return { ok: false, reason: 'conflict' };
  return { ok: true, record: result, summary: await importSummary(d1, result) };
}
