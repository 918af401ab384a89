/** One server-sent event: its `event:` name (when given) and its `data:` lines joined by newlines. */
export interface SseEvent {
  event?: string;
  data: string;
}

/**
 * The events of a text/event-stream body, in order (the subset of the format this project uses:
 * `event:` and `data:` fields, comments and other fields ignored). Runs in the browser (the chat
 * widget reading POST /api/chat) and in the worker (reading Workers AI's stream). Cancelling the
 * iteration cancels the body.
 */
export async function* sseEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent, void, undefined> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let event: string | undefined;
  let data: string[] = [];
  const takeLine = (line: string): SseEvent | undefined => {
    if (line === '') {
      const done = data.length > 0 ? { event, data: data.join('\n') } : undefined;
      event = undefined;
      data = [];
      return done;
    }
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') data.push(value);
    else if (field === 'event') event = value;
    return undefined;
  };
  try {
    for (;;) {
      const { done, value } = await reader.read();
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
      const lines = buffer.split(/\r\n|\r|\n/);
      // The last piece may be a line still being received (all of it at the end of the body).
      buffer = done ? '' : lines.pop()!;
      for (const line of lines) {
        const complete = takeLine(line);
        if (complete) yield complete;
      }
      if (done) {
        const last = takeLine('');
        if (last) yield last;
        return;
      }
    }
  } finally {
    reader.cancel().catch(() => {});
  }
}
