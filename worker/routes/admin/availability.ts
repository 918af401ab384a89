import { Hono } from 'hono';
import { getDb } from '../../db/client';
import type { AppEnv } from '../../env';
import { validate } from '../../middleware/validate';
import { blockedDateParamSchema, blockedDateSchema, bookingRulesSchema, weekdaySlotsSchema } from '#core/schemas/availability';
import { adminAvailabilityView, blockDate, bookingsOnBlockedDates, replaceWeeklyOffer, saveBookingRules, unblockDate } from '../../services/appointments/calendar';
import { audit } from '../../middleware/audit';

/** The firm's availability (docs/product.md §6.4), mounted under /api/admin (admin only). */
export const adminAvailability = new Hono<AppEnv>()
  .get('/availability', async (c) => c.json(await adminAvailabilityView(getDb(c.env.DB)), 200))
  // Replaces the whole weekly offer in one batch (one transaction): a reader never sees it half-written.
  .put('/availability', validate('json', weekdaySlotsSchema), async (c) => {
    const db = getDb(c.env.DB);
    await replaceWeeklyOffer(db, c.req.valid('json').weekdays);
    await audit(c, 'availability.weekly-offer');
    return c.json(await adminAvailabilityView(db), 200);
  })
  // The booking rules (docs/product.md §6.4): one row, replaced whole.
  .put('/booking-rules', validate('json', bookingRulesSchema), async (c) => {
    const db = getDb(c.env.DB);
    await saveBookingRules(db, c.req.valid('json'));
    await audit(c, 'availability.booking-rules');
    return c.json(await adminAvailabilityView(db), 200);
  })
  // Idempotent: blocking a blocked day again answers 201 too; a new reason replaces the old one,
  // none keeps it. Bookings already on that day are kept.
  .post('/blocked-dates', validate('json', blockedDateSchema), async (c) => {
    const { date, reason } = c.req.valid('json');
    const db = getDb(c.env.DB);
    const row = await blockDate(db, date, reason);
    await audit(c, 'availability.block-date', `date:${date}`);
    const bookings = await bookingsOnBlockedDates(db, date);
    return c.json({ ...row, appointments: bookings.get(date) ?? [] }, 201);
  })
  // Idempotent too: unblocking a day that is not blocked is still 204.
  .delete('/blocked-dates/:date', validate('param', blockedDateParamSchema), async (c) => {
    await unblockDate(getDb(c.env.DB), c.req.valid('param').date);
    await audit(c, 'availability.unblock-date', `date:${c.req.valid('param').date}`);
    return c.body(null, 204);
  });
