import type { BookingTimeSlot } from '#core/content/booking';
import { firm } from '#core/content/firm';
import { BOOKING_MESSAGES, CONFIRM_MESSAGES, slotHasPassed } from '#core/schemas/appointments';
import type { Db } from '../../db/client';
import type { Bindings } from '../../env';
import { type AuditEntry, recordAudit } from '../audit/audit-log';
import { publishedContent } from '../content';
import { enqueue } from '../email/enqueue';
import { availabilityRefusal } from './availability';
import { type AppointmentRow, findAppointment, isSlotTaken, setAppointmentStatus } from './bookings';
import { appointmentStatusEmail } from './emails';
import { hasTime } from './invite';
import { appointmentLinks } from './links';

/** Who acts in the back office, as the audit trail names them: the signed-in admin and their network. */
export type AdminActor = Pick<AuditEntry, 'actor' | 'network'>;

export type ConfirmOrCancelResult =
  /** The appointment as it is now (unchanged when it already had that status). */
  | { ok: true; appointment: AppointmentRow }
  | { ok: false; reason: 'not-found' }
  /** A request without a time is confirmed only with a picked slot: 400 on the field. */
  | { ok: false; reason: 'slot-needed'; message: string }
  /** The picked slot cannot be had (has a time already, passed, closed, taken): 409. */
  | { ok: false; reason: 'slot-refused'; message: string };

/**
 * The admin confirms or cancels an appointment (PATCH /api/admin/appointments/:id). A request
 * without a time is confirmed with the free slot the admin picked (docs/product.md §3): only then
 * does it hold a slot, and only then does the visitor get the invite and links. The visitor is
 * told by e-mail after the change is stored; the change is recorded in the audit trail.
 */
export async function confirmOrCancel(
  env: Bindings,
  db: Db,
  change: { id: number; status: 'confirmed' | 'cancelled'; timeSlot?: BookingTimeSlot },
  by: AdminActor,
): Promise<ConfirmOrCancelResult> {
  const { id, status, timeSlot: picked } = change;
  const current = await findAppointment(db, id);
  if (!current) return { ok: false, reason: 'not-found' };
  const picking = status === 'confirmed' && current.timeSlot === null;
  if (picking && !picked) return { ok: false, reason: 'slot-needed', message: CONFIRM_MESSAGES.slotNeeded };
  if (status === 'confirmed' && picked && current.timeSlot !== null && picked !== current.timeSlot) return { ok: false, reason: 'slot-refused', message: CONFIRM_MESSAGES.hasTime };
  if (current.status === status) return { ok: true, appointment: current };
  if (picking) {
    if (slotHasPassed(current.date, picked!, firm.timeZone)) return { ok: false, reason: 'slot-refused', message: BOOKING_MESSAGES.slotPassed };
    // The booking rules are for visitors: the admin may confirm inside the notice or on a holiday.
    const refusal = await availabilityRefusal(db, current.date, picked!, { rules: false });
    if (refusal) return { ok: false, reason: 'slot-refused', message: refusal };
  }

  let updated: AppointmentRow | undefined;
  try {
    // The picked slot is taken in the same statement as the status: the UNIQUE index refuses it
    // if someone has it (setAppointmentStatus).
    updated = await setAppointmentStatus(db, id, status, picking ? picked! : null);
  } catch (error) {
    if (isSlotTaken(error)) {
      // The picked slot, or (re-confirming a cancelled request) its own slot, booked by someone else meanwhile.
      const message = picking ? CONFIRM_MESSAGES.slotTaken : 'That time has been booked by someone else since this request was cancelled.';
      return { ok: false, reason: 'slot-refused', message };
    }
    throw error;
  }
  if (!updated) return { ok: false, reason: 'not-found' };
  // Confirmed: a REQUEST with fresh cancel/reschedule links; cancelled: a CANCEL that removes the
  // event (a request that never had a time had no event: a plain notice).
  const links = updated.status === 'cancelled' || !hasTime(updated) ? undefined : await appointmentLinks(env, updated);
  await recordAudit(db, { ...by, action: updated.status === 'cancelled' ? 'appointment.cancel' : 'appointment.confirm', record: `appointment:${updated.id}` });
  await enqueue({ env }, [appointmentStatusEmail(env, (await publishedContent(env)).firm, updated, links)]);
  return { ok: true, appointment: updated };
}
