import { firm } from '#core/content/firm';
import { BOOKING_MESSAGES } from '#core/schemas/appointments';
import type { Db } from '../../db/client';
import type { Bindings } from '../../env';
import { recordAudit } from '../audit/audit-log';
import { publishedContent } from '../content';
import { type AfterAnswer, enqueue } from '../email/enqueue';
import { IP_WINDOW_SECONDS, ipLimitMessage, takeIpAllowance } from '../limits/submission-limits';
import { availabilityRefusal, refusalStatus } from './availability';
import { type AppointmentRow, findAppointment, isSlotTaken } from './bookings';
import { appointmentChangesMessage, changeAppointment, findLinkedAppointment } from './changes';
import { appointmentCancelledByVisitorEmail, appointmentChangeNotificationEmail, appointmentRescheduledEmail } from './emails';
import { appointmentWhen } from './invite';
import { type AppointmentLinkPurpose, appointmentLinks, verifyAppointmentLink } from './links';

// The visitor's self-service (docs/product.md §3), reached from the Cancel and Reschedule links of
// the booking e-mails (./links.ts). Reading a link changes nothing: mail scanners follow links. The
// two actions each make one UPDATE guarded by the link's `sequence` (so a link acts at most once,
// and never after any other change) and, for a move, by the partial UNIQUE index over active
// bookings (so two visitors cannot end up in one slot). Each action first takes the forms'
// per-network allowance (worker/services/limits/submission-limits.ts), and a change is made only
// while the appointment has changes left today (./changes.ts), claimed in the same transaction.

/** Why a link does not act: not ours or malformed (400), or past its appointment's start, or the appointment changed or cancelled since (410). */
export type LinkFailure = 'invalid' | 'expired' | 'used' | 'cancelled';

/** What the page shows: nothing personal beyond what the visitor booked. */
const managedAppointment = (row: AppointmentRow) => ({
  serviceType: row.serviceType,
  date: row.date,
  timeSlot: row.timeSlot,
  status: row.status,
  when: appointmentWhen(row, firm.timeZone),
});

export type LinkActionResult =
  | { ok: true; appointment: ReturnType<typeof managedAppointment> }
  | { ok: false; reason: LinkFailure }
  /** The forms' per-network allowance is used up (429, Retry-After), or the appointment's changes for today (429). */
  | { ok: false; reason: 'network'; message: string; retryAfter: number }
  | { ok: false; reason: 'changes-used-up'; message: string }
  /** A move to the time it already has (409). */
  | { ok: false; reason: 'same-slot' }
  /** A move the booking rules refuse (horizon, notice, holiday: 400), or to a day or slot that cannot be had (409). */
  | { ok: false; reason: 'rule-refused' | 'slot-refused'; message: string };

/** Why a genuine link for this row no longer acts: the appointment is cancelled or has changed. */
const staleFailure = (row: AppointmentRow | undefined): LinkFailure => (!row ? 'invalid' : row.status === 'cancelled' ? 'cancelled' : 'used');

/** The appointment a token still acts on, or why it does not. */
async function resolveLink(env: Bindings, db: Db, token: string, purposes: readonly AppointmentLinkPurpose[]) {
  const check = await verifyAppointmentLink(env.JWT_SECRET, token, purposes);
  if (!check.ok) return { ok: false as const, reason: check.reason };
  const row = await findLinkedAppointment(db, check.appointment);
  if (!row || row.status === 'cancelled' || row.sequence !== check.sequence) return { ok: false as const, reason: staleFailure(row) };
  return { ok: true as const, row, purpose: check.purpose };
}

/**
 * Why a guarded change of `previous` changed nothing: the row has changed since (as resolveLink
 * says), or, when it is as the link found it, today's changes are used up.
 */
async function refusedChange(env: Bindings, db: Db, previous: AppointmentRow): Promise<LinkActionResult> {
  // The row as it is now, after a guarded UPDATE changed nothing (someone else's change won).
  const now = await findAppointment(db, previous.id);
  if (now && now.status !== 'cancelled' && now.sequence === previous.sequence) {
    return { ok: false, reason: 'changes-used-up', message: appointmentChangesMessage((await publishedContent(env)).firm.contact.phone) };
  }
  return { ok: false, reason: staleFailure(now) };
}

