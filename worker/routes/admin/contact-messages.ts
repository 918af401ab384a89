import { Hono } from 'hono';
import { getDb } from '../../db/client';
import type { AppEnv } from '../../env';
import { validate } from '../../middleware/validate';
import { idParamSchema } from '#core/schemas/appointments';
import { contactReadSchema } from '#core/schemas/contact';
import { type ContactMessageRow, listContactMessages, markContactMessageRead } from '../../services/contact/messages';
import { audit } from '../../services/audit/audit-log';

/** The inbox's shape (docs/product.md §11): dates as ISO strings, absent values as null. */
export const toContactMessage = (row: ContactMessageRow) => ({
  id: row.id,
  name: row.name,
  email: row.email,
  phone: row.phone,
  message: row.message,
  createdAt: row.createdAt.toISOString(),
  readAt: row.readAt ? row.readAt.toISOString() : null,
});

/** The admin inbox: every contact message, newest first, and the read marker. */
export const adminContactMessages = new Hono<AppEnv>()
  .get('/', async (c) => {
    const rows = await listContactMessages(getDb(c.env.DB));
    return c.json(rows.map(toContactMessage), 200);
  })
  .patch('/:id', validate('param', idParamSchema), validate('json', contactReadSchema), async (c) => {
    const { id } = c.req.valid('param');
    const row = await markContactMessageRead(getDb(c.env.DB), id, c.req.valid('json').read);
    if (!row) return c.json({ message: 'Message not found' }, 404);
    await audit(c, c.req.valid('json').read ? 'contact.mark-read' : 'contact.mark-unread', `contact-message:${id}`);
    return c.json(toContactMessage(row), 200);
  });
