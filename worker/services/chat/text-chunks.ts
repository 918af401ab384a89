// The offline answers and every held-back tail stream in small pieces, like a model's tokens, so
// the widget's streaming path is the same locally, in tests and in production (docs/decisions/0003).

/** Words per streamed piece of a text that is already written (knowledge base, refusal). */
export const CHUNK_WORDS = 3;
/** Pause between those pieces: a typical offline answer takes about half a second. */
export const CHUNK_DELAY_MS = 20;

/** `text` in pieces of a few words, each with the whitespace after it: the pieces join to `text`. */
export function splitIntoChunks(text: string, words = CHUNK_WORDS): string[] {
  const pieces = text.match(/\s+|\S+\s*/g) ?? [];
  const chunks: string[] = [];
  for (let i = 0; i < pieces.length; i += words) chunks.push(pieces.slice(i, i + words).join(''));
  return chunks;
}

export async function* textChunks(text: string, delayMs = CHUNK_DELAY_MS): AsyncGenerator<string, void, undefined> {
  const chunks = splitIntoChunks(text);
  for (const [i, chunk] of chunks.entries()) {
    if (i > 0 && delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    yield chunk;
  }
}
