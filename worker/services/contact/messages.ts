import { and, type Column, desc, eq, getTableColumns, gte, isNotNull, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import { firm } from '#core/content/firm';
import type { InboxQuery } from '#core/schemas/contact';
import type { Db } from '../../db/client';
import { contactMessages } from '../../db/schema';
import { firmDayRange, likePattern, pageOffset } from '../platform/list-page';
import { LIST_PAGE_SIZE } from '#core/schemas/admin-list';

// The admin inbox (docs/product.md §2 and §6.2): the contact messages and their read marker. The
// messages themselves are written by POST /api/contact and the chat hand-off
// (worker/services/limits/submission-limits.ts).

export type ContactMessageRow = typeof contactMessages.$inferSelect;

// The inbox shows at most this many messages; the firm receives at most 80 submissions a day.
const INBOX_LIMIT = 1000;

/** A message with the time of its latest reply from the inbox (null: not replied). */
export type InboxMessageRow = ContactMessageRow & { lastRepliedAt: Date | null };

// Written out with its table names: Drizzle leaves a column of the selected table unqualified here,
// and an unqualified "id" inside the subquery would be contact_replies.id.
const lastRepliedAt = sql<number | null>`(select max(r.created_at) from contact_replies r where r.contact_message_id = "contact_messages"."id")`;

const hasReply = sql`exists (select 1 from contact_replies r where r.contact_message_id = "contact_messages"."id")`;

/** What the inbox's search narrows to (core/schemas/contact.ts inboxQuerySchema). */
function inboxConditions(query: InboxQuery): SQL[] {
  const conditions: SQL[] = [];
  if (query.q) {
    const pattern = likePattern(query.q);
    const like = (column: Column) => sql`${column} LIKE ${pattern} ESCAPE '\\'`;
    conditions.push(or(like(contactMessages.name), like(contactMessages.email), like(contactMessages.phone), like(contactMessages.message))!);
  }
  // Archived messages are only under their own filter; every other view is the inbox's.
  if (query.status === 'archived') conditions.push(isNotNull(contactMessages.archivedAt));
  else conditions.push(isNull(contactMessages.archivedAt));
  if (query.status === 'unread') conditions.push(isNull(contactMessages.readAt));
  if (query.status === 'read') conditions.push(isNotNull(contactMessages.readAt));
  if (query.status === 'replied') conditions.push(hasReply);
  const { start, end } = firmDayRange(query.from, query.to, firm.timeZone);
  if (start) conditions.push(gte(contactMessages.createdAt, start));
  if (end) conditions.push(lt(contactMessages.createdAt, end));
  return conditions;
}

/** One page of the inbox's search, and its figures: what matches in all, unread in the inbox, every message. */
export interface InboxPage {
  rows: InboxMessageRow[];
  total: number;
  /** Unread messages in the inbox (not archived), whatever is searched. */
  unread: number;
  /** Every message the firm has received, archived ones too ("Total Messages"). */
  all: number;
}

/**
 * The inbox's search (docs/product.md §6.2): newest first, LIST_PAGE_SIZE a page, with its figures,
 * read in one round trip.
 */
export async function searchContactMessages(db: Db, query: InboxQuery): Promise<InboxPage> {
  const where = and(...inboxConditions(query));
  const [rows, [matching], [figures]] = await db.batch([
    db
      .select({ ...getTableColumns(contactMessages), lastRepliedAt })
      .from(contactMessages)
      .where(where)
      .orderBy(desc(contactMessages.createdAt), desc(contactMessages.id))
      .limit(LIST_PAGE_SIZE)
      .offset(pageOffset(query.page)),
    db.select({ total: sql<number>`count(*)` }).from(contactMessages).where(where),
    db
      .select({
        all: sql<number>`count(*)`,
        unread: sql<number>`coalesce(sum(${contactMessages.readAt} is null and ${contactMessages.archivedAt} is null), 0)`,
      })
      .from(contactMessages),
  ]);
  return {
    rows: rows.map((row) => ({ ...row, lastRepliedAt: row.lastRepliedAt === null ? null : new Date(row.lastRepliedAt) })),
    total: matching.total,
    unread: figures.unread,
    all: figures.all,
  };
}

/** Every contact message, newest first (at most 1000), each with its latest reply's time. */
export async function listContactMessages(db: Db): Promise<InboxMessageRow[]> {
  const rows = await db
    .select({ ...getTableColumns(contactMessages), lastRepliedAt })
    .from(contactMessages)
    .orderBy(desc(contactMessages.createdAt), desc(contactMessages.id))
    .limit(INBOX_LIMIT);
  return rows.map((row) => ({ ...row, lastRepliedAt: row.lastRepliedAt === null ? null : new Date(row.lastRepliedAt) }));
}

/** One contact message, or undefined. */
export async function findContactMessage(db: Db, id: number): Promise<ContactMessageRow | undefined> {
  const [row] = await db.select().from(contactMessages).where(eq(contactMessages.id, id));
  return row;
}

/** Marks a message read (now) or unread; the changed row, or undefined when there is none with that id. */
export async function markContactMessageRead(db: Db, id: number, read: boolean): Promise<ContactMessageRow | undefined> {
  const [row] = await db
    .update(contactMessages)
    .set({ readAt: read ? new Date() : null })
    .where(eq(contactMessages.id, id))
    .returning();
  return row;
}

/**
 * Archives a message (now; an archived one keeps its first time) or brings it back to the inbox;
 * the changed row, or undefined when there is none with that id.
 */
export async function archiveContactMessage(db: Db, id: number, archived: boolean): Promise<ContactMessageRow | undefined> {
  const [row] = await db
    .update(contactMessages)
    .set({ archivedAt: archived ? sql`coalesce(${contactMessages.archivedAt}, ${Date.now()})` : null })
    .where(eq(contactMessages.id, id))
    .returning();
  return row;
}
