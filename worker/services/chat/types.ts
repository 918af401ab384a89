/** One earlier turn of a conversation, as stored in chat_messages. */
export interface ChatTurn {
  role: 'user' | 'assistant';
  content: string;
}

export interface ChatQuestion {
  /** The visitor's message, trimmed and validated (1 to 1,000 characters). */
  message: string;
  /** The last turns of the same session, oldest first (never sent by the client). */
  history: ChatTurn[];
}

/**
 * Something that answers a visitor's question in plain text. Two implementations: Workers AI
 * (workers-ai-model.ts) and the offline knowledge base (knowledge-base-model.ts) that answers
 * when the AI binding is absent or fails. A model may throw; the caller falls back.
 */
export interface ChatModel {
  readonly name: string;
  reply(question: ChatQuestion): Promise<string>;
  /**
   * The same reply as it is produced, in pieces that join to it. Ending the iteration early
   * (`return()`) stops the model.
   */
  stream(question: ChatQuestion): AsyncIterable<string>;
}
