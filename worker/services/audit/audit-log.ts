import { and, desc, eq, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import { buildCsv } from '#core/csv';
import { firm } from '#core/content/firm';
import { addCalendarDays, DAY_MS, zonedInstant } from '#core/firm-time';
import { AUDIT_CSV_COLUMNS, AUDIT_PAGE_SIZE, type AuditAction, type AuditFilter } from '#core/schemas/audit';
import type { Db } from '../../db/client';
import { insertIfPreviousChanged } from '../../db/granted-batch';
import { auditLog } from '../../db/schema';
import { UNKNOWN_NETWORK } from '../limits/client-ip';
import type { Prune } from '../platform/jobs';

// The audit trail (docs/product.md §6.9): who changed what in the back office, which record, when,
// from which network. Append-only: this module inserts, lists and exports; the only delete is the
// cron's retention purge (oldAuditPurge), and no route updates or deletes an entry.

export type AuditRow = typeof auditLog.$inferSelect;

/** Entries are kept 400 days (docs/product.md §6.9), then the cron deletes them. */
export const AUDIT_RETENTION_DAYS = 400;
/** Rows deleted per cron tick at most, so a backlog spreads over a few ticks. */
export const AUDIT_PURGE_BATCH = 1000;

/** Who acted: a signed-in admin (or the name typed at a failed sign-in), a visitor through a link, or the system. */
export type AuditActor = { id: number | null; username: string } | 'visitor' | 'system';

export interface AuditEntry {
  actor: AuditActor;
  action: AuditAction;
  /** kind:id, e.g. 'appointment:42'; a visitor is only ever named by such an id. */
  record?: string | null;
  /** The admin's network (limits/client-ip.ts networkOf); never stored for a visitor or the system. */
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

/**
 * The record kinds whose record the screen names beside its id ("User account 3 · Dana Lee"), and
 * the name each has while it exists: who an account or an invitation is for, a subscriber's
 * address, a newsletter's subject, a busy calendar's label. A visitor's records (appointments,
 * contact messages) stay ids (docs/product.md §6.9); an erased or deleted record has no name.
 */
const NAMED_RECORDS = {
  'admin-user': "SELECT id, CASE WHEN name <> '' THEN name ELSE username END AS name FROM admin_users",
  invitation: 'SELECT id, name FROM admin_invitations',
  subscriber: 'SELECT id, email AS name FROM newsletter_subscriptions',
  newsletter: 'SELECT id, subject AS name FROM sent_newsletters',
  'newsletter-draft': 'SELECT id, subject AS name FROM newsletter_drafts',
  'busy-calendar': 'SELECT id, label AS name FROM busy_calendars',
} as const;

/** The names of a page's named records (`kind:id` → name), in one database call (none when the page has no such record). */
export async function auditRecordNames(d1: D1Database, rows: Pick<AuditRow, 'record'>[]): Promise<Map<string, string>> {
  const wanted = new Map<keyof typeof NAMED_RECORDS, Set<number>>();
  for (const { record } of rows) {
    const match = /^([a-z-]+):(\d{1,15})$/.exec(record ?? '');
    if (!match || !Object.hasOwn(NAMED_RECORDS, match[1])) continue;
    const kind = match[1] as keyof typeof NAMED_RECORDS;
    if (!wanted.has(kind)) wanted.set(kind, new Set());
    wanted.get(kind)!.add(Number(match[2]));
  }
  if (wanted.size === 0) return new Map();
  const kinds = [...wanted.keys()];
  const query = kinds
    .map((kind, i) => `SELECT '${kind}' AS kind, id, name FROM (${NAMED_RECORDS[kind]}) WHERE id IN (SELECT value FROM json_each(?${i + 1}))`)
    .join(' UNION ALL ');
  const { results } = await d1
    .prepare(query)
    .bind(...kinds.map((kind) => JSON.stringify([...wanted.get(kind)!])))
    .all<{ kind: string; id: number; name: string | null }>();
  return new Map(results.filter((r) => r.name).map((r) => [`${r.kind}:${r.id}`, r.name!.slice(0, 200)]));
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

/**
 * The CSV export: AUDIT_CSV_COLUMNS, one line per entry, through the one CSV writer of every export
 * (core/csv.ts): every cell quoted, a formula neutralised wherever a spreadsheet could start a cell.
 */
export function auditCsv(rows: AuditRow[]): string {
  return buildCsv(
    AUDIT_CSV_COLUMNS,
    rows.map((r) => [r.at.toISOString(), r.actor, r.actorId === null ? '' : String(r.actorId), r.action, r.record ?? '', r.outcome, r.network ?? '', String(r.count)]),
  );
}

/** The statement for the housekeeping batch: deletes entries older than AUDIT_RETENTION_DAYS, oldest first. */
export function oldAuditPurge(db: Db, at: Date) {
  const cutoff = new Date(at.getTime() - AUDIT_RETENTION_DAYS * DAY_MS);
  const due = db.select({ id: auditLog.id }).from(auditLog).where(lt(auditLog.at, cutoff)).orderBy(auditLog.at).limit(AUDIT_PURGE_BATCH);
  return db.delete(auditLog).where(inArray(auditLog.id, due));
}

/** The audit floor's cleanup in the cron's housekeeping batch (worker/services/platform/jobs.ts): entries past their retention. */
export const auditPrunes: Prune[] = [{ statements: (db, at) => [oldAuditPurge(db, at)] }];

/**
 * The insert of one entry for a D1 batch, written only when the statement just before it changed a
 * row: the change was granted (e.g. a reply within its daily cap), so a refused one is never recorded as done.
 */
export const auditIfPreviousChanged = (db: Db, entry: AuditEntry) => insertIfPreviousChanged(db, auditLog, auditValues(entry));

/**
 * An entry that stands for many events of one kind (bucket: a key naming the kind, the window and
 * whatever tells them apart): the first writes the row, every later one adds 1 to its count, so a
 * burst of them costs one row, never one row each.
 */
export const aggregatedAuditStatement = (db: Db, entry: AuditEntry, bucket: string, options: { at?: Date; times?: number } = {}) => {
  const times = options.times ?? 1;
  return db
    .insert(auditLog)
    .values({ ...auditValues(entry, options.at), bucket, count: times })
    .onConflictDoUpdate({ target: auditLog.bucket, set: { count: sql`${auditLog.count} + ${times}` } });
};

/** The window failed sign-ins are counted in: one entry per network and account per hour. */
export const SIGN_IN_FAILURE_WINDOW_MS = 60 * 60 * 1000;
/** The actor of a failed sign-in to a name no account has: the name typed is not kept (it may be a password). */
export const UNKNOWN_ACCOUNT = '(unknown account)';

/**
 * The network failed sign-ins are counted under: an IPv4 address's /24, an IPv6 address's /48
 * (from the /64 networkOf keeps), so one attacker's addresses share an entry however many of
 * them a subscriber line or a hosting provider hands out.
 */
export function signInFailureNetwork(network: string): string {
  if (network === UNKNOWN_NETWORK) return network;
  const v4 = /^(\d{1,3}\.\d{1,3}\.\d{1,3})\.\d{1,3}$/.exec(network);
  if (v4) return `${v4[1]}.0/24`;
  const v6 = /^([0-9a-f]{1,4}:[0-9a-f]{1,4}:[0-9a-f]{1,4}):[0-9a-f]{1,4}::\/64$/.exec(network);
  return v6 ? `${v6[1]}::/48` : network;
}

/**
 * Records a refused sign-in (wrong password or code, unknown name, deactivated account, throttled)
 * as one entry per network, account and hour with a count (docs/product.md §6.9): an anonymous
 * burst of attempts cannot flood the trail, and the owner still sees who was tried, from where, how often.
 */
export async function recordFailedSignIn(db: Db, attempt: { account: { id: number; username: string } | null; network: string; at?: Date }): Promise<void> {
  const at = attempt.at ?? new Date();
  const network = signInFailureNetwork(attempt.network);
  const window = new Date(Math.floor(at.getTime() / SIGN_IN_FAILURE_WINDOW_MS) * SIGN_IN_FAILURE_WINDOW_MS).toISOString();
  const who = attempt.account ? `admin-user:${attempt.account.id}` : 'unknown';
  const entry: AuditEntry = {
    actor: attempt.account ?? { id: null, username: UNKNOWN_ACCOUNT },
    action: 'auth.sign-in',
    record: attempt.account ? `admin-user:${attempt.account.id}` : null,
    outcome: 'failure',
    network,
  };
  await aggregatedAuditStatement(db, entry, `auth.sign-in:failure:${window}:${network}:${who}`, { at });
}
