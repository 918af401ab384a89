import { and, eq, ne, sql } from 'drizzle-orm';
import { Hono } from 'hono';
import { firm } from '../../web/content/firm';
import { type Db, getDb } from '../db/client';
import { appointments } from '../db/schema';
import type { AppEnv, Bindings } from '../env';
import { validate } from '../middleware/validate';
import { cancelRequestSchema, LINK_MESSAGES, manageQuerySchema, rescheduleRequestSchema } from '../schemas/appointment-links';
import { BOOKING_MESSAGES } from '../schemas/appointments';
import { type AppointmentLinkPurpose, appointmentLinks, type LinkedAppointmentKey, verifyAppointmentLink } from '../services/appointment-links';
import { availabilityRefusal } from '../services/availability';
import { sendAfterAnswer } from '../services/email/send-email';
import {
  appointmentCancelledByVisitorEmail,
  appointmentChangeNotificationEmail,
  appointmentRescheduledEmail,
  appointmentWhen,
} from '../services/submission-emails';
import { isSlotTaken } from './appointments';

// The visitor's self-service (docs/product.md §3), reached from the Cancel and Reschedule links of
// the booking e-mails (worker/services/appointment-links.ts). GET only reads: mail scanners follow
// links. The two POSTs act, each as one UPDATE guarded by the link's `sequence` (so a link acts at
// most once, and never after any other change) and, for a move, by the partial UNIQUE index over
// active bookings (so two visitors cannot end up in one slot). Same-origin and the body limit are
// the API's global middleware (worker/index.ts).

type AppointmentRow = typeof appointments.$inferSelect;
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

/** The appointment a link names: by its public id, or by its numeric id (links sent before public ids). */
const linkedRow = (key: LinkedAppointmentKey) => ('publicId' in key ? eq(appointments.publicId, key.publicId) : eq(appointments.id, key.id));

/** The appointment a token still acts on, or why it does not. */
async function resolveLink(env: Bindings, db: Db, token: string, purposes: readonly AppointmentLinkPurpose[]) {
  const check = await verifyAppointmentLink(env.JWT_SECRET, token, purposes);
  if (!check.ok) return { ok: false as const, failure: { status: check.reason === 'expired' ? 410 : 400, reason: check.reason } as LinkFailure };
  const row = await db.query.appointments.findFirst({ where: linkedRow(check.appointment) });
  if (!row || row.status === 'cancelled' || row.sequence !== check.sequence) return { ok: false as const, failure: staleFailure(row) };
  return { ok: true as const, row, purpose: check.purpose };
}

/** The row as it is now, after a guarded UPDATE changed nothing (someone else's change won). */
const reread = (db: Db, id: number) => db.query.appointments.findFirst({ where: eq(appointments.id, id) });

export const appointmentLinksApi = new Hono<AppEnv>()
  // What the cancel or reschedule page shows; changes nothing.
  .get('/', validate('query', manageQuerySchema), async (c) => {
    const db = getDb(c.env.DB);
    const link = await resolveLink(c.env, db, c.req.valid('query').token, ['appointment-cancel', 'appointment-reschedule']);
    if (!link.ok) return c.json({ message: LINK_MESSAGES[link.failure.reason], reason: link.failure.reason }, link.failure.status);
    return c.json({ action: link.purpose === 'appointment-cancel' ? ('cancel' as const) : ('reschedule' as const), appointment: toManagedAppointment(link.row) }, 200);
  })
  .post('/cancel', validate('json', cancelRequestSchema), async (c) => {
    const db = getDb(c.env.DB);
    const link = await resolveLink(c.env, db, c.req.valid('json').token, ['appointment-cancel']);
    if (!link.ok) return c.json({ message: LINK_MESSAGES[link.failure.reason], reason: link.failure.reason }, link.failure.status);
    const { id, sequence } = link.row;
    // The slot is free the moment this commits: the partial UNIQUE index ignores cancelled rows.
    const [updated] = await db
      .update(appointments)
      .set({ status: 'cancelled', sequence: sql`${appointments.sequence} + 1`, updatedAt: new Date() })
      .where(and(eq(appointments.id, id), eq(appointments.sequence, sequence), ne(appointments.status, 'cancelled')))
      .returning();
    if (!updated) {
      const failure = staleFailure(await reread(db, id));
      return c.json({ message: LINK_MESSAGES[failure.reason], reason: failure.reason }, failure.status);
    }
    await sendAfterAnswer(c.env, c.executionCtx, [
      appointmentCancelledByVisitorEmail(c.env, updated),
      appointmentChangeNotificationEmail(updated, { kind: 'cancelled' }),
    ]);
    return c.json({ message: 'Your appointment has been cancelled. We have sent you a confirmation by e-mail.', appointment: toManagedAppointment(updated) }, 200);
  })
  // rescheduleRequestSchema reads the clock on each parse: the booking form's date and slot rules.
  .post('/reschedule', validate('json', rescheduleRequestSchema), async (c) => {
    const { token, date, timeSlot } = c.req.valid('json');
    const db = getDb(c.env.DB);
    const link = await resolveLink(c.env, db, token, ['appointment-reschedule']);
    if (!link.ok) return c.json({ message: LINK_MESSAGES[link.failure.reason], reason: link.failure.reason }, link.failure.status);
    const previous = link.row;
    if (previous.date === date && previous.timeSlot === timeSlot) return c.json({ message: LINK_MESSAGES.sameSlot }, 409);
    const refusal = await availabilityRefusal(db, date, timeSlot);
    if (refusal) return c.json({ message: refusal }, 409);

    let updated: AppointmentRow | undefined;
    try {
      // One statement: the new slot is taken and the old one freed together, or nothing changes.
      [updated] = await db
        .update(appointments)
        .set({ date, timeSlot, status: 'requested', sequence: sql`${appointments.sequence} + 1`, updatedAt: new Date() })
        .where(and(eq(appointments.id, previous.id), eq(appointments.sequence, previous.sequence), ne(appointments.status, 'cancelled')))
        .returning();
    } catch (error) {
      if (isSlotTaken(error)) return c.json({ message: BOOKING_MESSAGES.taken }, 409);
      throw error;
    }
    if (!updated) {
      const failure = staleFailure(await reread(db, previous.id));
      return c.json({ message: LINK_MESSAGES[failure.reason], reason: failure.reason }, failure.status);
    }
    const links = await appointmentLinks(c.env, { ...updated, timeSlot });
    await sendAfterAnswer(c.env, c.executionCtx, [
      appointmentRescheduledEmail(c.env, updated, previous, links),
      appointmentChangeNotificationEmail(updated, { kind: 'rescheduled', previous }),
    ]);
    return c.json(
      {
        message: "Your appointment has been moved. We'll contact you shortly to confirm the new time; an updated invite is on its way by e-mail.",
        appointment: toManagedAppointment(updated),
      },
      200,
    );
  });
