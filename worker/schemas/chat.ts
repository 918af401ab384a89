import { z } from 'zod';

/** Longest message a visitor may send (the widget's input enforces the same bound). */
export const CHAT_MESSAGE_MAX_LENGTH = 1000;

/**
 * POST /api/chat. The client sends only the visitor's one message and its widget session id; the
 * history and the system prompt stay on the server. Used by the route and by the widget.
 */
export const chatRequestSchema = z.object({
  message: z
    .string({ error: 'Please enter a message' })
    .trim()
    .min(1, 'Please enter a message')
    .max(CHAT_MESSAGE_MAX_LENGTH, `Messages can be at most ${CHAT_MESSAGE_MAX_LENGTH} characters`),
  sessionId: z.uuid({ error: 'Invalid chat session' }),
});

export type ChatRequest = z.infer<typeof chatRequestSchema>;

/** The answer: a chat message the widget appends to its list as is (docs/product.md §4). */
export interface ChatReply {
  role: 'assistant';
  content: string;
}

/** docs/product.md §4: what a reply that fails after it started streaming ends with. */
export const CHAT_STREAM_FAILED_MESSAGE = 'The reply was interrupted. Please try again, or contact us directly.';

/**
 * The `data` of the events of a streamed POST /api/chat (`Accept: text/event-stream`): pieces of
 * the reply, then one final event, either the whole reply (which the widget shows, and which the
 * pieces join to unless a guard rail replaced it) or an error.
 */
export type ChatStreamEvent =
  | { delta: string }
  | { done: true; sessionId: string; content: string }
  | { done: false; error: string };
