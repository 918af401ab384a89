import * as z from 'zod/v4';
import { emailField, FIELD_LIMITS, nameField, requiredText, tooLongMessage, turnstileTokenField } from './fields';
import { listQuerySchema } from './admin-list';

/** Longest message a visitor may send (the widget's input enforces the same bound). */
export const CHAT_MESSAGE_MAX_LENGTH = 1000;

/**
 * POST /api/chat. The client sends only the visitor's one message and its widget session id; the
 * history and the system prompt stay on the server. Used by the route and by the widget.
 */
export const chatRequestSchema = z.object({
  message: requiredText('Please enter a message', CHAT_MESSAGE_MAX_LENGTH, `Messages can be at most ${CHAT_MESSAGE_MAX_LENGTH} characters`),
  sessionId: z.uuid({ error: 'Invalid chat session' }),
});

export type ChatRequest = z.infer<typeof chatRequestSchema>;

/**
 * A page of the site an answer relied on (docs/product.md §4): shown under the reply as a link.
 * `path` is a site path, possibly with an anchor (`/services#tax-services`).
 */
export interface ChatSource {
  path: string;
  title: string;
}

/** The answer: a chat message the widget appends to its list as is (docs/product.md §4). */
export interface ChatReply {
  role: 'assistant';
  content: string;
  /** The pages the answer relied on (may be empty). */
  sources: ChatSource[];
  /** The visitor asked for a person, or the assistant could not help: the widget offers the hand-off. */
  offerHandoff: boolean;
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
  | { done: true; sessionId: string; content: string; sources: ChatSource[]; offerHandoff: boolean }
  | { done: false; error: string };

/** Longest note a visitor may add to a hand-off. */
export const CHAT_HANDOFF_NOTE_MAX_LENGTH = 1000;

/**
 * POST /api/chat/handoff (docs/product.md §4.2): the visitor asks for a person. Only their contact
 * details and an optional note: the transcript is read from the server, never sent by the client.
 * Used by the route and by the widget's inline form.
 */
export const chatHandoffSchema = z.object({
  sessionId: z.uuid({ error: 'Invalid chat session' }),
  name: nameField(),
  email: emailField(),
  phone: z.string().trim().max(FIELD_LIMITS.phone, tooLongMessage('Phone', FIELD_LIMITS.phone)).nullish(),
  note: z.string().trim().max(CHAT_HANDOFF_NOTE_MAX_LENGTH, tooLongMessage('Note', CHAT_HANDOFF_NOTE_MAX_LENGTH)).nullish(),
  /** Honeypot, as on the contact form: any value means "drop silently". */
  website: z.string().max(500).optional(),
  turnstileToken: turnstileTokenField(),
});

export type ChatHandoffInput = z.input<typeof chatHandoffSchema>;

export const CHAT_HANDOFF_SUCCESS_MESSAGE = "Thank you. We've received this conversation and will get back to you as soon as possible.";
export const CHAT_SESSION_NOT_FOUND_MESSAGE = 'This conversation was not found. Please send us a message at /contact instead.';
/** A second hand-off of one conversation (docs/product.md §4.2): one contact message per conversation. */
export const CHAT_ALREADY_HANDED_OFF_MESSAGE =
  'This conversation has already been passed to our team, and we will get back to you. For anything new, please send us a message at /contact.';

/**
 * GET /api/admin/chat-sessions (docs/product.md §4): the shared list query
 * (core/schemas/admin-list.ts); `handed-off` are the conversations where the visitor asked for a
 * person, `assistant-only` the rest; `from`..`to` are firm days of the last activity.
 */
export const CHAT_LIST_STATUSES = ['handed-off', 'assistant-only'] as const;
export const chatListQuerySchema = listQuerySchema(CHAT_LIST_STATUSES);
export type ChatListQuery = z.infer<typeof chatListQuerySchema>;
