import { type Context, Hono } from 'hono';
import { firm } from '#core/content/firm';
import { type Db, getDb } from '../db/client';
import type { AppEnv, Bindings } from '../env';
import { validate } from '../middleware/validate';
import { cancelRequestSchema, LINK_MESSAGES, manageQuerySchema, rescheduleRequestSchema } from '#core/schemas/appointment-links';
import { BOOKING_MESSAGES } from '#core/schemas/appointments';
import { type AppointmentLinkPurpose, appointmentLinks, verifyAppointmentLink } from '../services/appointments/links';
import { appointmentChangesMessage, changeAppointment, findLinkedAppointment } from '../services/appointments/changes';
import { availabilityRefusal, refusalStatus } from '../services/appointments/availability';
import { type AppointmentRow, findAppointment, isSlotTaken } from '../services/appointments/bookings';
import { networkHash } from '../middleware/client-network';
import { sendAfterAnswer } from '../services/email/send-email';
import {
  appointmentCancelledByVisitorEmail,
  appointmentChangeNotificationEmail,
  appointmentRescheduledEmail,
  appointmentWhen,
} from '../services/email/submission-emails';
import { publishedContent } from '../services/content/published';
import { IP_WINDOW_SECONDS, ipLimitMessage, takeIpAllowance } from '../services/limits/submission-limits';
import { recordAudit } from '../services/audit/audit-log';

// The visitor's self-service (docs/product.md §3), reached from the Cancel and Reschedule links of
// the booking e-mails (worker/services/appointments/links.ts). GET only reads: mail scanners follow
// links. The two POSTs act, each as one UPDATE guarded by the link's `sequence` (so a link acts at
// most once, and never after any other change) and, for a move, by the partial UNIQUE index over
// active bookings (so two visitors cannot end up in one slot). Each POST first takes the forms'
// per-network allowance (worker/services/limits/submission-limits.ts), and a change is made only while the
// appointment has changes left today (worker/services/appointments/changes.ts), claimed in the same
// transaction. Same-origin and the body limit are the API's global middleware (worker/index.ts).

type LinkFailure = { status: 400 | 410; reason: 'invalid' | 'expired' | 'used' | 'cancelled' };

/** What the page shows: nothing personal beyond what the visitor booked. */
const toManagedAppointment = (row: AppointmentRow) => ({
  serviceType: row.serviceType,
  date: row.date,
  timeSlot: row.timeSlot,
  status: row.status,
  when: appointmentWhen(row, firm.timeZone),
});

/** Why a genuine link for this row no longer acts: the appointment is cancelled or has changed. */
const staleFailure = (row: AppointmentRow | undefined): LinkFailure =>
  !row ? { status: 400, reason: 'invalid' } : row.status === 'cancelled' ? { status: 410, reason: 'cancelled' } : { status: 410, reason: 'used' };

/** The appointment a token still acts on, or why it does not. */
async function resolveLink(env: Bindings, db: Db, token: string, purposes: readonly AppointmentLinkPurpose[]) {
  const check = await verifyAppointmentLink(env.JWT_SECRET, token, purposes);
  if (!check.ok) return { ok: false as const, failure: { status: check.reason === 'expired' ? 410 : 400, reason: check.reason } as LinkFailure };
  const row = await findLinkedAppointment(db, check.appointment);
  if (!row || row.status === 'cancelled' || row.sequence !== check.sequence) return { ok: false as const, failure: staleFailure(row) };
  return { ok: true as const, row, purpose: check.purpose };
}

/**
 * Why a guarded change of `previous` changed nothing: the row has changed since (400/410, as
 * resolveLink says), or, when it is as the link found it, today's changes are used up (429).
 */
async function refusedChange(env: AppEnv['Bindings'], db: Db, previous: AppointmentRow) {
  // The row as it is now, after a guarded UPDATE changed nothing (someone else's change won).
  const now = await findAppointment(db, previous.id);
  if (now && now.status !== 'cancelled' && now.sequence === previous.sequence) return { body: { message: appointmentChangesMessage((await publishedContent(env)).firm.contact.phone) }, status: 429 as const };
  const failure = staleFailure(now);
  return { body: { message: LINK_MESSAGES[failure.reason], reason: failure.reason }, status: failure.status };
}

/** The forms' per-network allowance, taken by each link action (counts attempts, never given back). */
const overNetworkAllowance = async (c: Context<AppEnv>) => !(await takeIpAllowance(c.env, await networkHash(c)));
const networkRefusal = async (c: Context<AppEnv>) =>
  c.json({ message: ipLimitMessage((await publishedContent(c.env)).firm.contact.phone) }, 429, { 'Retry-After': String(IP_WINDOW_SECONDS) });

