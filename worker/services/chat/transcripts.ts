import { desc } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { chatSessions } from '../../db/schema';
import type { ChatSessionRow } from './sessions';

// Conversations are purged 30 days after their last message, so the list stays short; this bounds
// the answer all the same.
const LIST_LIMIT = 500;

/** The admin's list of conversations (docs/product.md §4): newest activity first; each one's messages are loadConversation's. */
export async function listChatSessions(db: Db): Promise<ChatSessionRow[]> {
  return db.select().from(chatSessions).orderBy(desc(chatSessions.lastActivityAt), desc(chatSessions.id)).limit(LIST_LIMIT);
}
