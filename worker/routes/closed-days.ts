import { Hono } from 'hono';
import { getDb } from '../db/client';
import type { AppEnv } from '../env';
import { validate } from '../middleware/validate';
import { closedDaysQuerySchema } from '#core/schemas/availability';
import { firmAvailability } from '../services/appointments/availability';
import { blockedDatesBetween } from '../services/appointments/calendar';

/**
 * What the booking calendar's month view greys out (docs/product.md §3): the blocked dates in a
 * range, and the slots each weekday offers (a weekday offering none is closed; the time list shows
 * only the chosen weekday's slots). Taken and started slots are per day, in
 * GET /api/appointments/availability; the POST re-checks everything (availabilityRefusal).
 */
export const closedDays = new Hono<AppEnv>().get('/', validate('query', closedDaysQuerySchema), async (c) => {
  const { from, to } = c.req.valid('query');
  const db = getDb(c.env.DB);
  const [{ weekdays }, blocked] = await Promise.all([firmAvailability(db), blockedDatesBetween(db, from, to)]);
  return c.json({ from, to, blockedDates: blocked, weekdays }, 200);
});
