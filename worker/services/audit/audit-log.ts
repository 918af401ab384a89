import { and, desc, eq, gte, inArray, lt, type SQL } from 'drizzle-orm';
import type { Context } from 'hono';
import { firm } from '#core/content/firm';
import { addCalendarDays, zonedInstant } from '#core/firm-time';
import { AUDIT_CSV_COLUMNS, AUDIT_PAGE_SIZE, type AuditAction, type AuditFilter } from '#core/schemas/audit';
import { type Db, getDb } from '../../db/client';
import { insertIfPreviousChanged } from '../../db/granted-batch';
import { auditLog } from '../../db/schema';
import type { AppEnv } from '../../env';
import { clientNetwork } from '../limits/client-ip';

// The audit trail (docs/product.md §6.9): who changed what in the back office, which record, when,
// from which network. Append-only: this module inserts, lists and exports; the only delete is the
// cron's retention purge (oldAuditPurge), and no route updates or deletes an entry.

export type AuditRow = typeof auditLog.$inferSelect;

/** Entries are kept 400 days (docs/product.md §6.9), then the cron deletes them. */
export const AUDIT_RETENTION_DAYS = 400;
/** Rows deleted per cron tick at most, so a backlog spreads over a few ticks. */
export const AUDIT_PURGE_BATCH = 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Who acted: a signed-in admin (or the name typed at a failed sign-in), a visitor through a link, or the system. */
export type AuditActor = { id: number | null; username: string } | 'visitor' | 'system';

export interface AuditEntry {
  actor: AuditActor;
  action: AuditAction;
  /** kind:id, e.g. 'appointment:42'; a visitor is only ever named by such an id. */
  record?: string | null;
  /** The admin's network (clientNetwork); never stored for a visitor or the system. */
  network?: string | null;
  outcome?: 'success' | 'failure';
}

/** The row of an entry. A visitor's or the system's entry keeps no network: a visitor's data is limited to ids. */
function auditValues(entry: AuditEntry, at = new Date()) {
  const person = typeof entry.actor === 'object' ? entry.actor : null;
  return {
    at,
    actorId: person?.id ?? null,
    actor: person ? person.username.slice(0, 100) : (entry.actor as string),
    action: entry.action,
    record: entry.record ?? null,
    outcome: entry.outcome ?? 'success',
    network: person ? (entry.network ?? null) : null,
  };
}

/** The insert of one entry, for the caller's own D1 batch (db.batch) when the change itself is one. */
export const auditStatement = (db: Db, entry: AuditEntry) => db.insert(auditLog).values(auditValues(entry));

/** Records one entry on its own: right after a change that succeeded, or a failed sign-in. */
export async function recordAudit(db: Db, entry: AuditEntry): Promise<void> {
  await auditStatement(db, entry);
}

/** An entry for this request's signed-in admin (c.var.adminUser) from this request's network. */
export function auditEntry(c: Context<AppEnv>, action: AuditAction, record?: string | null): AuditEntry {
  return { actor: c.get('adminUser'), action, record: record ?? null, network: clientNetwork(c) };
}

/** A filter's conditions: actor and action exactly, and the firm days from..to (inclusive, in the firm's time zone). */
function filterConditions(filter: AuditFilter): SQL[] {
  const conditions: SQL[] = [];
  if (filter.actor) conditions.push(eq(auditLog.actor, filter.actor));
  if (filter.action) conditions.push(eq(auditLog.action, filter.action));
  if (filter.from) conditions.push(gte(auditLog.at, zonedInstant(filter.from, 0, firm.timeZone)));
  if (filter.to) conditions.push(lt(auditLog.at, zonedInstant(addCalendarDays(filter.to, 1), 0, firm.timeZone)));
  return conditions;
}

/** One page of entries, newest first (AUDIT_PAGE_SIZE), older than `before` when given. */
export async function listAudit(db: Db, filter: AuditFilter): Promise<{ entries: AuditRow[]; more: boolean }> {
  const conditions = filterConditions(filter);
  if (filter.before) conditions.push(lt(auditLog.id, filter.before));
  const rows = await db
    .select()
    .from(auditLog)
    .where(and(...conditions))
    .orderBy(desc(auditLog.id))
    .limit(AUDIT_PAGE_SIZE + 1);
  return { entries: rows.slice(0, AUDIT_PAGE_SIZE), more: rows.length > AUDIT_PAGE_SIZE };
}

/** The longest export: 400 days of a busy office fit; past it the export says it was cut. */
export const AUDIT_EXPORT_LIMIT = 50_000;

/** Every entry matching the filter, newest first, up to AUDIT_EXPORT_LIMIT. */
export async function exportAudit(db: Db, filter: AuditFilter): Promise<AuditRow[]> {
  return db
    .select()
    .from(auditLog)
    .where(and(...filterConditions(filter)))
    .orderBy(desc(auditLog.id))
    .limit(AUDIT_EXPORT_LIMIT);
}

// A cell starting with = + - @ (or tab / CR) is read as a formula by spreadsheets: prefixed with '.
const csvCell = (value: string) => {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
};

/** The CSV export: AUDIT_CSV_COLUMNS, one line per entry, CRLF line ends (RFC 4180). */
export function auditCsv(rows: AuditRow[]): string {
  const lines = [AUDIT_CSV_COLUMNS.join(',')];
  for (const r of rows) {
    lines.push([r.at.toISOString(), r.actor, r.actorId === null ? '' : String(r.actorId), r.action, r.record ?? '', r.outcome, r.network ?? ''].map(csvCell).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}

/** The statement for the housekeeping batch: deletes entries older than AUDIT_RETENTION_DAYS, oldest first. */
export function oldAuditPurge(db: Db, at: Date) {
  const cutoff = new Date(at.getTime() - AUDIT_RETENTION_DAYS * DAY_MS);
  const due = db.select({ id: auditLog.id }).from(auditLog).where(lt(auditLog.at, cutoff)).orderBy(auditLog.at).limit(AUDIT_PURGE_BATCH);
  return db.delete(auditLog).where(inArray(auditLog.id, due));
}

/**
 * Records this request's admin's change, after it succeeded (never a refused one):
 * `await audit(c, 'appointment.confirm', 'appointment:42')`.
 */
export async function audit(c: Context<AppEnv>, action: AuditAction, record?: string | null): Promise<void> {
  await recordAudit(getDb(c.env.DB), auditEntry(c, action, record));
}

/**
 * The insert of one entry for a D1 batch, written only when the statement just before it changed a
 * row: the change was granted (e.g. a reply within its daily cap), so a refused one is never recorded as done.
 */
export const auditIfPreviousChanged = (db: Db, entry: AuditEntry) => insertIfPreviousChanged(db, auditLog, auditValues(entry));
