import { Hono } from 'hono';
import type { AppEnv } from '../../env';
import { validate } from '../../middleware/validate';
import { auditFilterSchema } from '#core/schemas/audit';
import { type AuditRow, auditCsv, auditRecordNames, exportAudit, listAudit } from '../../services/audit/audit-log';

/** One audit entry as the owner's screen reads it (docs/product.md §6.9). */
const toAuditEntry = (row: AuditRow, names: Map<string, string>) => ({
  id: row.id,
  at: row.at.toISOString(),
  actorId: row.actorId,
  actor: row.actor,
  action: row.action,
  record: row.record,
  /** The record's name while it exists (an account's person, a subscriber's address...), else null. */
  recordName: (row.record && names.get(row.record)) ?? null,
  outcome: row.outcome,
  network: row.network,
  /** How many events the entry stands for: more than 1 for failed sign-ins counted per network and hour. */
  count: row.count,
});

/**
 * The audit trail, read-only (docs/product.md §6.9): a filtered page of entries and the CSV export.
 * Nothing here, nor anywhere else, updates or deletes an entry (tests/admin/audit.worker.test.ts walks the
 * app's routes to hold that).
 */
export const adminAudit = new Hono<AppEnv>()
  .get('/', validate('query', auditFilterSchema), async (c) => {
    const { entries, more } = await listAudit(c.var.db, c.req.valid('query'));
    const names = await auditRecordNames(c.env.DB, entries);
    return c.json({ entries: entries.map((row) => toAuditEntry(row, names)), more }, 200);
  })
  .get('/export', validate('query', auditFilterSchema), async (c) => {
    const rows = await exportAudit(c.var.db, c.req.valid('query'));
    return c.body(auditCsv(rows), 200, {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="audit-${new Date().toISOString().slice(0, 10)}.csv"`,
      'cache-control': 'no-store',
    });
  });
