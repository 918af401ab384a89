import { Hono } from 'hono';
import { getDb } from '../../db/client';
import type { AppEnv } from '../../env';
import { validate } from '../../middleware/validate';
import { idParamSchema } from '#core/schemas/appointments';
import { LIST_PAGE_SIZE, type ListPage } from '#core/schemas/admin-list';
import { contactArchiveSchema, contactReadSchema, contactReplySchema, inboxQuerySchema } from '#core/schemas/contact';
import {
  archiveContactMessage,
  type ContactMessageRow,
  findContactMessage,
  listContactMessages,
  markContactMessageRead,
  searchContactMessages,
} from '../../services/contact/messages';
import { lastReplyTime, listReplies, REPLY_CAP_MESSAGE, sendReply } from '../../services/contact/replies';
import { audit } from '../../middleware/audit';
import { clientNetwork } from '../../middleware/client-network';

/** The inbox's shape (docs/product.md §11): dates as ISO strings, absent values as null. */
export const toContactMessage = (row: ContactMessageRow & { lastRepliedAt?: Date | null }) => ({
  id: row.id,
  name: row.name,
  email: row.email,
  phone: row.phone,
  message: row.message,
  createdAt: row.createdAt.toISOString(),
  readAt: row.readAt ? row.readAt.toISOString() : null,
  /** When it was archived (out of the inbox's default view), or null. */
  archivedAt: row.archivedAt ? row.archivedAt.toISOString() : null,
  /** When the firm last replied from the inbox ("Replied"), or null. */
  lastRepliedAt: row.lastRepliedAt ? row.lastRepliedAt.toISOString() : null,
});

/** One reply of a conversation under a message: who replied, what and when, and how its e-mail went. */
const toReply = (row: Awaited<ReturnType<typeof listReplies>>[number]) => ({
  id: row.id,
  authorName: row.authorName,
  body: row.body,
  createdAt: row.createdAt.toISOString(),
  emailStatus: row.emailStatus,
});

type ContactMessage = ReturnType<typeof toContactMessage>;

/**
 * The admin inbox: every contact message, newest first, its search, the read and archive markers,
 * and the replies (docs/product.md §6.2). GET / keeps SPEC.md's shape (a list); the inbox screen
 * reads GET /search, a page of 50 with the figures its badges show.
 */
export const adminContactMessages = new Hono<AppEnv>()
  .get('/', async (c) => {
    const rows = await listContactMessages(getDb(c.env.DB));
    return c.json(rows.map(toContactMessage), 200);
  })
  .get('/search', validate('query', inboxQuerySchema), async (c) => {
    const query = c.req.valid('query');
    const found = await searchContactMessages(getDb(c.env.DB), query);
    const page: ListPage<ContactMessage> & { unread: number; all: number } = {
      items: found.rows.map(toContactMessage),
      total: found.total,
      page: query.page,
      pageSize: LIST_PAGE_SIZE,
      unread: found.unread,
      all: found.all,
    };
    return c.json(page, 200);
  })
  .patch('/:id', validate('param', idParamSchema), validate('json', contactReadSchema), async (c) => {
    const { id } = c.req.valid('param');
    const row = await markContactMessageRead(getDb(c.env.DB), id, c.req.valid('json').read);
    if (!row) return c.json({ message: 'Message not found' }, 404);
    await audit(c, c.req.valid('json').read ? 'contact.mark-read' : 'contact.mark-unread', `contact-message:${id}`);
    return c.json(toContactMessage({ ...row, lastRepliedAt: await lastReplyTime(getDb(c.env.DB), id) }), 200);
  })
  // Archived messages leave the inbox's default view; unarchiving brings one back as it was.
  .patch('/:id/archive', validate('param', idParamSchema), validate('json', contactArchiveSchema), async (c) => {
    const { id } = c.req.valid('param');
    const { archived } = c.req.valid('json');
    const db = getDb(c.env.DB);
    const row = await archiveContactMessage(db, id, archived);
    if (!row) return c.json({ message: 'Message not found' }, 404);
    await audit(c, archived ? 'contact.archive' : 'contact.unarchive', `contact-message:${id}`);
    return c.json(toContactMessage({ ...row, lastRepliedAt: await lastReplyTime(db, id) }), 200);
  })
  .get('/:id/replies', validate('param', idParamSchema), async (c) => {
    const db = getDb(c.env.DB);
    const { id } = c.req.valid('param');
    if (!(await findContactMessage(db, id))) return c.json({ message: 'Message not found' }, 404);
    return c.json((await listReplies(db, id)).map(toReply), 200);
  })
  // Sends a reply by e-mail (its audit entry commits with it) and answers the whole conversation.
  .post('/:id/replies', validate('param', idParamSchema), validate('json', contactReplySchema), async (c) => {
    const db = getDb(c.env.DB);
    const { id } = c.req.valid('param');
    const message = await findContactMessage(db, id);
    if (!message) return c.json({ message: 'Message not found' }, 404);
    const outcome = await sendReply(c.env, db, message, c.get('adminUser'), c.req.valid('json').body, clientNetwork(c));
    if (!outcome.ok) return c.json({ message: REPLY_CAP_MESSAGE }, 429);
    const replies = (await listReplies(db, id)).map(toReply);
    if (outcome.emailStatus === 'failed') return c.json({ message: 'The reply was saved but its e-mail could not be sent; see the e-mail log.', replies }, 502);
    return c.json({ message: `Reply sent to ${message.email}`, replies }, 201);
  });
