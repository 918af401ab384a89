// The hand-off to a person (docs/product.md §4.2): the visitor's note and the stored transcript of
// the conversation become one contact message, so the firm answers it from the inbox it already
// reads, with the whole context and without the visitor retyping anything.
import { firm } from '#core/content/firm';
import { timeZoneAbbreviation, timeZoneLabel } from '#core/firm-time';
import { CHAT_ALREADY_HANDED_OFF_MESSAGE, CHAT_SESSION_NOT_FOUND_MESSAGE } from '#core/schemas/chat';
import type { Db } from '../../db/client';
import type { Bindings } from '../../env';
import type { AfterAnswer } from '../email/enqueue';
import { receiveContactMessage, type ContactMessageLimited } from '../contact';
import { handedOffStatement, handoffGate, loadConversation, type ChatMessageRow, type ChatSessionRow } from './sessions';

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

export type HandoffResult =
  | { ok: true }
  /** No conversation has that id (404). */
  | { ok: false; reason: 'not-found'; message: string }
  /** The conversation was handed off already (409): one hand-off per conversation. */
  | { ok: false; reason: 'handed-off'; message: string }
  | ContactMessageLimited;

/**
 * POST /api/chat/handoff's use case (§4.2): the conversation, read from the server, goes to the
 * firm as a contact message under the contact form's limits and with its notification
 * (worker/services/contact), the session marked as handed off in the same D1 call.
 */
export async function handOffChat(
  env: Bindings,
  db: Db,
  afterAnswer: AfterAnswer,
  ipHash: string,
  input: { sessionId: string; name: string; email: string; phone?: string | null; note?: string | null },
): Promise<HandoffResult> {
  const conversation = await loadConversation(db, input.sessionId);
  if (!conversation) return { ok: false, reason: 'not-found', message: CHAT_SESSION_NOT_FOUND_MESSAGE };
  // Already handed off: refused at once (the batch's gate below also holds for two at the same time).
  if (conversation.session.handedOffAt) return { ok: false, reason: 'handed-off', message: CHAT_ALREADY_HANDED_OFF_MESSAGE };
  const message = handoffMessage(input.note, conversation.session, conversation.messages);
  const result = await receiveContactMessage(env, afterAnswer, ipHash, { name: input.name, email: input.email, phone: input.phone, message }, {
    origin: 'chat-handoff',
    after: (row) => handedOffStatement(db, input.sessionId, row),
    // One hand-off per conversation: a second is refused (409) before anything is counted.
    gate: handoffGate(input.sessionId),
  });
  return !result.ok && result.reason === 'refused' ? { ok: false, reason: 'handed-off', message: result.message } : result;
}
