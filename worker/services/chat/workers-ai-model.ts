// The online assistant: a current instruct model on Workers AI, given the confidential rules and
// the firm's knowledge in the system message and the session's last turns as the conversation.
import { sseEvents } from '#core/sse-events';
import { CHAT_MODEL_ID } from '../platform/ai-models';
import { defaultContent } from '#core/content/default-content';
import type { SiteContent } from '#core/content/schema';
import { systemPrompt } from './system-prompt';
import type { ChatModel, ChatQuestion } from './types';

/** About 300 words: replies are asked to stay under 120, this bounds cost when they don't. */
export const CHAT_MAX_TOKENS = 400;
/** A visitor watching "Thinking..." should get the offline answer rather than wait longer. */
export const CHAT_TIMEOUT_MS = 15_000;

export class ChatModelTimeoutError extends Error {
  constructor(ms: number) {
    super(`Workers AI did not answer within ${ms} ms`);
    this.name = 'ChatModelTimeoutError';
  }
}

/** Today's Workers AI budget (CHAT_AI_DAILY_BUDGET) is spent: the caller answers from the knowledge base. */
export class ChatBudgetSpentError extends Error {
  constructor() {
    super("today's Workers AI budget is spent");
    this.name = 'ChatBudgetSpentError';
  }
}

type AiMessage = { role: 'system' | 'user' | 'assistant'; content: string };

/** Text from a Workers AI answer: `{ response }` (Llama family) or OpenAI-style `choices`. */
function replyText(result: unknown): string {
  if (result && typeof result === 'object') {
    const r = result as { response?: unknown; choices?: { message?: { content?: unknown } }[] };
    if (typeof r.response === 'string') return r.response;
    const content = r.choices?.[0]?.message?.content;
    if (typeof content === 'string') return content;
  }
  throw new Error('Workers AI answered without text');
}

/** The text of one event of a Workers AI stream: `{ response }` or OpenAI-style `choices[].delta`. */
function deltaText(data: string): string {
  const event = JSON.parse(data) as { response?: unknown; choices?: { delta?: { content?: unknown } }[] } | null;
  const text = typeof event?.response === 'string' ? event.response : event?.choices?.[0]?.delta?.content;
  return typeof text === 'string' ? text : '';
}

export class WorkersAiChatModel implements ChatModel {
  readonly name = 'workers-ai';

  constructor(
    private readonly ai: Ai,
    private readonly options: {
      maxTokens?: number;
      timeoutMs?: number;
      /** Claims one call from the day's budget (worker/services/limits/daily-counters.ts claimAiCall); false when spent. */
      claimCall?: () => Promise<boolean>;
      /** The content the system prompt states (the published document); the defaults when not given. */
      content?: SiteContent;
    } = {},
  ) {}

  /** Every call is claimed before the binding is run, so a spent budget never reaches the model. */
  private async claim(): Promise<void> {
    if (this.options.claimCall && !(await this.options.claimCall())) throw new ChatBudgetSpentError();
  }

  private messages({ message, history }: ChatQuestion): AiMessage[] {
    return [
      // The system prompt goes in the system message only, never into a user turn.
      { role: 'system', content: systemPrompt(this.options.content ?? defaultContent) },
      ...history.map((turn) => ({ role: turn.role, content: turn.content })),
      { role: 'user', content: message },
    ];
  }

  /**
   * The reply as Workers AI streams it (`stream: true`: SSE lines `data: {"response":"..."}`, then
   * `data: [DONE]`). The timeout bounds the wait for the stream and for each piece of it, so a model
   * that stalls before its first token or in the middle fails like one that never answers.
   */
  async *stream(question: ChatQuestion): AsyncGenerator<string, void, undefined> {
    const timeoutMs = this.options.timeoutMs ?? CHAT_TIMEOUT_MS;
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | null = null;
    const inTime = <T>(promise: Promise<T>): Promise<T> =>
      Promise.race([
        promise,
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => {
            controller.abort();
            reject(new ChatModelTimeoutError(timeoutMs));
          }, timeoutMs);
        }),
      ]).finally(() => {
        if (timer !== null) clearTimeout(timer);
      });
    let events: AsyncGenerator<{ data: string }, void, undefined> | undefined;
    await this.claim();
    try {
      const body: unknown = await inTime(
        Promise.resolve(
          this.ai.run(
            CHAT_MODEL_ID,
            { messages: this.messages(question), max_tokens: this.options.maxTokens ?? CHAT_MAX_TOKENS, temperature: 0.3, stream: true },
            { signal: controller.signal },
          ),
        ),
      );
      if (!(body instanceof ReadableStream)) throw new Error('Workers AI answered without a stream');
      events = sseEvents(body as ReadableStream<Uint8Array>);
      for (;;) {
        const next = await inTime(events.next());
        if (next.done || next.value.data.trim() === '[DONE]') return;
        const text = deltaText(next.value.data);
        if (text) yield text;
      }
    } finally {
      // Finished, failed or abandoned by the caller: stop the model and release the stream.
      controller.abort();
      events?.return().catch(() => {});
    }
  }

  async reply(question: ChatQuestion): Promise<string> {
    await this.claim();
    const timeoutMs = this.options.timeoutMs ?? CHAT_TIMEOUT_MS;
    const messages = this.messages(question);
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | null = null;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort();
        reject(new ChatModelTimeoutError(timeoutMs));
      }, timeoutMs);
    });
    try {
      // The race makes the timeout hold even if the binding ignores the abort signal.
      const run = this.ai.run(
        CHAT_MODEL_ID,
        { messages, max_tokens: this.options.maxTokens ?? CHAT_MAX_TOKENS, temperature: 0.3 },
        { signal: controller.signal },
      );
      const text = replyText(await Promise.race([run, timeout])).trim();
      if (!text) throw new Error('Workers AI answered with an empty reply');
      return text;
    } finally {
      if (timer !== null) clearTimeout(timer);
    }
  }
}
