import { and, inArray, lt, ne } from 'drizzle-orm';
import { DAY_MS } from '#core/firm-time';
import type { Db } from '../../db/client';
import { emailLog } from '../../db/schema';
import type { Prune } from '../platform/jobs';

/**
 * E-mail bodies in the log are kept 90 days (docs/product.md §8): long enough for the
 * firm to see what it sent and to answer a question about it; after that the text, HTML, headers
 * and attachments are blanked, because they carry whatever a visitor wrote (their links' tokens
 * were never kept: worker/mail-redaction.ts). The row stays: who was mailed what subject when, and how delivery went.
 */
export const EMAIL_BODY_RETENTION_DAYS = 90;
/** Rows blanked per cron tick at most, so a large newsletter crossing the line spreads over a few ticks. */
export const EMAIL_BODY_PURGE_BATCH = 1000;

/**
 * The statement for the housekeeping batch (worker/services/platform/jobs.ts, housekeepingJob). It reads only rows not yet
 * blanked, through the partial index email_log_body_kept_idx (text_body <> ''), and blanks them.
 */
export function oldEmailBodiesPurge(db: Db, at: Date) {
  const cutoff = new Date(at.getTime() - EMAIL_BODY_RETENTION_DAYS * DAY_MS);
  const due = db
    .select({ id: emailLog.id })
    .from(emailLog)
    .where(and(ne(emailLog.textBody, ''), lt(emailLog.createdAt, cutoff)))
    .orderBy(emailLog.createdAt)
    .limit(EMAIL_BODY_PURGE_BATCH);
  return db
    .update(emailLog)
    .set({ textBody: '', htmlBody: null, headers: null, attachments: null, outboxMessage: null, updatedAt: at })
    .where(inArray(emailLog.id, due));
}

/** The e-mail log's old bodies, in the cron's housekeeping batch (worker/services/platform/jobs.ts). */
export const emailPrunes: Prune[] = [{ statements: (db, at) => [oldEmailBodiesPurge(db, at)] }];
