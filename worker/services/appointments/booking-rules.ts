import { eq } from 'drizzle-orm';
import { BOOKING_RULE_DEFAULTS, type BookingRules } from '#core/content/booking';
import type { Db } from '../../db/client';
import { bookingRules } from '../../db/schema';

// The booking rules' one row (docs/product.md §6.4): read by availability, the calendar, the
// closed days and the busy calendars' horizon.

/** The booking rules the admin set (docs/product.md §6.4), or the defaults until they are saved. */
export const bookingRulesQuery = (db: Db) =>
  db
    .select({
      minimumNoticeHours: bookingRules.minimumNoticeHours,
      horizonDays: bookingRules.horizonDays,
      closeFederalHolidays: bookingRules.closeFederalHolidays,
      reopenedHolidays: bookingRules.reopenedHolidays,
    })
    .from(bookingRules)
    .where(eq(bookingRules.id, 1));

export const rulesOf = (rows: BookingRules[]): BookingRules => rows[0] ?? BOOKING_RULE_DEFAULTS;

export async function readBookingRules(db: Db): Promise<BookingRules> {
  return rulesOf(await bookingRulesQuery(db));
}
