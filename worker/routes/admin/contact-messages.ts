import { Hono } from 'hono';
import type { AppEnv } from '../../env';
import { validate } from '../../middleware/validate';
import { idParamSchema } from '#core/schemas/appointments';
import { LIST_PAGE_SIZE, type ListPage } from '#core/schemas/admin-list';
import { contactArchiveSchema, contactReadSchema, contactReplySchema, inboxQuerySchema } from '#core/schemas/contact';
import {
  archiveMessage,
  type ContactMessageRow,
  listContactMessages,
  markMessageRead,
  messageReplies,
  type MessageReplies,
  REPLY_CAP_MESSAGE,
  replyToMessage,
  searchContactMessages,
} from '../../services/contact';
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
const toReply = (row: MessageReplies[number]) => ({
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
    const rows = await listContactMessages(c.var.db);
    return c.json(rows.map(toContactMessage), 200);
  })
  .get('/search', validate('query', inboxQuerySchema), async (c) => {
    const query = c.req.valid('query');
    const found = await searchContactMessages(c.var.db, query);
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
    const { read } = c.req.valid('json');
    const result = await markMessageRead(c.var.db, id, read);
    if (!result.ok) return c.json({ message: 'Message not found' }, 404);
    await audit(c, read ? 'contact.mark-read' : 'contact.mark-unread', `contact-message:${id}`);
    return c.json(toContactMessage(result.message), 200);
  })
  // Archived messages leave the inbox's default view; unarchiving brings one back as it was.
  .patch('/:id/archive', validate('param', idParamSchema), validate('json', contactArchiveSchema), async (c) => {
    const { id } = c.req.valid('param');
    const { archived } = c.req.valid('json');
    const result = await archiveMessage(c.var.db, id, archived);
    if (!result.ok) return c.json({ message: 'Message not found' }, 404);
    await audit(c, archived ? 'contact.archive' : 'contact.unarchive', `contact-message:${id}`);
    return c.json(toContactMessage(result.message), 200);
  })
  .get('/:id/replies', validate('param', idParamSchema), async (c) => {
    const result = await messageReplies(c.var.db, c.req.valid('param').id);
    if (!result.ok) return c.json({ message: 'Message not found' }, 404);
    return c.json(result.replies.map(toReply), 200);
  })
  // Sends a reply by e-mail (its audit entry commits with it) and answers the whole conversation.
  .post('/:id/replies', validate('param', idParamSchema), validate('json', contactReplySchema), async (c) => {
    const reply = { author: c.get('adminUser'), body: c.req.valid('json').body, network: clientNetwork(c) };
    const result = await replyToMessage(c.env, c.var.db, c.req.valid('param').id, reply);
    if (!result.ok) return result.reason === 'cap' ? c.json({ message: REPLY_CAP_MESSAGE }, 429) : c.json({ message: 'Message not found' }, 404);
    const replies = result.replies.map(toReply);
    if (result.emailStatus === 'failed') return c.json({ message: 'The reply was saved but its e-mail could not be sent; see the e-mail log.', replies }, 502);
    return c.json({ message: `Reply sent to ${result.to}`, replies }, 201);
  });
