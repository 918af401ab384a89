import { and, count, desc, gte, isNotNull, isNull, lt, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { LIST_PAGE_SIZE, type ListPage } from '#core/schemas/admin-list';
import type { ChatListQuery } from '#core/schemas/chat';
import type { Db } from '../../db/client';
import { chatMessages, chatSessions, contactMessages } from '../../db/schema';
import { firmDayRange, likePattern, pageOffset } from '../platform/list-page';
import type { ChatSessionRow } from './sessions';

function chatListConditions(query: ChatListQuery, timeZone: string): SQL | undefined {
  const where: (SQL | undefined)[] = [];
  if (query.q) {
    // Any message of the conversation, and the name, e-mail and phone the visitor left when asking
    // for a person (the hand-off's contact message). The pattern escapes % _ and \ (platform/list-page.ts).
    const pattern = likePattern(query.q);
    const like = (column: SQLWrapper) => sql`${column} LIKE ${pattern} ESCAPE '\\'`;
    where.push(sql`(${like(chatSessions.firstQuestion)}
      OR EXISTS (SELECT 1 FROM ${chatMessages} WHERE ${chatMessages.sessionId} = ${chatSessions.id} AND ${like(chatMessages.content)})
      OR EXISTS (SELECT 1 FROM ${contactMessages} WHERE ${contactMessages.id} = ${chatSessions.contactMessageId}
        AND (${like(contactMessages.name)} OR ${like(contactMessages.email)} OR ${like(contactMessages.phone)})))`);
  }
  if (query.status === 'handed-off') where.push(isNotNull(chatSessions.handedOffAt));
  if (query.status === 'assistant-only') where.push(isNull(chatSessions.handedOffAt));
  const { start, end } = firmDayRange(query.from, query.to, timeZone);
  if (start) where.push(gte(chatSessions.lastActivityAt, start));
  if (end) where.push(lt(chatSessions.lastActivityAt, end));
  return and(...where);
}

/**
 * The admin's list of conversations (docs/product.md §4): one page of those matching the query,
 * newest activity first, and how many match in all; each one's messages are loadConversation's.
 */
export async function searchChatSessions(db: Db, query: ChatListQuery, timeZone: string): Promise<ListPage<ChatSessionRow>> {
  const where = chatListConditions(query, timeZone);
  const [items, [{ total }]] = await db.batch([
    db
      .select()
      .from(chatSessions)
      .where(where)
      .orderBy(desc(chatSessions.lastActivityAt), desc(chatSessions.id))
      .limit(LIST_PAGE_SIZE)
      .offset(pageOffset(query.page)),
    db.select({ total: count() }).from(chatSessions).where(where),
  ]);
  return { items, total, page: query.page, pageSize: LIST_PAGE_SIZE };
}

