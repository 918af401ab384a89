import { Hono } from 'hono';
import { confirmImportSchema, createImportSchema, IMPORT_TOO_MANY_ROWS, stageImportRowsSchema } from '#core/schemas/subscriber-import';
import { idParamSchema } from '#core/schemas/appointments';
import { getDb } from '../../db/client';
import type { AppEnv } from '../../env';
import { validate } from '../../middleware/validate';
import { aggregatedAuditStatement } from '../../services/audit/audit-log';
import { audit, auditEntry } from '../../middleware/audit';
import { confirmImport, createImport, findImport, importSummary, runImport, stageRows } from '../../services/newsletter/subscriber-import';

const IMPORT_NOT_FOUND = 'Import not found';

/**
 * The subscriber CSV import (docs/product.md §5.10): create, stage rows in chunks, read the dry run,
 * confirm consent, then run until done. Behind requireAdmin (routes/admin/index.ts); "who ran it"
 * is the signed-in administrator.
 */
export const adminSubscriberImports = new Hono<AppEnv>()
  .post('/', validate('json', createImportSchema), async (c) => {
    const created = await createImport(getDb(c.env.DB), { fileName: c.req.valid('json').fileName, createdBy: c.var.adminUser.username });
    await audit(c, 'subscriber.import-create', `subscriber-import:${created.id}`);
    return c.json({ id: created.id }, 201);
  })
  // The rows' path carries no id, so the 1 MB body limit can name it exactly (worker/index.ts).
  .post('/rows', validate('json', stageImportRowsSchema), async (c) => {
    const { importId, rows } = c.req.valid('json');
    const staged = await stageRows(c.env.DB, getDb(c.env.DB), importId, rows);
    if (staged === null) return c.json({ message: IMPORT_NOT_FOUND }, 404);
    if (staged === 'closed') return c.json({ message: 'This import was already confirmed; start a new one to change its rows' }, 409);
    if (staged === 'too-many') return c.json({ message: IMPORT_TOO_MANY_ROWS }, 413);
    // One entry per import, counting its chunks: a 50,000-row file is 100 requests, not 100 entries.
    await aggregatedAuditStatement(getDb(c.env.DB), auditEntry(c, 'subscriber.import-stage', `subscriber-import:${importId}`), `subscriber.import-stage:${importId}`);
    return c.json(staged, 200);
  })
  .get('/:id', validate('param', idParamSchema), async (c) => {
    const record = await findImport(getDb(c.env.DB), c.req.valid('param').id);
    if (!record) return c.json({ message: IMPORT_NOT_FOUND }, 404);
    return c.json(await importSummary(c.env.DB, record), 200);
  })
  .post('/:id/confirm', validate('param', idParamSchema), validate('json', confirmImportSchema), async (c) => {
    const db = getDb(c.env.DB);
    const result = await confirmImport(db, c.req.valid('param').id, { consent: c.req.valid('json').consent, by: c.var.adminUser.username });
    if (result === null) return c.json({ message: IMPORT_NOT_FOUND }, 404);
    if (result === 'conflict') return c.json({ message: 'This import was already confirmed with another consent choice' }, 409);
    // Whether the people's consent was "already given" (imported active, no confirmation e-mail) is on the record.
    await audit(c, result.consent === 'given' ? 'subscriber.import-consent-given' : 'subscriber.import-consent-to-confirm', `subscriber-import:${result.id}`);
    return c.json(await importSummary(c.env.DB, result), 200);
  })
  .post('/:id/run', validate('param', idParamSchema), async (c) => {
    const db = getDb(c.env.DB);
    const id = c.req.valid('param').id;
    const record = await findImport(db, id);
    if (!record) return c.json({ message: IMPORT_NOT_FOUND }, 404);
    if (record.status === 'staged') return c.json({ message: 'Confirm the import before running it' }, 409);
    const after = record.status === 'done' ? record : await runImport(c.env.DB, db, id);
    if (record.status !== 'done') await aggregatedAuditStatement(db, auditEntry(c, 'subscriber.import-run', `subscriber-import:${id}`), `subscriber.import-run:${id}`);
    return c.json({ status: after!.status, importedCount: after!.importedCount }, 200);
  });
