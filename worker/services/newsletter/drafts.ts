import { and, desc, eq, inArray, lte, or, sql } from 'drizzle-orm';
import { firm } from '#core/content/firm';
import { timeZoneAbbreviation, zonedInstant } from '#core/firm-time';
import type { Db } from '../../db/client';
import { newsletterDrafts, sentNewsletters } from '../../db/schema';
import { sanitizeHtml } from './sanitize-html';
import { countActiveSubscribers, createNewsletter, DraftAlreadySentError } from './store';

/**
 * The administrator's drafts and one-off scheduled issues (docs/product.md §5.9). A draft is saved
 * sanitised (what the editor previews is what goes out), may be scheduled for a minute in the
 * firm's time zone, rescheduled or cancelled while it waits; the cron (worker/cron.ts) claims a due
 * one with a conditional UPDATE, so overlapping ticks claim it once, then creates its newsletter
 * through createNewsletter (store.ts) and sends it like any other (send-now.ts, sender.ts).
 */

export type DraftRow = typeof newsletterDrafts.$inferSelect;
type DraftStatus = DraftRow['status'];

/** States whose subject, content and schedule may still change. */
const EDITABLE: DraftStatus[] = ['draft', 'scheduled', 'cancelled'];

export const NO_SUBSCRIBERS_ERROR = 'There were no active subscribers at the scheduled time: not sent';
export const EMPTY_CONTENT_ERROR = 'The content was empty once unsafe HTML was removed: not sent';

const touch = sql`(cast(unixepoch('subsec') * 1000 as integer))`;

