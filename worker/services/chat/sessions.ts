// Chat conversations on the server (docs/product.md §4.1): the session row and its messages in D1.
// The model's context is read from here, never from the client, so a visitor cannot put words in
// the assistant's mouth; refused exchanges stay in the transcript but are never replayed.
import { and, asc, desc, eq, inArray, lt } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { RowInBatch } from '../../db/granted-batch';
import { chatMessages, chatSessions } from '../../db/schema';
import { CHAT_ALREADY_HANDED_OFF_MESSAGE } from '#core/schemas/chat';
import type { SubmissionGate } from '../limits/submission-limits';
import type { ChatTurn } from './types';

/** Messages (both roles) one conversation may hold: 25 questions and their answers. */
export const CHAT_SESSION_MESSAGE_LIMIT = 50;
/** Days a conversation is kept after its last message; the cron deletes it after that. */
export const CHAT_RETENTION_DAYS = 30;
/** How many earlier turns (both roles) of the session the model sees: the last three exchanges. */
export const HISTORY_TURNS = 6;

export const CHAT_SESSION_FULL_MESSAGE = `This conversation has reached its limit of ${CHAT_SESSION_MESSAGE_LIMIT} messages. Please start a new conversation, or ask to talk to a person.`;

/** How many messages the session holds (0 for a session not stored yet). */
export async function sessionMessageCount(db: Db, sessionId: string): Promise<number> {
  const [row] = await db.select({ count: chatSessions.messageCount }).from(chatSessions).where(eq(chatSessions.id, sessionId));
  return row?.count ?? 0;
}

/** True while the session has room for one more exchange (a question and its answer). */
export const hasRoomForExchange = (count: number) => count + 2 <= CHAT_SESSION_MESSAGE_LIMIT;

/**
 * The session's last turns the model may see, oldest first: refused exchanges left out, so an
 * injection attempt refused once is not handed to the model as context later.
 */
export async function recentTurns(db: Db, sessionId: string, limit = HISTORY_TURNS): Promise<ChatTurn[]> {
  const rows = await db
    .select({ role: chatMessages.role, content: chatMessages.content })
    .from(chatMessages)
    .where(and(eq(chatMessages.sessionId, sessionId), eq(chatMessages.refused, false)))
    .orderBy(desc(chatMessages.id))
    .limit(limit);
  return rows.reverse();
}

/**
 * Stores one exchange and counts it on the session (created by its first exchange), in one D1
 * batch (a transaction): a conversation never holds a question without its answer, and the
 * message limit holds exactly even when two requests of one session race (each insert checks the
 * count the batch before it left). Returns false when the session was already full.
 */
export async function storeExchange(
  d1: D1Database,
  exchange: { sessionId: string; question: string; answer: string; refused: boolean; at?: Date },
): Promise<boolean> {
  const at = (exchange.at ?? new Date()).getTime();
  const refused = exchange.refused ? 1 : 0;
  const room = `coalesce((SELECT message_count FROM chat_sessions WHERE id = ?1), 0) <= ${CHAT_SESSION_MESSAGE_LIMIT - 2}`;
  const [inserted] = await d1.batch([
    d1
      .prepare(
        `INSERT INTO chat_messages (role, content, session_id, refused, created_at)
         SELECT 'user', ?2, ?1, ?4, ?5 WHERE ${room}
         UNION ALL SELECT 'assistant', ?3, ?1, ?4, ?5 + 1 WHERE ${room}`,
      )
      .bind(exchange.sessionId, exchange.question, exchange.answer, refused, at),
    d1
      .prepare(
        `INSERT INTO chat_sessions (id, started_at, last_activity_at, message_count, first_question) VALUES (?1, ?2, ?2, 2, ?3)
         ON CONFLICT(id) DO UPDATE SET message_count = message_count + 2, last_activity_at = ?2
         WHERE chat_sessions.message_count <= ${CHAT_SESSION_MESSAGE_LIMIT - 2}`,
      )
      .bind(exchange.sessionId, at, exchange.question),
  ]);
  return (inserted?.meta.changes ?? 0) > 0;
}

export type ChatSessionRow = typeof chatSessions.$inferSelect;
export type ChatMessageRow = typeof chatMessages.$inferSelect;

/** One session and all its messages in order, or undefined for an unknown id (one D1 call). */
export async function loadConversation(db: Db, sessionId: string): Promise<{ session: ChatSessionRow; messages: ChatMessageRow[] } | undefined> {
  const [[session], messages] = await db.batch([
    db.select().from(chatSessions).where(eq(chatSessions.id, sessionId)),
    db.select().from(chatMessages).where(eq(chatMessages.sessionId, sessionId)).orderBy(asc(chatMessages.id)),
  ]);
  if (!session) return undefined;
  return { session, messages };
}

/**
 * The statement recording that the visitor asked for a person and which contact message carries
 * the transcript, for the hand-off's batch (worker/services/limits/submission-limits.ts storeSubmission):
 * `row.id` is that message's id and `row.stands` the condition that it was written.
 */
export function handedOffStatement(db: Db, sessionId: string, row: RowInBatch, at = new Date()) {
  return db
    .update(chatSessions)
    .set({ handedOffAt: at, contactMessageId: row.id })
    .where(and(eq(chatSessions.id, sessionId), row.stands));
}

/**
 * One hand-off per conversation (docs/product.md §4.2): the gate of the hand-off's batch
 * (worker/services/limits/submission-limits.ts SubmissionGate), judged in the same transaction as the
 * claims and the row, so of two simultaneous hand-offs of one session only the first is stored;
 * the second is refused before anything is counted.
 */
export function handoffGate(sessionId: string): SubmissionGate {
  const handedOff = (n: number) => `EXISTS (SELECT 1 FROM chat_sessions WHERE id = ?${n} AND handed_off_at IS NOT NULL)`;
  return {
    facts: (d1) => d1.prepare(`SELECT ${handedOff(1)} AS handedOff`).bind(sessionId),
    admits: { sql: `NOT ${handedOff(4)}`, params: [sessionId] },
    refusalOf: (facts) => (facts.handedOff ? CHAT_ALREADY_HANDED_OFF_MESSAGE : null),
  };
}

/** Conversations one cron tick deletes at most (each with up to 50 messages). */
const PURGE_BATCH = 200;

/**
 * Retention (docs/product.md §4.1): the statements that delete the conversations whose last
 * message is older than CHAT_RETENTION_DAYS with their messages, the oldest PURGE_BATCH a tick (the
 * next ticks take the rest). Run in one batch (worker/services/platform/jobs.ts, housekeepingJob), so both
 * statements see the same oldest sessions; the second returns the ids of the deleted ones.
 */
export function expiredChatPurge(db: Db, now = new Date()) {
  const cutoff = new Date(now.getTime() - CHAT_RETENTION_DAYS * 24 * 60 * 60 * 1000);
  const expired = () =>
    db.select({ id: chatSessions.id }).from(chatSessions).where(lt(chatSessions.lastActivityAt, cutoff)).orderBy(asc(chatSessions.lastActivityAt)).limit(PURGE_BATCH);
  return [
    db.delete(chatMessages).where(inArray(chatMessages.sessionId, expired())),
    db.delete(chatSessions).where(inArray(chatSessions.id, expired())).returning({ id: chatSessions.id }),
  ] as const;
}
