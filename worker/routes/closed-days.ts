import { Hono } from 'hono';
import { getDb } from '../db/client';
import type { AppEnv } from '../env';
import { validate } from '../middleware/validate';
import { closedDaysQuerySchema } from '#core/schemas/availability';
import { federalHolidaysBetween } from '#core/federal-holidays';
import { firmAvailability, holidayClosed, ruleBounds } from '../services/appointments/availability';
import { readBookingRules } from '../services/appointments/booking-rules';
import { blockedDatesBetween } from '../services/appointments/calendar';

/**
 * What the booking calendar's month view greys out (docs/product.md §3): the blocked dates in a
 * range (with the federal holidays the booking rules close, named), the slots each weekday offers
 * (a weekday offering none is closed; the time list shows only the chosen weekday's slots), and the
 * first and last days the booking rules leave open (minimum notice, horizon, §6.4). Taken and
 * started slots are per day, in GET /api/appointments/availability; the POST re-checks everything
 * (availabilityRefusal).
 */
export const closedDays = new Hono<AppEnv>().get('/', validate('query', closedDaysQuerySchema), async (c) => {
  const { from, to } = c.req.valid('query');
  const db = getDb(c.env.DB);
  const [{ weekdays }, rules, blocked] = await Promise.all([firmAvailability(db), readBookingRules(db), blockedDatesBetween(db, from, to)]);
  const holidays = federalHolidaysBetween(from, to)
    .filter((holiday) => holidayClosed(rules, holiday.date) && !blocked.some((b) => b.date === holiday.date))
    .map((holiday) => ({ date: holiday.date, reason: holiday.name }));
  const { firstDay, lastDay } = ruleBounds(rules);
  return c.json(
    { from, to, blockedDates: [...blocked, ...holidays].sort((a, b) => a.date.localeCompare(b.date)), weekdays, firstDay, lastDay },
    200,
  );
});
