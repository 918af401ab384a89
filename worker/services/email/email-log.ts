import { desc } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { emailLog } from '../../db/schema';

export type EmailLogRow = typeof emailLog.$inferSelect;

/** The newest 200 entries: enough for the admin (and the tests) to see what went out. */
const LOG_LIMIT = 200;

/** The e-mail log as the admin reads it (docs/product.md §7): the newest entries first. */
export async function listEmailLog(db: Db): Promise<EmailLogRow[]> {
  return db.select().from(emailLog).orderBy(desc(emailLog.createdAt), desc(emailLog.id)).limit(LOG_LIMIT);
}
