import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { getDb } from '../db/client';
import { contactMessages } from '../db/schema';
import type { AppEnv } from '../env';
import { honeypot } from '../middleware/honeypot';
import { turnstile } from '../middleware/turnstile';
import { validate } from '../middleware/validate';
import {
  CHAT_ALREADY_HANDED_OFF_MESSAGE,
  CHAT_HANDOFF_SUCCESS_MESSAGE,
  CHAT_SESSION_NOT_FOUND_MESSAGE,
  CHAT_STREAM_FAILED_MESSAGE,
  chatHandoffSchema,
  chatRequestSchema,
  type ChatReply,
  type ChatStreamEvent,
} from '#core/schemas/chat';
import { answerQuestion, chatModelsFor, streamAnswer, type FinishedAnswer } from '../services/chat/answer';
import { handoffMessage } from '../services/chat/handoff';
import {
  CHAT_SESSION_FULL_MESSAGE,
  hasRoomForExchange,
  loadConversation,
  handedOffStatement,
  handoffGate,
  recentTurns,
  sessionMessageCount,
  storeExchange,
} from '../services/chat/sessions';
import { chatMessagesPerWindow, takeChatAllowance } from '../services/chat/throttle';
import { networkHash } from '../middleware/client-network';
import { deliverAfterAnswer } from '../services/email/send-email';
import { contactNotificationEmail } from '../services/email/submission-emails';
import { publishedContent } from '../services/content/published';
import { IP_WINDOW_SECONDS, storeSubmission } from '../services/limits/submission-limits';
import { newMessageId } from '../services/contact/replies';

export const CHAT_THROTTLED_MESSAGE = 'Too many messages in a short time. Please wait a few minutes and try again.';

/** A client that asks for `Accept: text/event-stream` gets the reply streamed. */
const wantsStream = (accept: string | undefined) => /(^|,)\s*text\/event-stream\b/i.test(accept ?? '');

/** Stores the finished exchange; a refused one is kept for the transcript but never replayed. */
async function keep(d1: D1Database, sessionId: string, message: string, answer: FinishedAnswer) {
  const stored = await storeExchange(d1, { sessionId, question: message, answer: answer.content, refused: answer.refused });
  // Only two requests of one session racing at its limit get here: the visitor has the answer.
  if (!stored) console.warn('chat: the session reached its message limit while answering; the exchange was not stored');
}

// A bot that fills the hidden field gets the answer a person gets, and nothing happens.
const handoffHoneypot = honeypot<AppEnv>({ field: 'website', onFilled: (c) => c.json({ message: CHAT_HANDOFF_SUCCESS_MESSAGE }, 201) });

/**
 * POST /api/chat: one visitor message in, one assistant reply out; both turns stored once the
 * reply is complete, with the session (docs/product.md §4.1). The model's context is the stored
 * history of the sessionId; whatever else a client sends is dropped by the schema. With
 * `Accept: text/event-stream` the reply streams (§4): `data: {"delta"}` events, then `event: done`
 * with the whole reply, its sources and the sessionId, or `event: error` when it fails midway.
 * Validation (400), throttling (429) and a full conversation (409) answer before any stream.
 *
 * POST /api/chat/handoff (§4.2): the conversation, read from the server, goes to the firm as a
 * contact message under the contact form's limits and with its notification.
 */
export const chat = new Hono<AppEnv>()
  .post(
    '/',
    validate('json', chatRequestSchema),
    async (c, next) => {
      const ipHash = await networkHash(c);
      if (!(await takeChatAllowance(c.env.DB, ipHash, Date.now(), chatMessagesPerWindow(c.env.CHAT_MESSAGES_PER_WINDOW)))) {
        return c.json({ message: CHAT_THROTTLED_MESSAGE }, 429);
      }
      if (!hasRoomForExchange(await sessionMessageCount(getDb(c.env.DB), c.req.valid('json').sessionId))) {
        return c.json({ message: CHAT_SESSION_FULL_MESSAGE }, 409);
      }
      await next();
    },
    // The stream is a handler of its own that passes JSON requests on: the typed client's contract
    // (docs/decisions/0008-typed-api-contract.md) keeps describing the JSON answer.
    async (c, next) => {
      if (!wantsStream(c.req.header('accept'))) return next();
      const { message, sessionId } = c.req.valid('json');
      const [history, content] = await Promise.all([recentTurns(getDb(c.env.DB), sessionId), publishedContent(c.env)]);
      return streamSSE(c, async (stream) => {
        const send = (event: ChatStreamEvent) =>
          stream.writeSSE({ event: 'delta' in event ? undefined : event.done ? 'done' : 'error', data: JSON.stringify(event) });
        const answering = streamAnswer({ message, history }, chatModelsFor(c.env, content), content);
        try {
          for (;;) {
            // A visitor who pressed Stop is gone: stop the model too (nothing is stored).
            if (stream.aborted) {
              await answering.return(undefined as never);
              return;
            }
            const step = await answering.next();
            if (step.done) {
              const answer = step.value;
              await keep(c.env.DB, sessionId, message, answer);
              await send({ done: true, sessionId, content: answer.content, sources: answer.sources, offerHandoff: answer.offerHandoff });
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
      const content = await publishedContent(c.env);
      const answer = await answerQuestion({ message, history: await recentTurns(getDb(c.env.DB), sessionId) }, chatModelsFor(c.env, content), content);
      await keep(c.env.DB, sessionId, message, answer);
      const reply: ChatReply = { role: 'assistant', content: answer.content, sources: answer.sources, offerHandoff: answer.offerHandoff };
      return c.json(reply, 200);
    },
  )
  .post('/handoff', handoffHoneypot, validate('json', chatHandoffSchema), turnstile(), async (c) => {
    const input = c.req.valid('json');
    const conversation = await loadConversation(getDb(c.env.DB), input.sessionId);
    if (!conversation) return c.json({ message: CHAT_SESSION_NOT_FOUND_MESSAGE }, 404);
    // Already handed off: refused at once (the batch's gate below also holds for two at the same time).
    if (conversation.session.handedOffAt) return c.json({ message: CHAT_ALREADY_HANDED_OFF_MESSAGE }, 409);
    const ipHash = await networkHash(c);
    const text = handoffMessage(input.note, conversation.session, conversation.messages);
    // It is a contact message: it counts under the contact form's daily cap. One D1 call
    // (worker/services/limits/submission-limits.ts): the limits, the message, today's submitter record,
    // the firm's notification queued in the outbox and the session marked as handed off.
    const values = { name: input.name, email: input.email, phone: input.phone || null, message: text, messageId: newMessageId(c.env), createdAt: new Date() };
    const { firm } = await publishedContent(c.env);
    const result = await storeSubmission(c.env, 'contact', ipHash, {
      table: contactMessages,
      values,
      emails: { always: [contactNotificationEmail(firm, values, 'chat-handoff')] },
      phone: firm.contact.phone,
      after: (row) => handedOffStatement(getDb(c.env.DB), input.sessionId, row),
      // One hand-off per conversation: a second is refused (409) before anything is counted.
      gate: handoffGate(input.sessionId),
    });
    if (!result.ok && result.status === 409) return c.json({ message: result.message }, 409);
    if (!result.ok) return c.json({ message: result.message }, 429, { 'Retry-After': String(IP_WINDOW_SECONDS) });
    if (result.mail) deliverAfterAnswer(c.env, c.executionCtx, result.mail.transport, result.mail.logged);
    return c.json({ message: CHAT_HANDOFF_SUCCESS_MESSAGE }, 201);
  });
