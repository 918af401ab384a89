import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { firm } from '#core/content/firm';
import { firmToday, zonedDateTime } from '#core/firm-time';
import { foldLine } from '#core/schemas/fields';
import type { Db } from '../../db/client';
import { insertWhen } from '../../db/granted-batch';
import { contactMessages, contactReplies, emailLog } from '../../db/schema';
import type { Bindings } from '../../env';
import type { OutgoingEmail } from '../../mail-types';
import { auditIfPreviousChanged } from '../audit/audit-log';
import type { FirmFacts } from '#core/content/firm-facts';
import { publishedContent } from '../content';
import { enqueue } from '../email/enqueue';
import type { ContactMessageRow } from './messages';

// Replies from the inbox (docs/product.md §6.2): a person of the firm answers a contact message or a
// chat hand-off (which is a contact message) in plain text. The e-mail comes from the firm's sending
// address with the person's name, Reply-To the firm's inbox, threaded under the firm's notification
// of the message (its Message-ID is the thread's root), and is logged in the e-mail log like every e-mail.

/**
 * Replies one person may send per firm day. A stolen session cannot turn the firm into a spam
 * relay: 50 is several times a busy day's inbox (at most 80 contact messages a day, most answered once).
 */
export const DAILY_REPLY_CAP = 50;

export const REPLY_CAP_MESSAGE = `You have sent ${DAILY_REPLY_CAP} replies today, the most one person may send in a day. Please try again tomorrow.`;

export type ContactReplyRow = typeof contactReplies.$inferSelect;

/** A fresh Message-ID on the sending domain (MAIL_FROM's), e.g. "<5f0c...@northgatecpa.example>". */
export function newMessageId(env: Pick<Bindings, 'MAIL_FROM'>): string {
  const domain = env.MAIL_FROM.split('@')[1] || 'localhost';
  return `<${crypto.randomUUID()}@${domain}>`;
}

/** The message's thread root: the Message-ID it has, or one given now to a message older than replies. */
async function threadRoot(env: Bindings, db: Db, message: ContactMessageRow): Promise<string> {
  if (message.messageId) return message.messageId;
  const [row] = await db
    .update(contactMessages)
    .set({ messageId: sql`coalesce(${contactMessages.messageId}, ${newMessageId(env)})` })
    .where(eq(contactMessages.id, message.id))
    .returning({ messageId: contactMessages.messageId });
  return row.messageId!;
}


/** The reply e-mail: plain text, the original quoted below the answer and the firm's signature (as published). */
export function replyEmail(
  facts: FirmFacts,
  message: Pick<ContactMessageRow, 'name' | 'email' | 'message' | 'createdAt'>,
  reply: { authorName: string; body: string; messageId: string },
  thread: { root: string; earlier: string[] },
): OutgoingEmail {
  const quoted = message.message
    .split(/\r?\n/)
    .map((line) => (line ? `> ${line}` : '>'))
    .join('\n');
  const text = [
    reply.body,
    '',
    `${reply.authorName}`,
    `${facts.name} · ${facts.contact.phone} · ${facts.contact.email}`,
    '',
    `On ${zonedDateTime(message.createdAt, firm.timeZone)}, ${message.name} wrote:`,
    quoted,
  ].join('\n');
  return {
    kind: 'contact-reply',
    to: message.email,
    // Folded onto one line: a name stored with a line break before names were refused at the door
    // (core/schemas/fields.ts) would otherwise fail every reply as an unsafe header.
    toName: foldLine(message.name),
    fromName: foldLine(`${reply.authorName} at ${facts.name}`),
    replyTo: facts.contact.email,
    subject: `Re: Your message to ${facts.name}`,
    text,
    headers: {
      'Message-ID': reply.messageId,
      'In-Reply-To': thread.root,
      References: [thread.root, ...thread.earlier].join(' '),
    },
  };
}

/** When the message was last replied to from the inbox, or null. */
export async function lastReplyTime(db: Db, contactMessageId: number): Promise<Date | null> {
  const [row] = await db
    .select({ at: sql<number | null>`max(${contactReplies.createdAt})` })
    .from(contactReplies)
    .where(eq(contactReplies.contactMessageId, contactMessageId));
  return row?.at == null ? null : new Date(row.at);
}

/** The replies to a message, oldest first, each with its e-mail's status in the log. */
export async function listReplies(db: Db, contactMessageId: number) {
  return db
    .select({
      id: contactReplies.id,
      authorName: contactReplies.authorName,
      body: contactReplies.body,
      createdAt: contactReplies.createdAt,
      emailStatus: emailLog.status,
    })
    .from(contactReplies)
    .leftJoin(emailLog, eq(emailLog.id, contactReplies.emailLogId))
    .where(eq(contactReplies.contactMessageId, contactMessageId))
    .orderBy(asc(contactReplies.createdAt), asc(contactReplies.id));
}

export type ReplyOutcome = { ok: true; reply: ContactReplyRow; emailStatus: 'sent' | 'stored' | 'failed' } | { ok: false; reason: 'cap' };

/**
 * Sends one reply: the reply row (only while its author is under DAILY_REPLY_CAP today, counted in
 * the same statement, so parallel requests cannot pass it), its audit entry and the message's read
 * marker commit together;
 * then the e-mail goes out through the e-mail log, and the row names its log entry.
 */
export async function sendReply(
  env: Bindings,
  db: Db,
  message: ContactMessageRow,
  author: { id: number; username: string; name?: string },
  body: string,
  network: string,
): Promise<ReplyOutcome> {
  const root = await threadRoot(env, db, message);
  const earlier = (await db.select({ messageId: contactReplies.messageId }).from(contactReplies).where(eq(contactReplies.contactMessageId, message.id)).orderBy(asc(contactReplies.id))).map(
    (r) => r.messageId,
  );
  const day = firmToday(firm.timeZone);
  const messageId = newMessageId(env);
  const underCap = sql`(select count(*) from ${contactReplies} where ${contactReplies.adminUserId} = ${author.id} and ${contactReplies.day} = ${day}) < ${DAILY_REPLY_CAP}`;
  const [inserted] = await db.batch([
    insertWhen(db, contactReplies, { contactMessageId: message.id, adminUserId: author.id, authorName: author.name || author.username, body, messageId, day, createdAt: new Date() }, underCap).returning(),
    auditIfPreviousChanged(db, { actor: author, action: 'contact.reply', record: `contact-message:${message.id}`, network }),
    // A reply answers the message: it is read from now on (docs/product.md §6.2), only when the
    // reply was granted (its row, named by its fresh Message-ID, exists).
    db
      .update(contactMessages)
      .set({ readAt: new Date() })
      .where(
        and(
          eq(contactMessages.id, message.id),
          isNull(contactMessages.readAt),
          // Written out with an alias: contact_messages has a message_id column too.
          sql`exists (select 1 from contact_replies r where r.message_id = ${messageId})`,
        ),
      ),
  ]);
  const reply = inserted[0];
  if (!reply) return { ok: false, reason: 'cap' };
  const { firm: facts } = await publishedContent(env);
  const [outcome] = await enqueue({ env }, [replyEmail(facts, message, { authorName: author.name || author.username, body, messageId }, { root, earlier })]);
  // Not even logged (the e-mail log is down): a server error, as for any failed write.
  if (!outcome) throw new Error('The reply could not be logged');
  await db.update(contactReplies).set({ emailLogId: outcome.logId }).where(eq(contactReplies.id, reply.id));
  return { ok: true, reply: { ...reply, emailLogId: outcome.logId }, emailStatus: outcome.status };
}
