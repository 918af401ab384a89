import { CHAT_STREAM_FAILED_MESSAGE, type ChatReply, type ChatStreamEvent } from '#core/schemas/chat';
import type { Db } from '../../db/client';
import type { Bindings } from '../../env';
import { publishedContent } from '../content';
import { answerQuestion, chatModelsFor, streamAnswer, type FinishedAnswer } from './answer';
import { hasRoomForExchange, recentTurns, sessionMessageCount, storeExchange } from './sessions';
import { chatMessagesPerWindow, takeChatAllowance } from './throttle';

// POST /api/chat's use cases (docs/product.md §4.1): one visitor message in, one assistant reply
// out, both turns stored once the reply is complete. The model's context is the stored history of
// the session, never what a client sends; the reply is whole (JSON) or streamed (Server-Sent Events).

/** One message of a conversation, as the route validated it (core/schemas/chat.ts). */
export interface ChatMessageInput {
  message: string;
  sessionId: string;
}

export type ChatAdmission =
  | { ok: true }
  /** The network's chat window is used up (429). */
  | { ok: false; reason: 'throttled' }
  /** The conversation holds its 50 messages (409, CHAT_SESSION_FULL_MESSAGE). */
  | { ok: false; reason: 'session-full' };

/** Counts the message in its network's window (worker/services/chat/throttle.ts), then checks the session has room for one more exchange. */
export async function admitChatMessage(env: Bindings, db: Db, ipHash: string, sessionId: string): Promise<ChatAdmission> {
  if (!(await takeChatAllowance(env.DB, ipHash, Date.now(), chatMessagesPerWindow(env.CHAT_MESSAGES_PER_WINDOW)))) return { ok: false, reason: 'throttled' };
  if (!hasRoomForExchange(await sessionMessageCount(db, sessionId))) return { ok: false, reason: 'session-full' };
  return { ok: true };
}

/** Stores the finished exchange; a refused one is kept for the transcript but never replayed. */
async function keep(d1: D1Database, sessionId: string, message: string, answer: FinishedAnswer) {
  const stored = await storeExchange(d1, { sessionId, question: message, answer: answer.content, refused: answer.refused });
  // Only two requests of one session racing at its limit get here: the visitor has the answer.
  if (!stored) console.warn('chat: the session reached its message limit while answering; the exchange was not stored');
}

/** The reply whole, once written and stored (the shape the typed client knows). */
export async function answerChat(env: Bindings, db: Db, { message, sessionId }: ChatMessageInput): Promise<ChatReply> {
  const content = await publishedContent(env);
  const answer = await answerQuestion({ message, history: await recentTurns(db, sessionId) }, chatModelsFor(env, content), content);
  await keep(env.DB, sessionId, message, answer);
  return { role: 'assistant', content: answer.content, sources: answer.sources, offerHandoff: answer.offerHandoff };
}

/**
 * The reply as stream events (§4): `{delta}` pieces, then `{done: true}` with the whole reply, its
 * sources and the sessionId once the exchange is stored, or `{done: false}` when it fails midway.
 * The history and the content are read before this resolves, so their failure is the request's
 * (500), not the stream's. Ending the iteration early (`return()`, the visitor pressed Stop) stops
 * the model and stores nothing.
 */
export async function streamChatReply(env: Bindings, db: Db, { message, sessionId }: ChatMessageInput): Promise<AsyncGenerator<ChatStreamEvent, void, undefined>> {
  const [history, content] = await Promise.all([recentTurns(db, sessionId), publishedContent(env)]);
  const answering = streamAnswer({ message, history }, chatModelsFor(env, content), content);
  async function* events(): AsyncGenerator<ChatStreamEvent, void, undefined> {
    try {
      for (;;) {
        const step = await answering.next();
        if (step.done) {
          const answer = step.value;
          await keep(env.DB, sessionId, message, answer);
          yield { done: true, sessionId, content: answer.content, sources: answer.sources, offerHandoff: answer.offerHandoff };
          return;
        }
        yield { delta: step.value };
      }
    } catch (error) {
      console.warn('chat: the streamed reply failed', error instanceof Error ? error.message : error);
      yield { done: false, error: CHAT_STREAM_FAILED_MESSAGE };
    } finally {
      // Stopped early: the model stops too (a finished or failed answer is closed already).
      await answering.return(undefined as never);
    }
  }
  return events();
}
