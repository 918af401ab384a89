import { Hono } from 'hono';
import { getDb } from '../db/client';
import type { AppEnv } from '../env';
import { validate } from '../middleware/validate';
import { closedDaysQuerySchema } from '#core/schemas/availability';
import { federalHolidaysBetween } from '#core/federal-holidays';
import { firm } from '#core/content/firm';
import { firmAvailability, fullDaysBetween, holidayClosed, ruleBounds } from '../services/appointments/availability';
import { takenSlotsBetween } from '../services/appointments/bookings';
import { busyIntervalsBetween } from '../services/appointments/busy-calendars';
import { zonedToUtc } from '../services/appointments/ics';
import { readBookingRules } from '../services/appointments/booking-rules';
import { blockedDatesBetween } from '../services/appointments/calendar';

/**
 * What the booking calendar's month view greys out (docs/product.md §3): the blocked dates in a
 * range (with the federal holidays the booking rules close, named), the slots each weekday offers
 * (a weekday offering none is closed; the time list shows only the chosen weekday's slots), and the
 * first and last days the booking rules leave open (minimum notice, horizon, §6.4), and the full
 * days: open, but every slot taken by a booking or the firm's busy time (fullDaysBetween). Each
 * slot's state is per day, in GET /api/appointments/availability; the POST re-checks everything
 * (availabilityRefusal).
 */
export const closedDays = new Hono<AppEnv>().get('/', validate('query', closedDaysQuerySchema), async (c) => {
  const { from, to } = c.req.valid('query');
  const db = getDb(c.env.DB);
  // Five reads at once (about as long as one): the offer, the rules, the blocked dates, and for the
  // full days the range's bookings and busy time.
  const [{ weekdays }, rules, blocked, taken, busy] = await Promise.all([
    firmAvailability(db),
    readBookingRules(db),
    blockedDatesBetween(db, from, to),
    takenSlotsBetween(db, from, to),
    busyIntervalsBetween(db, zonedToUtc(from, 0, firm.timeZone).getTime(), zonedToUtc(to, 24 * 60, firm.timeZone).getTime()),
  ]);
  const holidays = federalHolidaysBetween(from, to)
    .filter((holiday) => holidayClosed(rules, holiday.date) && !blocked.some((b) => b.date === holiday.date))
    .map((holiday) => ({ date: holiday.date, reason: holiday.name }));
  const now = new Date();
  const { firstDay, lastDay } = ruleBounds(rules, now);
  const fullDays = fullDaysBetween(from, to, { weekdays, closedDates: new Set(blocked.map((b) => b.date)), rules, taken, busy, now });
  return c.json(
    { from, to, blockedDates: [...blocked, ...holidays].sort((a, b) => a.date.localeCompare(b.date)), weekdays, firstDay, lastDay, fullDays },
    200,
  );
});
