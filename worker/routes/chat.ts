import { Hono } from 'hono';
import { getDb } from '../db/client';
import { chatMessages } from '../db/schema';
import type { AppEnv } from '../env';
import { validate } from '../middleware/validate';
import { chatRequestSchema, type ChatReply } from '../schemas/chat';
import { answerQuestion, chatModelsFor, recentTurns } from '../services/chat/answer';
import { takeChatAllowance } from '../services/chat/throttle';
import { clientIp, hashIp } from '../services/client-ip';

export const CHAT_THROTTLED_MESSAGE = 'Too many messages in a short time. Please wait a few minutes and try again.';

/** POST /api/chat: one visitor message in, one assistant reply out; both turns stored. */
export const chat = new Hono<AppEnv>().post('/', validate('json', chatRequestSchema), async (c) => {
  const { message, sessionId } = c.req.valid('json');
  if (!(await takeChatAllowance(c.env.THROTTLE, await hashIp(clientIp(c), c.env.JWT_SECRET)))) {
    return c.json({ message: CHAT_THROTTLED_MESSAGE }, 429);
  }
  const db = getDb(c.env.DB);
  const history = await recentTurns(db, sessionId);
  const answer = await answerQuestion({ message, history }, chatModelsFor(c.env));
  // One statement, so a conversation never holds a question without its answer.
  await db.insert(chatMessages).values([
    { role: 'user', content: message, sessionId },
    { role: 'assistant', content: answer.content, sessionId },
  ]);
  const reply: ChatReply = { role: 'assistant', content: answer.content };
  return c.json(reply, 200);
});
