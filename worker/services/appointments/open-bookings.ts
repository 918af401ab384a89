import { and, sql } from 'drizzle-orm';
import { getDb } from '../../db/client';
import { builtOnce, slot, type PreparableQuery } from '../../db/built-once';
import { previousChanged } from '../../db/granted-batch';
import { appointments } from '../../db/schema';
import type { Bindings } from '../../env';
import { defaultContent } from '#core/content/default-content';
import { intSetting } from '../limits/daily-counters';
import { submissionDay } from '../limits/submission-limits';

// The booking's own abuse limit (docs/product.md §8), beside the forms' shared ones
// (worker/services/limits/submission-limits.ts): at most OPEN_BOOKINGS_PER_EMAIL (2) open requests
// (requested, not yet confirmed or cancelled, today or later) per e-mail address and
// OPEN_BOOKINGS_PER_NETWORK (3) per network, so nobody can squat the calendar's slots. It is the
// booking's `recheck` in storeSubmission's one transaction.

const DEFAULT_OPEN_BOOKINGS_PER_EMAIL = 2;
const DEFAULT_OPEN_BOOKINGS_PER_NETWORK = 3;

// The refusal names the firm's phone as published (the use case passes it); the constant is the defaults' wording.
export const openBookingsMessage = (phone: string) =>
  `You already have appointment requests waiting for our confirmation. Please wait until we confirm them, or call us at ${phone} to book another time.`;
export const OPEN_BOOKINGS_MESSAGE = openBookingsMessage(defaultContent.firm.contact.phone);

export const openBookingsPerEmail = (env: Bindings) => intSetting(env.OPEN_BOOKINGS_PER_EMAIL, DEFAULT_OPEN_BOOKINGS_PER_EMAIL);
export const openBookingsPerNetwork = (env: Bindings) => intSetting(env.OPEN_BOOKINGS_PER_NETWORK, DEFAULT_OPEN_BOOKINGS_PER_NETWORK);

/**
 * The recheck of a booking just written (storeSubmission): deletes it again, RETURNING its id, when
 * its e-mail address or its network now has more open requests than allowed. Open: requested (not
 * confirmed, not cancelled) for today or later.
 */
export function openBookingsRecheck(env: Bindings, booking: { email: string; networkHash: string }, today: string = submissionDay()) {
  const values = { email: booking.email, networkHash: booking.networkHash, today, perEmail: openBookingsPerEmail(env), perNetwork: openBookingsPerNetwork(env) };
  // Built once per isolate, its values bound on each use (worker/db/built-once.ts). Each count stops
  // one past its limit (all it must tell), over the partial indexes of open requests
  // (appointments_open_email_idx, appointments_open_network_idx): a booking costs the same whatever
  // the number of appointments stored.
  const db = getDb(env.DB);
  return (): PreparableQuery =>
    builtOnce(
      'open-bookings-recheck',
      () => {
        const open = sql`${appointments.status} = 'requested' AND ${appointments.date} >= ${slot('today')}`;
        const openForEmail = sql`(SELECT count(*) FROM (SELECT 1 FROM ${appointments} WHERE lower(${appointments.email}) = lower(${slot('email')}) AND ${open} LIMIT ${slot('perEmail')} + 1))`;
        const openForNetwork = sql`(SELECT count(*) FROM (SELECT 1 FROM ${appointments} WHERE ${appointments.networkHash} = ${slot('networkHash')} AND ${open} LIMIT ${slot('perNetwork')} + 1))`;
        return db
          .delete(appointments)
          .where(
            and(
              // Only right after this request's insert wrote the row (storeSubmission's chain): else
              // last_insert_rowid() is an older statement's.
              previousChanged,
              sql`${appointments.id} = last_insert_rowid()`,
              sql`(${openForEmail} > ${slot('perEmail')} OR ${openForNetwork} > ${slot('perNetwork')})`,
            ),
          )
          .returning({ id: appointments.id });
      },
      values,
    );
}
