import { Hono } from 'hono';
import type { AppEnv } from '../../env';
import { validate } from '../../middleware/validate';
import { blockedDateParamSchema, blockedDateSchema, bookingRulesSchema, weekdaySlotsSchema } from '#core/schemas/availability';
import { adminAvailabilityView, blockDay, changeBookingRules, changeWeeklyOffer, unblockDay } from '../../services/appointments';
import { adminActor } from '../../middleware/audit';

/** The firm's availability (docs/product.md §6.4), mounted under /api/admin (admin only). */
export const adminAvailability = new Hono<AppEnv>()
  .get('/availability', async (c) => c.json(await adminAvailabilityView(c.var.db), 200))
  // Replaces the whole weekly offer in one batch (one transaction): a reader never sees it half-written.
  .put('/availability', validate('json', weekdaySlotsSchema), async (c) => c.json(await changeWeeklyOffer(c.var.db, c.req.valid('json').weekdays, adminActor(c)), 200))
  // The booking rules (docs/product.md §6.4): one row, replaced whole.
  .put('/booking-rules', validate('json', bookingRulesSchema), async (c) => c.json(await changeBookingRules(c.var.db, c.req.valid('json'), adminActor(c)), 200))
  // Idempotent: blocking a blocked day again answers 201 too; a new reason replaces the old one,
  // none keeps it. Bookings already on that day are kept.
  .post('/blocked-dates', validate('json', blockedDateSchema), async (c) => c.json(await blockDay(c.var.db, c.req.valid('json'), adminActor(c)), 201))
  // Idempotent too: unblocking a day that is not blocked is still 204.
  .delete('/blocked-dates/:date', validate('param', blockedDateParamSchema), async (c) => {
    await unblockDay(c.var.db, c.req.valid('param').date, adminActor(c));
    return c.body(null, 204);
  });
