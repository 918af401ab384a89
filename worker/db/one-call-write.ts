import { getTableName, sql } from 'drizzle-orm';
import type { SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { PreparableQuery } from './built-once';
import { getDb } from './client';
import { previousChanged, rowInsertIfPreviousChanged, type RowInBatch } from './granted-batch';
import { type LoggedMessages, queuedMailStatement } from './queued-mail';
import type { EmailKind, EmailTransport, OutgoingEmail } from '../mail-types';

// The write seam of the visitor forms (contact, booking, chat hand-off; docs/architecture.md,
// Writes): a caller DECLARES what it writes (the facts that may refuse it, its limit claims, its
// row, the e-mails about the row) and this module turns that into ONE D1 batch, one transaction,
// whose results are read by name. E-mail is an outbox: the messages are queued (email_log 'queued')
// in the same batch as the row, so they commit or vanish together; the caller hands them to
// enqueue (worker/services/email/enqueue.ts), and the cron sweeps whatever is still
// queued (worker/services/email/outbox-sweep.ts).
//
// The chain: each claim is made only when the statement before it changed a row (SQLite's
// changes(), worker/db/granted-batch.ts), so a refused claim writes nothing after it; the row is
// inserted only when every claim was granted; what follows the row runs only while the row stands.

/** A statement of the batch: raw D1, or a Drizzle query (its SQL bound as is, its rows read raw). */
export type BatchStatement = D1PreparedStatement | PreparableQuery;

/** One statement of the batch, by name. */
export interface Step<Name extends string = string> {
  name: Name;
  statement: BatchStatement;
}

/** A row of a statement's result as D1 returns it: column names, raw values. */
export type RawRow = Record<string, unknown>;

/** Each statement's result by its name; a name whose statement was not in the batch has none. */
export type NamedResults<Name extends string = string> = Partial<Record<Name, D1Result<RawRow>>>;

const isQuery = (statement: BatchStatement): statement is PreparableQuery => 'prepare' in statement && typeof statement.prepare === 'function';

function toD1(d1: D1Database, statement: BatchStatement): D1PreparedStatement {
  if (!isQuery(statement)) return statement;
  const query = statement.prepare().getQuery();
  return d1.prepare(query.sql).bind(...query.params);
}

/** Runs the steps as ONE D1 batch (one transaction, in order); their results by name. */
export async function runNamed<Name extends string>(d1: D1Database, steps: Step<Name>[]): Promise<NamedResults<Name>> {
  const names = new Set(steps.map((step) => step.name));
  if (names.size !== steps.length) throw new Error('runNamed: two steps of one batch have the same name');
  const results = await d1.batch<RawRow>(steps.map((step) => toD1(d1, step.statement)));
  const byName: NamedResults<Name> = {};
  steps.forEach((step, i) => (byName[step.name] = results[i]));
  return byName;
}

/** The rows the named statement returned (RETURNING, SELECT); none when it was not in the batch. */
export const rowsOf = <Name extends string>(results: NamedResults<Name>, name: Name): RawRow[] => results[name]?.results ?? [];

/** A table whose rows have an integer AUTOINCREMENT id (contact_messages, appointments). */
export type RowTable = SQLiteTable & { id: SQLiteColumn };

/** A claim on a limit: it returns a row when granted, none when refused (and then changes nothing). */
export interface Claim<Name extends string> {
  name: Name;
  statement: D1PreparedStatement;
}

/**
 * The e-mails about the row, built before it exists from the values it is written with, and queued
 * as they are: they name the row by what it holds (the visitor's name, e-mail, date), never by its
 * id, which only the insert chooses.
 */
export interface RowEmails {
  /** Queued whenever the row stands (the firm's notification). */
  always: OutgoingEmail[];
  /**
   * Queued only when `unverifiedClaim` grants it (an e-mail to an address nobody has verified,
   * under its kind's daily cap); absent when the caller has no such e-mail or its cap is 0.
   */
  unverified?: OutgoingEmail;
}

/** What a form writes, in one D1 call. */
export interface OneCallWrite<T extends RowTable, ClaimName extends string> {
  /**
   * Judged first, before any claim, in the same transaction: a SELECT of one row of facts, and the
   * refusal they call for (null: go ahead). A refused write claims and stores nothing.
   */
  facts?: { statement: D1PreparedStatement; refusal: (facts: RawRow) => string | null };
  /** The limits, in order; the first must carry the facts' condition itself (it follows a SELECT). */
  claims: Claim<ClaimName>[];
  /**
   * Statements between the claims and the row (today's submitter record): each must change a row
   * exactly when everything before it was granted, so the chain holds.
   */
  bookkeeping?: Step[];
  row: {
    table: T;
    values: T['$inferInsert'];
    /**
     * The column and value (chosen before the insert, e.g. a booking's public id) that find the row
     * wherever in the batch: needed for a recheck and for an e-mail under a claim. Without it, what
     * follows the row is chained on it (each statement runs when the one before changed a row).
     */
    key?: { column: SQLiteColumn; value: string };
    /** A unique index may refuse the row (ON CONFLICT DO NOTHING): the batch goes on, the row does not stand. */
    mayConflict?: boolean;
  };
  /** Takes the row back (RETURNING its id) when a limit that counts rows is now exceeded; needs `row.key`. */
  recheck?: (row: RowInBatch) => BatchStatement;
  /** The e-mails about the row, queued in the same batch while it stands. */
  emails?: {
    transport: EmailTransport;
    messages: RowEmails;
    /** The claim `unverified` is queued under, made while the row stands; null when its cap is 0 (skipped). */
    unverifiedClaim?: (row: RowInBatch, message: OutgoingEmail) => BatchStatement | null;
  };
  /**
   * One more statement about the row, run while it stands (a chat session marked handed off). A
   * Drizzle query here is bound as it is: it must not use the row's placeholders, so only a row
   * without a key (found by the chain) can have one.
   */
  after?: (row: RowInBatch) => BatchStatement;
}

/** How the write ended. `results` has every statement's result by name, for the caller's bookkeeping. */
export type OneCallOutcome<ClaimName extends string> =
  | { written: false; refusedBy: 'facts'; message: string; results: NamedResults }
  | { written: false; refusedBy: ClaimName; results: NamedResults }
  /** Every claim granted, but the row does not stand: a unique index refused it, or the recheck took it back. */
  | { written: false; refusedBy: 'conflict' | 'recheck'; results: NamedResults }
  /** `unverifiedSkipped`: the kind of the `unverified` e-mail when its claim did not grant it. */
  | { written: true; id: number; mail: LoggedMessages | null; unverifiedSkipped: EmailKind | null; results: NamedResults };

/** The row found by the key chosen before its insert. */
function keyedRow(table: RowTable, key: { column: SQLiteColumn; value: string }, tableName: string): RowInBatch {
  return {
    kind: `key:${tableName}:${key.column.name}`,
    id: sql`(SELECT ${table.id} FROM ${table} WHERE ${key.column} = ${sql.placeholder('rowKey')})`,
    stands: sql`EXISTS (SELECT 1 FROM ${table} WHERE ${key.column} = ${sql.placeholder('rowKey')})`,
    values: { rowKey: key.value },
  };
}

/**
 * The row the chain just wrote: the table's newest (AUTOINCREMENT, one transaction), standing while
 * the statement before changed a row (each statement after the row does, when it runs).
 */
function chainedRow(table: RowTable, tableName: string): RowInBatch {
  return { kind: `chain:${tableName}`, id: sql`(SELECT max(${table.id}) FROM ${table})`, stands: previousChanged, values: {} };
}

/** Writes the declaration in ONE D1 call. Throws when the batch fails (nothing of it was written). */
export async function writeInOneCall<T extends RowTable, ClaimName extends string>(
  d1: D1Database,
  write: OneCallWrite<T, ClaimName>,
): Promise<OneCallOutcome<ClaimName>> {
  const db = getDb(d1);
  const { table, values, key } = write.row;
  const tableName = getTableName(table);
  const row = key ? keyedRow(table, key, tableName) : chainedRow(table, tableName);
  if (!key && (write.recheck || write.emails?.unverifiedClaim)) throw new Error('writeInOneCall: a recheck or a claimed e-mail needs the row found by a key');
  if (key && write.after) throw new Error('writeInOneCall: `after` is for a row found by the chain');

  const emails = write.emails?.messages;
  const transport = write.emails?.transport;
  const queue = (message: OutgoingEmail, when: 'row-stands' | 'previous-changed') => queuedMailStatement(db, transport!, message, row, when);
  const always = (emails?.always ?? []).map((message) => ({ message, ...queue(message, 'row-stands') }));
  const unverifiedClaim = emails?.unverified ? (write.emails?.unverifiedClaim?.(row, emails.unverified) ?? null) : null;
  const claimed = emails?.unverified && unverifiedClaim ? { message: emails.unverified, claim: unverifiedClaim, ...queue(emails.unverified, 'previous-changed') } : null;

  const steps: Step[] = [
    ...(write.facts ? [{ name: 'facts', statement: write.facts.statement }] : []),
    ...write.claims,
    ...(write.bookkeeping ?? []),
    { name: 'row', statement: rowInsertIfPreviousChanged(db, table, values, write.row.mayConflict === true) },
    ...(write.recheck ? [{ name: 'recheck', statement: write.recheck(row) }] : []),
    ...always.map((mail, i) => ({ name: `mail:${i}`, statement: mail.statement })),
    ...(write.after ? [{ name: 'after', statement: write.after(row) }] : []),
    ...(claimed ? [{ name: 'unverified-claim', statement: claimed.claim }, { name: 'mail:unverified', statement: claimed.statement }] : []),
  ];
  const results = await runNamed(d1, steps);

  const facts = rowsOf(results, 'facts')[0];
  const refusal = write.facts && facts ? write.facts.refusal(facts) : null;
  if (refusal !== null) return { written: false, refusedBy: 'facts', message: refusal, results };
  const refusedClaim = write.claims.find((claim) => rowsOf(results, claim.name).length === 0);
  if (refusedClaim) return { written: false, refusedBy: refusedClaim.name, results };
  const [inserted] = rowsOf(results, 'row');
  if (!inserted) return { written: false, refusedBy: 'conflict', results };
  if (rowsOf(results, 'recheck').length > 0) return { written: false, refusedBy: 'recheck', results };

  const id = Number(inserted.id);
  const logged = (message: OutgoingEmail, unsafe: string | null, name: string) => {
    const [log] = rowsOf(results, name);
    return log ? { message, logId: Number(log.id), unsafe } : null;
  };
  const queued = [claimed ? logged(claimed.message, claimed.unsafe, 'mail:unverified') : null, ...always.map((mail, i) => logged(mail.message, mail.unsafe, `mail:${i}`))].filter(
    (entry) => entry !== null,
  );
  const mail = queued.length ? { messages: queued.map((q) => q.message), logIds: queued.map((q) => q.logId), unsafe: queued.map((q) => q.unsafe) } : null;
  const unverifiedSkipped = emails?.unverified && rowsOf(results, 'mail:unverified').length === 0 ? emails.unverified.kind : null;
  return { written: true, id, mail, unverifiedSkipped, results };
}
