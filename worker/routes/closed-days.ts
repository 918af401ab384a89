import { Hono } from 'hono';
import type { AppEnv } from '../env';
import { validate } from '../middleware/validate';
import { closedDaysQuerySchema } from '#core/schemas/availability';
import { closedDaysBetween } from '../services/appointments';

/**
 * What the booking calendar's month view greys out (docs/product.md §3, closedDaysBetween): the
 * blocked dates and closed holidays of a range, the slots each weekday offers, the first and last
 * days the booking rules leave open, and the full days. Each slot's state is per day, in GET
 * /api/appointments/availability; the POST re-checks everything (availabilityRefusal).
 */
export const closedDays = new Hono<AppEnv>().get('/', validate('query', closedDaysQuerySchema), async (c) => {
  const { from, to } = c.req.valid('query');
  return c.json(await closedDaysBetween(c.var.db, from, to), 200);
});