export function toDraft(row: DraftRow) {
  return {
    id: row.id,
    subject: row.subject,
    content: row.content,
    status: row.status,
    scheduledAt: row.scheduledAt ? row.scheduledAt.toISOString() : null,
    newsletterId: row.newsletterId,
    error: row.error,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Whether sanitised HTML has any text left to read. */
export function hasText(html: string): boolean {
  return html.replace(/<[^>]*>/g, '').replace(/&nbsp;/g, ' ').trim().length > 0;
}

/** Scheduled ones first (soonest first), then the rest, most recently changed first. */
export async function listDrafts(db: Db) {
  const rows = await db
    .select()
    .from(newsletterDrafts)
    .orderBy(sql`CASE WHEN ${newsletterDrafts.status} = 'scheduled' THEN 0 ELSE 1 END`, newsletterDrafts.scheduledAt, desc(newsletterDrafts.updatedAt), desc(newsletterDrafts.id));
  return rows.map(toDraft);
}

export async function getDraft(db: Db, id: number) {
  return db.query.newsletterDrafts.findFirst({ where: eq(newsletterDrafts.id, id) });
}

export async function createDraft(db: Db, input: { subject: string; content: string }) {
  const [row] = await db
    .insert(newsletterDrafts)
    .values({ subject: input.subject, content: sanitizeHtml(input.content) })
    .returning();
  return row;
}

export type DraftChange<T> = { outcome: 'ok'; draft: T } | { outcome: 'not-found' } | { outcome: 'not-editable'; status: DraftStatus } | { outcome: 'empty-content' };

/** Why a conditional UPDATE changed nothing: no such draft, or it is past changing. */
async function whyUnchanged(db: Db, id: number): Promise<{ outcome: 'not-found' } | { outcome: 'not-editable'; status: DraftStatus }> {
  const row = await getDraft(db, id);
  return row ? { outcome: 'not-editable', status: row.status } : { outcome: 'not-found' };
}

/**
 * Saves subject and content while the draft has not started; a scheduled one keeps its time (and must
 * keep some text). A scheduled issue is a send in waiting: the cron sends whatever it holds at its
 * minute, so only an account that may send newsletters may change it (`maySend`, docs/product.md
 * §6.8). The rule is in the UPDATE's WHERE, so an issue scheduled between the editor's read and
 * this write is refused too, never rewritten.
 */
export async function updateDraft(
  db: Db,
  id: number,
  input: { subject: string; content: string; maySend: boolean },
): Promise<DraftChange<DraftRow> | { outcome: 'needs-send-permission' }> {
  const content = sanitizeHtml(input.content);
  const unscheduled: DraftStatus[] = ['draft', 'cancelled'];
  const [row] = await db
    .update(newsletterDrafts)
    .set({ subject: input.subject, content, updatedAt: touch })
    .where(and(eq(newsletterDrafts.id, id), inArray(newsletterDrafts.status, input.maySend && hasText(content) ? EDITABLE : unscheduled)))
    .returning();
  if (row) return { outcome: 'ok', draft: row };
  const why = await whyUnchanged(db, id);
  if (why.outcome !== 'not-editable' || why.status !== 'scheduled') return why;
  return input.maySend ? { outcome: 'empty-content' } : { outcome: 'needs-send-permission' };
}

/**
 * The editor's "Schedule": a date and time of day in the firm's zone, which must be in the future
 * (`in-the-past` otherwise), then scheduleDraft. The answer carries the instant it was set for.
 */
export async function scheduleDraftFor(
  db: Db,
  id: number,
  when: { date: string; time: string },
  now = Date.now(),
): Promise<(DraftChange<DraftRow> & { at: Date }) | { outcome: 'in-the-past' }> {
  const [hours, minutes] = when.time.split(':').map(Number);
  const at = zonedInstant(when.date, hours * 60 + minutes, firm.timeZone);
  if (at.getTime() <= now) return { outcome: 'in-the-past' };
  return { ...(await scheduleDraft(db, id, at)), at };
}

/** Schedules (or reschedules) a draft for `at`, which the caller checked is in the future. */
export async function scheduleDraft(db: Db, id: number, at: Date): Promise<DraftChange<DraftRow>> {
  const row = await getDraft(db, id);
  if (!row) return { outcome: 'not-found' };
  if (!EDITABLE.includes(row.status)) return { outcome: 'not-editable', status: row.status };
  if (!hasText(row.content)) return { outcome: 'empty-content' };
  const [updated] = await db
    .update(newsletterDrafts)
    .set({ status: 'scheduled', scheduledAt: at, error: null, updatedAt: touch })
    .where(and(eq(newsletterDrafts.id, id), inArray(newsletterDrafts.status, EDITABLE)))
    .returning();
  return updated ? { outcome: 'ok', draft: updated } : whyUnchanged(db, id);
}

/** Cancels a scheduled draft, only while the cron has not claimed it. */
export async function cancelScheduledDraft(db: Db, id: number): Promise<DraftChange<DraftRow>> {
  const [row] = await db
    .update(newsletterDrafts)
    .set({ status: 'cancelled', updatedAt: touch })
    .where(and(eq(newsletterDrafts.id, id), eq(newsletterDrafts.status, 'scheduled')))
    .returning();
  return row ? { outcome: 'ok', draft: row } : whyUnchanged(db, id);
}

/** Deletes a draft that never went out (draft or cancelled). */
export async function deleteDraft(db: Db, id: number): Promise<DraftChange<true>> {
  const [row] = await db
    .delete(newsletterDrafts)
    .where(and(eq(newsletterDrafts.id, id), inArray(newsletterDrafts.status, ['draft', 'cancelled'])))
    .returning({ id: newsletterDrafts.id });
  return row ? { outcome: 'ok', draft: true } : whyUnchanged(db, id);
}

/**
 * Claims the earliest due scheduled draft for this tick, in one statement: a draft whose time has
 * come, or one claimed by a tick that died before recording its newsletter (claimed more than
 * `leaseMs` ago). The UPDATE re-checks the condition on the row it changes, so two overlapping
 * ticks never both claim it; even if they did, sent_newsletters.draft_id is UNIQUE.
 */
export async function claimDueDraft(db: Db, at: Date, leaseMs: number): Promise<DraftRow | undefined> {
  const due = or(
    and(eq(newsletterDrafts.status, 'scheduled'), lte(newsletterDrafts.scheduledAt, at)),
    and(eq(newsletterDrafts.status, 'sending'), lte(newsletterDrafts.claimedAt, new Date(at.getTime() - leaseMs))),
  );
  const [row] = await db
    .update(newsletterDrafts)
    .set({ status: 'sending', claimedAt: at, updatedAt: touch })
    .where(
      and(
        due,
        inArray(
          newsletterDrafts.id,
          db.select({ id: newsletterDrafts.id }).from(newsletterDrafts).where(due).orderBy(newsletterDrafts.scheduledAt, newsletterDrafts.id).limit(1),
        ),
      ),
    )
    .returning();
  return row;
}

export type DueDraftResult =
  | { outcome: 'created'; newsletterId: number; draftId: number }
  | { outcome: 'none' | 'already-sent' | 'no-subscribers' | 'empty-content'; draftId?: number };

/**
 * The cron's part (worker/cron.ts through send-now.ts): claims the due draft, if any, and records
 * its newsletter and recipient ledger (the draft is marked sent in the same transaction). A draft
 * that cannot go out (no active subscriber, no text) is cancelled with the reason, never retried
 * every minute.
 */
export async function startDueDraft(db: Db, at: Date, leaseMs: number): Promise<DueDraftResult> {
  const draft = await claimDueDraft(db, at, leaseMs);
  if (!draft) return { outcome: 'none' };
  const content = sanitizeHtml(draft.content);
  const refuse = async (outcome: 'no-subscribers' | 'empty-content', error: string): Promise<DueDraftResult> => {
    await db.update(newsletterDrafts).set({ status: 'cancelled', claimedAt: null, error, updatedAt: touch }).where(eq(newsletterDrafts.id, draft.id));
    return { outcome, draftId: draft.id };
  };
  if (!hasText(content)) return refuse('empty-content', EMPTY_CONTENT_ERROR);
  if ((await countActiveSubscribers(db)) === 0) return refuse('no-subscribers', NO_SUBSCRIBERS_ERROR);
  try {
    const created = await createNewsletter(db, { subject: draft.subject, content, trigger: 'scheduled', draftId: draft.id, cronAudit: { action: 'newsletter.scheduled-send', at } });
    return { outcome: 'created', newsletterId: created.id, draftId: draft.id };
  } catch (error) {
    if (!(error instanceof DraftAlreadySentError)) throw error;
    // Another tick recorded it: link the draft to that newsletter, which the cron goes on sending.
    await db
      .update(newsletterDrafts)
      .set({ status: 'sent', claimedAt: null, newsletterId: sql`(SELECT ${sentNewsletters.id} FROM ${sentNewsletters} WHERE ${sentNewsletters.draftId} = ${draft.id})` })
      .where(eq(newsletterDrafts.id, draft.id));
    return { outcome: 'already-sent', draftId: draft.id };
  }
}

/** A wall-clock minute in the firm's zone, for messages ("Thursday, December 3, 2026 at 9:00 AM ET"). */
export function firmWhen(at: Date): string {
  return `${new Intl.DateTimeFormat('en-US', { timeZone: firm.timeZone, dateStyle: 'full', timeStyle: 'short' }).format(at)} ${timeZoneAbbreviation(firm.timeZone)}`;
}
