import { desc, eq } from 'drizzle-orm';
import { Hono } from 'hono';
import { getDb } from '../../db/client';
import { contactMessages } from '../../db/schema';
import type { AppEnv } from '../../env';
import { validate } from '../../middleware/validate';
import { idParamSchema } from '#core/schemas/appointments';
import { contactReadSchema } from '#core/schemas/contact';

type ContactRow = typeof contactMessages.$inferSelect;

/** The inbox's shape (docs/product.md §11): dates as ISO strings, absent values as null. */
export const toContactMessage = (row: ContactRow) => ({
  id: row.id,
  name: row.name,
  email: row.email,
  phone: row.phone,
  message: row.message,
  createdAt: row.createdAt.toISOString(),
  readAt: row.readAt ? row.readAt.toISOString() : null,
});

// The inbox shows at most this many messages; the firm receives at most 80 submissions a day.
const INBOX_LIMIT = 1000;

/** The admin inbox: every contact message, newest first, and the read marker. */
export const adminContactMessages = new Hono<AppEnv>()
  .get('/', async (c) => {
    const rows = await getDb(c.env.DB)
      .select()
      .from(contactMessages)
      .orderBy(desc(contactMessages.createdAt), desc(contactMessages.id))
      .limit(INBOX_LIMIT);
    return c.json(rows.map(toContactMessage), 200);
  })
  .patch('/:id', validate('param', idParamSchema), validate('json', contactReadSchema), async (c) => {
    const { id } = c.req.valid('param');
    const { read } = c.req.valid('json');
    const [row] = await getDb(c.env.DB)
      .update(contactMessages)
      .set({ readAt: read ? new Date() : null })
      .where(eq(contactMessages.id, id))
      .returning();
    if (!row) return c.json({ message: 'Message not found' }, 404);
    return c.json(toContactMessage(row), 200);
  });
