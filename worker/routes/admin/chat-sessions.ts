import { Hono } from 'hono';
import * as z from 'zod/v4';
import type { AppEnv } from '../../env';
import { validate } from '../../middleware/validate';
import { loadConversation, searchChatSessions, type ChatMessageRow as MessageRow, type ChatSessionRow as SessionRow } from '../../services/chat';
import { firm } from '#core/content/firm';
import { chatListQuerySchema } from '#core/schemas/chat';

/** One conversation in the admin's list: dates as ISO strings, absent values as null. */
export type ChatSessionSummary = {
  id: string;
  startedAt: string;
  lastActivityAt: string;
  messageCount: number;
  firstQuestion: string;
  handedOff: boolean;
  handedOffAt: string | null;
  contactMessageId: number | null;
};

/** One turn of a transcript; `refused` marks an exchange a guard rail refused (worker/db/schema.ts). */
export type ChatTranscriptMessage = {
  id: number;
  role: 'user' | 'assistant';
  content: string;
  refused: boolean;
  createdAt: string;
};

export const toChatSessionSummary = (row: SessionRow): ChatSessionSummary => ({
  id: row.id,
  startedAt: row.startedAt.toISOString(),
  lastActivityAt: row.lastActivityAt.toISOString(),
  messageCount: row.messageCount,
  firstQuestion: row.firstQuestion,
  handedOff: row.handedOffAt !== null,
  handedOffAt: row.handedOffAt ? row.handedOffAt.toISOString() : null,
  contactMessageId: row.contactMessageId,
});

const toTranscriptMessage = (row: MessageRow): ChatTranscriptMessage => ({
  id: row.id,
  role: row.role,
  content: row.content,
  refused: row.refused,
  createdAt: row.createdAt.toISOString(),
});

// The widget's session id is a random UUID (core/schemas/chat.ts), so anything else cannot name one.
const chatSessionParamSchema = z.object({ id: z.uuid({ error: 'Invalid chat session' }) });

/**
 * The chat transcripts (docs/product.md §4): the conversations, searched and paged (50 a page,
 * newest activity first; core/schemas/admin-list.ts), and each one's messages.
 */
export const adminChatSessions = new Hono<AppEnv>()
  .get('/', validate('query', chatListQuerySchema), async (c) => {
    const page = await searchChatSessions(c.var.db, c.req.valid('query'), firm.timeZone);
    return c.json({ ...page, items: page.items.map(toChatSessionSummary) }, 200);
  })
  .get('/:id', validate('param', chatSessionParamSchema), async (c) => {
    const conversation = await loadConversation(c.var.db, c.req.valid('param').id);
    if (!conversation) return c.json({ message: 'Chat session not found' }, 404);
    return c.json({ session: toChatSessionSummary(conversation.session), messages: conversation.messages.map(toTranscriptMessage) }, 200);
  });
