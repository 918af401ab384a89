import type { ChatReply } from '../../../../worker/schemas/chat';
import { api, okJson } from '../../../lib/api';

/** POST /api/chat: only the visitor's message and the widget's session id leave the browser. */
export async function sendChatMessage(message: string, sessionId: string): Promise<ChatReply> {
  const reply = await okJson(api.chat.$post({ json: { message, sessionId } }));
  // The types say what the route sends; an empty answer would still be an empty bubble.
  if (reply.role !== 'assistant' || !reply.content) {
    throw new Error('Unexpected chat reply');
  }
  return { role: 'assistant', content: reply.content };
}
