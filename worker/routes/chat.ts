import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { getDb, type Db } from '../db/client';
import { chatMessages } from '../db/schema';
import type { AppEnv } from '../env';
import { validate } from '../middleware/validate';
import { chatRequestSchema, CHAT_STREAM_FAILED_MESSAGE, type ChatReply, type ChatStreamEvent } from '../schemas/chat';
import { answerQuestion, chatModelsFor, recentTurns, streamAnswer } from '../services/chat/answer';
import { takeChatAllowance } from '../services/chat/throttle';
import { clientIp, hashIp } from '../services/client-ip';

export const CHAT_THROTTLED_MESSAGE = 'Too many messages in a short time. Please wait a few minutes and try again.';

/** One statement, so a conversation never holds a question without its answer. */
async function storeExchange(db: Db, sessionId: string, message: string, answer: string) {
  await db.insert(chatMessages).values([
    { role: 'user', content: message, sessionId },
    { role: 'assistant', content: answer, sessionId },
  ]);
}

/** A client that asks for `Accept: text/event-stream` gets the reply streamed. */
const wantsStream = (accept: string | undefined) => /(^|,)\s*text\/event-stream\b/i.test(accept ?? '');

/**
 * POST /api/chat: one visitor message in, one assistant reply out; both turns stored once the
 * reply is complete. With `Accept: text/event-stream` the reply streams (docs/product.md §4):
 * `data: {"delta"}` events, then `event: done` with the whole reply and the sessionId, or
 * `event: error` when it fails midway. Validation (400) and throttling (429) answer before any stream.
 */
export const chat = new Hono<AppEnv>().post(
  '/',
  validate('json', chatRequestSchema),
  async (c, next) => {
    if (!(await takeChatAllowance(c.env.THROTTLE, await hashIp(clientIp(c), c.env.JWT_SECRET)))) {
      return c.json({ message: CHAT_THROTTLED_MESSAGE }, 429);
    }
    await next();
  },
  // The stream is a handler of its own that passes JSON requests on: the typed client's contract
  // (docs/decisions/0008-typed-api-contract.md) keeps describing the JSON answer.
  async (c, next) => {
    if (!wantsStream(c.req.header('accept'))) return next();
    const { message, sessionId } = c.req.valid('json');
    const db = getDb(c.env.DB);
    const history = await recentTurns(db, sessionId);
    return streamSSE(c, async (stream) => {
      const send = (event: ChatStreamEvent) =>
        stream.writeSSE({ event: 'delta' in event ? undefined : event.done ? 'done' : 'error', data: JSON.stringify(event) });
      const answering = streamAnswer({ message, history }, chatModelsFor(c.env));
      try {
        for (;;) {
          // A visitor who pressed Stop is gone: stop the model too (nothing is stored).
          if (stream.aborted) {
            await answering.return({ content: '', model: 'stopped' });
            return;
          }
          const step = await answering.next();
          if (step.done) {
            await storeExchange(db, sessionId, message, step.value.content);
            await send({ done: true, sessionId, content: step.value.content });
            return;
          }
          await send({ delta: step.value });
        }
      } catch (error) {
        console.warn('chat: the streamed reply failed', error instanceof Error ? error.message : error);
        await send({ done: false, error: CHAT_STREAM_FAILED_MESSAGE });
      }
    });
  },
  async (c) => {
    const { message, sessionId } = c.req.valid('json');
    const db = getDb(c.env.DB);
    const answer = await answerQuestion({ message, history: await recentTurns(db, sessionId) }, chatModelsFor(c.env));
    await storeExchange(db, sessionId, message, answer.content);
    const reply: ChatReply = { role: 'assistant', content: answer.content };
    return c.json(reply, 200);
  },
);
