// The hand-off to a person (docs/product.md §4.2): the visitor's note and the stored transcript of
// the conversation become one contact message, so the firm answers it from the inbox it already
// reads, with the whole context and without the visitor retyping anything.
import { firm } from '#core/content/firm';
import { timeZoneAbbreviation, timeZoneLabel } from '#core/firm-time';
import type { ChatMessageRow, ChatSessionRow } from './sessions';

/** The longest transcript a hand-off message carries; the admin's transcripts keep it all. */
export const TRANSCRIPT_MAX_LENGTH = 20_000;

const when = new Intl.DateTimeFormat('en-US', { timeZone: firm.timeZone, dateStyle: 'medium', timeStyle: 'short' });
const clock = new Intl.DateTimeFormat('en-US', { timeZone: firm.timeZone, timeStyle: 'short' });

const speaker = { user: 'Visitor', assistant: 'Assistant' } as const;

function transcriptLine(message: ChatMessageRow): string {
  const refused = message.refused && message.role === 'user' ? ' [refused by the guard rails]' : '';
  return `${speaker[message.role]} (${clock.format(message.createdAt)} ${timeZoneAbbreviation(firm.timeZone)})${refused}: ${message.content}`;
}

/**
 * The contact message of a hand-off: the visitor's note, then the transcript from the server,
 * oldest first. A transcript longer than TRANSCRIPT_MAX_LENGTH keeps its newest messages and says
 * how many earlier ones are only in the admin's chat transcripts.
 */
export function handoffMessage(note: string | null | undefined, session: ChatSessionRow, messages: ChatMessageRow[]): string {
  const lines = messages.map(transcriptLine);
  let kept = lines.length;
  let length = 0;
  while (kept > 0 && length + lines[kept - 1].length + 2 <= TRANSCRIPT_MAX_LENGTH) {
    length += lines[kept - 1].length + 2;
    kept--;
  }
  const omitted = kept;
  const shown = lines.slice(omitted);
  const header = `Chat transcript (conversation ${session.id}, started ${when.format(session.startedAt)} ${timeZoneLabel(firm.timeZone)}, ${messages.length} messages):`;
  const omission = omitted > 0 ? [`(${omitted} earlier messages are not shown here; the whole conversation is in the admin's chat transcripts.)`] : [];
  const noteLine = note?.trim() ? `Note from the visitor: ${note.trim()}` : 'The visitor left no note.';
  return [noteLine, header, ...omission, ...shown].join('\n\n');
}