/** The forms' per-network allowance, taken by each link action (counts attempts, never given back); null while it lasts. */
async function overNetworkAllowance(env: Bindings, networkHash: string): Promise<LinkActionResult | null> {
  if (await takeIpAllowance(env, networkHash)) return null;
  return { ok: false, reason: 'network', message: ipLimitMessage((await publishedContent(env)).firm.contact.phone), retryAfter: IP_WINDOW_SECONDS };
}

/** What the cancel or reschedule page shows (GET); changes nothing. */
export async function readLink(env: Bindings, db: Db, token: string) {
  const link = await resolveLink(env, db, token, ['appointment-cancel', 'appointment-reschedule']);
  if (!link.ok) return link;
  return { ok: true as const, action: link.purpose === 'appointment-cancel' ? ('cancel' as const) : ('reschedule' as const), appointment: managedAppointment(link.row) };
}

/** The visitor cancels through their link; both e-mails (theirs and the firm's) leave after the answer. */
export async function cancelByLink(env: Bindings, db: Db, request: { token: string; networkHash: string }, afterAnswer: AfterAnswer): Promise<LinkActionResult> {
  const over = await overNetworkAllowance(env, request.networkHash);
  if (over) return over;
  const link = await resolveLink(env, db, request.token, ['appointment-cancel']);
  if (!link.ok) return link;
  // The slot is free the moment this commits: the partial UNIQUE index ignores cancelled rows.
  const updated = await changeAppointment(env.DB, db, link.row, { status: 'cancelled' });
  if (!updated) return refusedChange(env, db, link.row);
  // The visitor acted through their e-mailed link: the trail names them only by the appointment's id.
  await recordAudit(db, { actor: 'visitor', action: 'appointment.cancel', record: `appointment:${updated.id}` });
  const { firm: firmFacts } = await publishedContent(env);
  await enqueue({ env, after: afterAnswer }, [
    appointmentCancelledByVisitorEmail(env, firmFacts, updated),
    appointmentChangeNotificationEmail(firmFacts, updated, { kind: 'cancelled' }),
  ]);
  return { ok: true, appointment: managedAppointment(updated) };
}

/**
 * The visitor moves their appointment through their link to another free slot (the date and slot
 * validated by the route with the booking form's rules); it becomes a request again, with an
 * updated invite and fresh links.
 */
export async function rescheduleByLink(
  env: Bindings,
  db: Db,
  request: { token: string; date: string; timeSlot: string; networkHash: string },
  afterAnswer: AfterAnswer,
): Promise<LinkActionResult> {
  const { date, timeSlot } = request;
  const over = await overNetworkAllowance(env, request.networkHash);
  if (over) return over;
  const link = await resolveLink(env, db, request.token, ['appointment-reschedule']);
  if (!link.ok) return link;
  const previous = link.row;
  if (previous.date === date && previous.timeSlot === timeSlot) return { ok: false, reason: 'same-slot' };
  const refusal = await availabilityRefusal(db, date, timeSlot);
  if (refusal) return { ok: false, reason: refusalStatus(refusal) === 400 ? 'rule-refused' : 'slot-refused', message: refusal };

  let updated: AppointmentRow | undefined;
  try {
    // One statement: the new slot is taken and the old one freed together, or nothing changes
    // (a slot taken fails the whole batch, so no change is counted either).
    updated = await changeAppointment(env.DB, db, previous, { date, timeSlot, status: 'requested' });
  } catch (error) {
    if (isSlotTaken(error)) return { ok: false, reason: 'slot-refused', message: BOOKING_MESSAGES.taken };
    throw error;
  }
  if (!updated) return refusedChange(env, db, previous);
  await recordAudit(db, { actor: 'visitor', action: 'appointment.reschedule', record: `appointment:${updated.id}` });
  const links = await appointmentLinks(env, { ...updated, timeSlot });
  const { firm: firmFacts } = await publishedContent(env);
  await enqueue({ env, after: afterAnswer }, [
    appointmentRescheduledEmail(env, firmFacts, updated, previous, links),
    appointmentChangeNotificationEmail(firmFacts, updated, { kind: 'rescheduled', previous }),
  ]);
  return { ok: true, appointment: managedAppointment(updated) };
}