export const appointmentLinksApi = new Hono<AppEnv>()
  // What the cancel or reschedule page shows; changes nothing.
  .get('/', validate('query', manageQuerySchema), async (c) => {
    const db = getDb(c.env.DB);
    const link = await resolveLink(c.env, db, c.req.valid('query').token, ['appointment-cancel', 'appointment-reschedule']);
    if (!link.ok) return c.json({ message: LINK_MESSAGES[link.failure.reason], reason: link.failure.reason }, link.failure.status);
    return c.json({ action: link.purpose === 'appointment-cancel' ? ('cancel' as const) : ('reschedule' as const), appointment: toManagedAppointment(link.row) }, 200);
  })
  .post('/cancel', validate('json', cancelRequestSchema), async (c) => {
    if (await overNetworkAllowance(c)) return networkRefusal(c);
    const db = getDb(c.env.DB);
    const link = await resolveLink(c.env, db, c.req.valid('json').token, ['appointment-cancel']);
    if (!link.ok) return c.json({ message: LINK_MESSAGES[link.failure.reason], reason: link.failure.reason }, link.failure.status);
    // The slot is free the moment this commits: the partial UNIQUE index ignores cancelled rows.
    const updated = await changeAppointment(c.env.DB, db, link.row, { status: 'cancelled' });
    if (!updated) {
      const refusal = await refusedChange(c.env, db, link.row);
      return c.json(refusal.body, refusal.status);
    }
    // The visitor acted through their e-mailed link: the trail names them only by the appointment's id.
    await recordAudit(db, { actor: 'visitor', action: 'appointment.cancel', record: `appointment:${updated.id}` });
    const { firm: firmFacts } = await publishedContent(c.env);
    await sendAfterAnswer(c.env, c.executionCtx, [
      appointmentCancelledByVisitorEmail(c.env, firmFacts, updated),
      appointmentChangeNotificationEmail(firmFacts, updated, { kind: 'cancelled' }),
    ]);
    return c.json({ message: 'Your appointment has been cancelled. We have sent you a confirmation by e-mail.', appointment: toManagedAppointment(updated) }, 200);
  })
  // rescheduleRequestSchema reads the clock on each parse: the booking form's date and slot rules.
  .post('/reschedule', validate('json', rescheduleRequestSchema), async (c) => {
    const { token, date, timeSlot } = c.req.valid('json');
    if (await overNetworkAllowance(c)) return networkRefusal(c);
    const db = getDb(c.env.DB);
    const link = await resolveLink(c.env, db, token, ['appointment-reschedule']);
    if (!link.ok) return c.json({ message: LINK_MESSAGES[link.failure.reason], reason: link.failure.reason }, link.failure.status);
    const previous = link.row;
    if (previous.date === date && previous.timeSlot === timeSlot) return c.json({ message: LINK_MESSAGES.sameSlot }, 409);
    const refusal = await availabilityRefusal(db, date, timeSlot);
    if (refusal) return c.json({ message: refusal }, refusalStatus(refusal));

    let updated: AppointmentRow | undefined;
    try {
      // One statement: the new slot is taken and the old one freed together, or nothing changes
      // (a slot taken fails the whole batch, so no change is counted either).
      updated = await changeAppointment(c.env.DB, db, previous, { date, timeSlot, status: 'requested' });
    } catch (error) {
      if (isSlotTaken(error)) return c.json({ message: BOOKING_MESSAGES.taken }, 409);
      throw error;
    }
    if (!updated) {
      const refusal = await refusedChange(c.env, db, previous);
      return c.json(refusal.body, refusal.status);
    }
    await recordAudit(db, { actor: 'visitor', action: 'appointment.reschedule', record: `appointment:${updated.id}` });
    const links = await appointmentLinks(c.env, { ...updated, timeSlot });
    const { firm: firmFacts } = await publishedContent(c.env);
    await sendAfterAnswer(c.env, c.executionCtx, [
      appointmentRescheduledEmail(c.env, firmFacts, updated, previous, links),
      appointmentChangeNotificationEmail(firmFacts, updated, { kind: 'rescheduled', previous }),
    ]);
    return c.json(
      {
        message: "Your appointment has been moved. We'll contact you shortly to confirm the new time; an updated invite is on its way by e-mail.",
        appointment: toManagedAppointment(updated),
      },
      200,
    );
  });
