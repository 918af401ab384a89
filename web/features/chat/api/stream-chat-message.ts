import type { ChatSource, ChatStreamEvent } from '#core/schemas/chat';
import { api, ApiError } from '../../../lib/api';
import { sseEvents } from '#core/sse-events';

/** A finished reply: its text (what the widget shows), the pages it relied on, and the hand-off offer. */
export interface ChatResult {
  content: string;
  sources: ChatSource[];
  offerHandoff: boolean;
}

const isSource = (value: unknown): value is ChatSource =>
  typeof value === 'object' && value !== null && typeof (value as ChatSource).path === 'string' && (value as ChatSource).path.startsWith('/') && typeof (value as ChatSource).title === 'string';

/**
 * POST /api/chat with `Accept: text/event-stream` (docs/product.md §4): only the visitor's message
 * and the widget's session id leave the browser. Calls `onDelta` with each piece of the reply as it
 * arrives and resolves to the finished reply from the final event. Throws an ApiError for a refused
 * request (400, 409 for a full conversation, 429...), an Error when the stream fails or ends early,
 * and the abort error when `signal` aborts (the visitor pressed Stop).
 */
export async function streamChatMessage(
  message: string,
  sessionId: string,
  { signal, onDelta }: { signal: AbortSignal; onDelta: (text: string) => void },
): Promise<ChatResult> {
  const res = await api.chat.$post({ json: { message, sessionId } }, { headers: { accept: 'text/event-stream' }, init: { signal } });
  if (!res.ok) throw await ApiError.from(res);
  if (!res.body || !res.headers.get('content-type')?.startsWith('text/event-stream')) throw new Error('Unexpected chat reply');
  for await (const { data } of sseEvents(res.body)) {
    const event = JSON.parse(data) as ChatStreamEvent;
    if ('delta' in event) {
      if (typeof event.delta === 'string') onDelta(event.delta);
    } else if (event.done && typeof event.content === 'string' && event.content) {
      return {
        content: event.content,
        sources: Array.isArray(event.sources) ? event.sources.filter(isSource) : [],
        offerHandoff: event.offerHandoff === true,
      };
    } else {
      throw new Error(event.done === false ? event.error : 'Unexpected chat reply');
    }
  }
  throw new Error('The chat reply ended before it was complete');
}
