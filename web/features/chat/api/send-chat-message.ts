import type { ChatReply } from '../../../../worker/schemas/chat';
import { apiRequest } from '../../../lib/query-client';

/** POST /api/chat: only the visitor's message and the widget's session id leave the browser. */
export async function sendChatMessage(message: string, sessionId: string): Promise<ChatReply> {
  const res = await apiRequest('POST', '/api/chat', { message, sessionId });
  const reply = (await res.json()) as Partial<ChatReply>;
  if (reply.role !== 'assistant' || typeof reply.content !== 'string' || !reply.content) {
    throw new Error('Unexpected chat reply');
  }
  return { role: 'assistant', content: reply.content };
}
