import { desc, eq, getTableColumns } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { emailLog } from '../../db/schema';

// Every column but the whole message a queued row holds for its transport (outbox_message): the
// log is read by staff too, and that copy carries the links' secrets (worker/mail-redaction.ts).
const { outboxMessage: _whole, ...loggedColumns } = getTableColumns(emailLog);

export type EmailLogRow = Omit<typeof emailLog.$inferSelect, 'outboxMessage'>;

/** The newest 200 entries: enough for the admin (and the tests) to see what went out. */
const LOG_LIMIT = 200;

/** The e-mail log as the admin reads it (docs/product.md §7): the newest entries first. */
export async function listEmailLog(db: Db): Promise<EmailLogRow[]> {
  return db.select(loggedColumns).from(emailLog).orderBy(desc(emailLog.createdAt), desc(emailLog.id)).limit(LOG_LIMIT);
}

/** One entry of the log, whole as the log keeps it (its links' secrets redacted), or undefined. */
export async function emailLogEntry(db: Db, id: number): Promise<EmailLogRow | undefined> {
  const [row] = await db.select(loggedColumns).from(emailLog).where(eq(emailLog.id, id)).limit(1);
  return row;
}
