import { type SQL, sql } from 'drizzle-orm';
import { firm } from '#core/content/firm';
import { dailyClaimAfterStatement } from '../limits/daily-counters';

// How often the visitor may change one appointment through its self-service links (docs/product.md
// §3.1): every cancel or move sends two e-mails (the visitor's and the firm's), and each e-mail
// carries a fresh link, so without a bound one mailbox can make the site send mail without end
// (unbounded, 8 moves in 4 s sent 16 e-mails). Counted per appointment and firm day in D1
// daily_counters (counter `appointment-changes:<id>`), checked and claimed in the same transaction
// as the change itself: the UPDATE runs only while the day's count is under the cap, and the claim
// right after it only when the UPDATE changed the row, so a refused or failed change counts nothing.

export const APPOINTMENT_CHANGES_PER_DAY = 3;

export const APPOINTMENT_CHANGES_MESSAGE = `This appointment has already been changed ${APPOINTMENT_CHANGES_PER_DAY} times today. Please try again tomorrow, or call us at ${firm.contact.phone}.`;

const changesCounter = (appointmentId: number) => `appointment-changes:${appointmentId}` as const;

/** The condition for the change's UPDATE: the appointment has changes left on `day`. */
export function changesLeft(appointmentId: number, day: string): SQL {
  return sql`coalesce((select count from daily_counters where day = ${day} and counter = ${changesCounter(appointmentId)}), 0) < ${APPOINTMENT_CHANGES_PER_DAY}`;
}

/** The claim of one change on `day`, batched right after the UPDATE: made only when the UPDATE changed the row. */
export function changeClaimAfterUpdate(d1: D1Database, appointmentId: number, day: string): D1PreparedStatement {
  return dailyClaimAfterStatement(d1, changesCounter(appointmentId), APPOINTMENT_CHANGES_PER_DAY, day);
}
