import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { AppEnv } from '../env';
import { honeypot } from '../middleware/honeypot';
import { turnstile } from '../middleware/turnstile';
import { validate } from '../middleware/validate';
import { CHAT_HANDOFF_SUCCESS_MESSAGE, chatHandoffSchema, chatRequestSchema } from '#core/schemas/chat';
import { admitChatMessage, answerChat, CHAT_SESSION_FULL_MESSAGE, handOffChat, streamChatReply } from '../services/chat';
import { networkHash } from '../middleware/client-network';

export const CHAT_THROTTLED_MESSAGE = 'Too many messages in a short time. Please wait a few minutes and try again.';

/** A client that asks for `Accept: text/event-stream` gets the reply streamed. */
const wantsStream = (accept: string | undefined) => /(^|,)\s*text\/event-stream\b/i.test(accept ?? '');

// A bot that fills the hidden field gets the answer a person gets, and nothing happens.
const handoffHoneypot = honeypot<AppEnv>({ field: 'website', onFilled: (c) => c.json({ message: CHAT_HANDOFF_SUCCESS_MESSAGE }, 201) });

/**
 * POST /api/chat: one visitor message in, one assistant reply out; both turns stored once the
 * reply is complete, with the session (docs/product.md §4.1). The model's context is the stored
 * history of the sessionId; whatever else a client sends is dropped by the schema. With
 * `Accept: text/event-stream` the reply streams (§4): `data: {"delta"}` events, then `event: done`
 * with the whole reply, its sources and the sessionId, or `event: error` when it fails midway.
 * Validation (400), throttling (429) and a full conversation (409) answer before any stream
 * (worker/services/chat/conversation.ts).
 *
 * POST /api/chat/handoff (§4.2): the conversation, read from the server, goes to the firm as a
 * contact message under the contact form's limits and with its notification (worker/services/chat/handoff.ts).
 */
export const chat = new Hono<AppEnv>()
  .post(
    '/',
    validate('json', chatRequestSchema),
    async (c, next) => {
      const admission = await admitChatMessage(c.env, c.var.db, await networkHash(c), c.req.valid('json').sessionId);
      if (!admission.ok && admission.reason === 'throttled') return c.json({ message: CHAT_THROTTLED_MESSAGE }, 429);
      if (!admission.ok) return c.json({ message: CHAT_SESSION_FULL_MESSAGE }, 409);
      await next();
    },
    // The stream is a handler of its own that passes JSON requests on: the typed client's contract
    // (docs/decisions/0008-typed-api-contract.md) keeps describing the JSON answer.
    async (c, next) => {
      if (!wantsStream(c.req.header('accept'))) return next();
      const events = await streamChatReply(c.env, c.var.db, c.req.valid('json'));
      return streamSSE(c, async (stream) => {
        for (;;) {
          // A visitor who pressed Stop is gone: stop the model too (nothing is stored).
          if (stream.aborted) return void (await events.return());
          const step = await events.next();
          if (step.done) return;
          const event = step.value;
          await stream.writeSSE({ event: 'delta' in event ? undefined : event.done ? 'done' : 'error', data: JSON.stringify(event) });
        }
      });
    },
    async (c) => c.json(await answerChat(c.env, c.var.db, c.req.valid('json')), 200),
  )
  .post('/handoff', handoffHoneypot, validate('json', chatHandoffSchema), turnstile(), async (c) => {
    const result = await handOffChat(c.env, c.var.db, c.executionCtx, await networkHash(c), c.req.valid('json'));
    if (result.ok) return c.json({ message: CHAT_HANDOFF_SUCCESS_MESSAGE }, 201);
    if (result.reason === 'not-found') return c.json({ message: result.message }, 404);
    if (result.reason === 'handed-off') return c.json({ message: result.message }, 409);
    return c.json({ message: result.message }, 429, { 'Retry-After': String(result.retryAfter) });
  });
