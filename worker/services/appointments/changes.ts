import { and, eq, ne, type SQL, sql } from 'drizzle-orm';
import { defaultContent } from '#core/content/default-content';
import type { Db } from '../../db/client';
import { mixedBatch } from '../../db/granted-batch';
import { appointments } from '../../db/schema';
import { dailyClaimAfterStatement, firmDay } from '../limits/daily-counters';
import type { AppointmentRow } from './bookings';
import type { LinkedAppointmentKey } from './links';

// How often the visitor may change one appointment through its self-service links (docs/product.md
// §3.1): every cancel or move sends two e-mails (the visitor's and the firm's), and each e-mail
// carries a fresh link, so without a bound one mailbox can make the site send mail without end
// (unbounded, 8 moves in 4 s sent 16 e-mails). Counted per appointment and firm day in D1
// daily_counters (counter `appointment-changes:<id>`), checked and claimed in the same transaction
// as the change itself: the UPDATE runs only while the day's count is under the cap, and the claim
// right after it only when the UPDATE changed the row, so a refused or failed change counts nothing.

export const APPOINTMENT_CHANGES_PER_DAY = 3;

/** The refusal past the day's changes, naming the firm's phone as published (the route passes it). */
export const appointmentChangesMessage = (phone: string) =>
  `This appointment has already been changed ${APPOINTMENT_CHANGES_PER_DAY} times today. Please try again tomorrow, or call us at ${phone}.`;
/** The refusal with the default content's phone. */
export const APPOINTMENT_CHANGES_MESSAGE = appointmentChangesMessage(defaultContent.firm.contact.phone);

const changesCounter = (appointmentId: number) => `appointment-changes:${appointmentId}` as const;

/** The condition for the change's UPDATE: the appointment has changes left on `day`. */
export function changesLeft(appointmentId: number, day: string): SQL {
  return sql`coalesce((select count from daily_counters where day = ${day} and counter = ${changesCounter(appointmentId)}), 0) < ${APPOINTMENT_CHANGES_PER_DAY}`;
}

/** The claim of one change on `day`, batched right after the UPDATE: made only when the UPDATE changed the row. */
export function changeClaimAfterUpdate(d1: D1Database, appointmentId: number, day: string): D1PreparedStatement {
  return dailyClaimAfterStatement(d1, changesCounter(appointmentId), APPOINTMENT_CHANGES_PER_DAY, day);
}

/** The appointment a link names: by its public id, or by its numeric id (links sent before public ids). */
export async function findLinkedAppointment(db: Db, key: LinkedAppointmentKey): Promise<AppointmentRow | undefined> {
  return db.query.appointments.findFirst({ where: 'publicId' in key ? eq(appointments.publicId, key.publicId) : eq(appointments.id, key.id) });
}

/**
 * The visitor's change of `previous` through a link (cancel, or move with `status: 'requested'`):
 * its UPDATE (RETURNING the row, guarded by the link's `sequence`, the row not cancelled and changes
 * left today) and the claim of today's change, in one D1 batch. The changed row, or undefined when
 * the guard held it back. A move into a taken slot fails the whole batch with the UNIQUE index's
 * error (bookings.ts isSlotTaken), so no change is counted either.
 */
export async function changeAppointment(
  d1: D1Database,
  db: Db,
  previous: AppointmentRow,
  values: Partial<typeof appointments.$inferInsert>,
): Promise<AppointmentRow | undefined> {
  const day = firmDay();
  const [rows] = await mixedBatch(d1, [
    db
      .update(appointments)
      .set({ ...values, sequence: sql`${appointments.sequence} + 1`, updatedAt: new Date() })
      .where(and(eq(appointments.id, previous.id), eq(appointments.sequence, previous.sequence), ne(appointments.status, 'cancelled'), changesLeft(previous.id, day)))
      .returning(),
    changeClaimAfterUpdate(d1, previous.id, day),
  ]);
  return (rows as AppointmentRow[])[0];
}
