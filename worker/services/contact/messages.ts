import { desc, eq, getTableColumns, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { contactMessages } from '../../db/schema';

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
