import { Hono } from 'hono';
import { confirmImportSchema, createImportSchema, IMPORT_TOO_MANY_ROWS, stageImportRowsSchema } from '#core/schemas/subscriber-import';
import { idParamSchema } from '#core/schemas/appointments';
import type { AppEnv } from '../../env';
import { validate } from '../../middleware/validate';
import { aggregatedAuditStatement } from '../../services/audit/audit-log';
import { audit, auditEntry } from '../../middleware/audit';
import { confirmConsent, createImport, importStatus, runConfirmedImport, stageRows } from '../../services/newsletter';

const IMPORT_NOT_FOUND = 'Import not found';

/**
 * The subscriber CSV import (docs/product.md §5.10): create, stage rows in chunks, read the dry run,
 * confirm consent, then run until done. Behind requireAdmin (routes/admin/index.ts); "who ran it"
 * is the signed-in administrator.
 */
export const adminSubscriberImports = new Hono<AppEnv>()
  .post('/', validate('json', createImportSchema), async (c) => {
    const created = await createImport(c.var.db, { fileName: c.req.valid('json').fileName, createdBy: c.var.adminUser.username });
    await audit(c, 'subscriber.import-create', `subscriber-import:${created.id}`);
    return c.json({ id: created.id }, 201);
  })
  // The rows' path carries no id, so the 1 MB body limit can name it exactly (worker/index.ts).
  .post('/rows', validate('json', stageImportRowsSchema), async (c) => {
    const { importId, rows } = c.req.valid('json');
    const result = await stageRows(c.env.DB, c.var.db, importId, rows);
    if (!result.ok && result.reason === 'not-found') return c.json({ message: IMPORT_NOT_FOUND }, 404);
    if (!result.ok && result.reason === 'closed') return c.json({ message: 'This import was already confirmed; start a new one to change its rows' }, 409);
    if (!result.ok) return c.json({ message: IMPORT_TOO_MANY_ROWS }, 413);
    // One entry per import, counting its chunks: a 50,000-row file is 100 requests, not 100 entries.
    await aggregatedAuditStatement(c.var.db, auditEntry(c, 'subscriber.import-stage', `subscriber-import:${importId}`), `subscriber.import-stage:${importId}`);
    return c.json({ staged: result.staged }, 200);
  })
  .get('/:id', validate('param', idParamSchema), async (c) => {
    const summary = await importStatus(c.env.DB, c.var.db, c.req.valid('param').id);
    if (!summary) return c.json({ message: IMPORT_NOT_FOUND }, 404);
    return c.json(summary, 200);
  })
  .post('/:id/confirm', validate('param', idParamSchema), validate('json', confirmImportSchema), async (c) => {
    const result = await confirmConsent(c.env.DB, c.var.db, c.req.valid('param').id, { consent: c.req.valid('json').consent, by: c.var.adminUser.username });
    if (!result.ok && result.reason === 'not-found') return c.json({ message: IMPORT_NOT_FOUND }, 404);
    if (!result.ok) return c.json({ message: 'This import was already confirmed with another consent choice' }, 409);
    // Whether the people's consent was "already given" (imported active, no confirmation e-mail) is on the record.
    await audit(c, result.record.consent === 'given' ? 'subscriber.import-consent-given' : 'subscriber.import-consent-to-confirm', `subscriber-import:${result.record.id}`);
    return c.json(result.summary, 200);
  })
  .post('/:id/run', validate('param', idParamSchema), async (c) => {
    const id = c.req.valid('param').id;
    const result = await runConfirmedImport(c.env.DB, c.var.db, id);
    if (!result.ok) return result.reason === 'not-found' ? c.json({ message: IMPORT_NOT_FOUND }, 404) : c.json({ message: 'Confirm the import before running it' }, 409);
    if (result.ran) await aggregatedAuditStatement(c.var.db, auditEntry(c, 'subscriber.import-run', `subscriber-import:${id}`), `subscriber.import-run:${id}`);
    return c.json({ status: result.status, importedCount: result.importedCount }, 200);
  });
