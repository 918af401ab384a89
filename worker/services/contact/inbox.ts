import type { Db } from '../../db/client';
import type { Bindings } from '../../env';
import { archiveContactMessage, findContactMessage, markContactMessageRead, type ContactMessageRow, type InboxMessageRow } from './messages';
import { lastReplyTime, listReplies, sendReply } from './replies';

// The inbox's use cases (docs/product.md §6.2): the read and archive markers and the replies of one
// message, each answering the message as the inbox shows it. The route audits what changed.

/** No contact message has that id (404). */
export type NoSuchMessage = { ok: false; reason: 'not-found' };

const notFound: NoSuchMessage = { ok: false, reason: 'not-found' };

/** The replies to a message as listReplies reads them. */
export type MessageReplies = Awaited<ReturnType<typeof listReplies>>;

/** The message as the inbox shows it after a change: with its latest reply's time. */
async function asInboxRow(db: Db, row: ContactMessageRow | undefined): Promise<{ ok: true; message: InboxMessageRow } | NoSuchMessage> {
  if (!row) return notFound;
  return { ok: true, message: { ...row, lastRepliedAt: await lastReplyTime(db, row.id) } };
}

/** Marks a message read (now) or unread. */
export async function markMessageRead(db: Db, id: number, read: boolean) {
  return asInboxRow(db, await markContactMessageRead(db, id, read));
}

/** Archives a message (out of the inbox's default view) or brings it back as it was. */
export async function archiveMessage(db: Db, id: number, archived: boolean) {
  return asInboxRow(db, await archiveContactMessage(db, id, archived));
}

/** The conversation under a message: its replies, oldest first. */
export async function messageReplies(db: Db, id: number): Promise<{ ok: true; replies: MessageReplies } | NoSuchMessage> {
  if (!(await findContactMessage(db, id))) return notFound;
  return { ok: true, replies: await listReplies(db, id) };
}

export type ReplyResult =
  /** The reply is stored (with its audit entry); `emailStatus` says how its e-mail went. */
  | { ok: true; to: string; replies: MessageReplies; emailStatus: 'sent' | 'stored' | 'failed' }
  | NoSuchMessage
  /** The author's replies of the day are used up (worker/services/contact/replies.ts DAILY_REPLY_CAP). */
  | { ok: false; reason: 'cap' };

/** A person of the firm answers message `id` by e-mail (replies.ts sendReply), then the whole conversation. */
export async function replyToMessage(
  env: Bindings,
  db: Db,
  id: number,
  reply: { author: { id: number; username: string; name?: string }; body: string; network: string },
): Promise<ReplyResult> {
  const message = await findContactMessage(db, id);
  if (!message) return notFound;
  const outcome = await sendReply(env, db, message, reply.author, reply.body, reply.network);
  if (!outcome.ok) return outcome;
  return { ok: true, to: message.email, replies: await listReplies(db, id), emailStatus: outcome.emailStatus };
}
