import { Hono } from 'hono';
import { firm } from '#core/content/firm';
import { getDb } from '../../db/client';
import type { AppEnv } from '../../env';
import { validate } from '../../middleware/validate';
import { LIST_PAGE_SIZE, type ListPage } from '#core/schemas/admin-list';
import { appointmentListQuerySchema, appointmentStatusSchema, BOOKING_MESSAGES, CONFIRM_MESSAGES, idParamSchema, slotHasPassed } from '#core/schemas/appointments';
import { appointmentLinks } from '../../services/appointments/links';
import { availabilityRefusal } from '../../services/appointments/availability';
import { type AppointmentRow, findAppointment, isSlotTaken, listAppointments, searchAppointments, setAppointmentStatus } from '../../services/appointments/bookings';
import { firmToday } from '#core/firm-time';
import { appointmentStatusEmail, hasTime, sendAfterStoring } from '../../services/email/submission-emails';
import { publishedContent } from '../../services/content/published';
import { audit } from '../../middleware/audit';

/** The admin list's shape (docs/product.md §11). */
export const toAppointment = (row: AppointmentRow) => ({
  id: row.id,
  name: row.name,
  email: row.email,
  phone: row.phone,
  serviceType: row.serviceType,
  date: row.date,
  timeSlot: row.timeSlot,
  notes: row.notes,
  status: row.status,
  createdAt: row.createdAt.toISOString(),
});

/**
 * Appointments for the admin: upcoming first (soonest first), then past (most recent first). GET /
 * keeps its shape (a list); the panel reads GET /search, a page of 50 with the figures it shows.
 */
export const adminAppointments = new Hono<AppEnv>()
  .get('/', async (c) => {
    const rows = await listAppointments(getDb(c.env.DB), firmToday(firm.timeZone));
    return c.json(rows.map(toAppointment), 200);
  })
  .get('/search', validate('query', appointmentListQuerySchema), async (c) => {
    const query = c.req.valid('query');
    const found = await searchAppointments(getDb(c.env.DB), query, firmToday(firm.timeZone));
    const page: ListPage<ReturnType<typeof toAppointment>> & { upcoming: number; past: number; awaiting: number } = {
      items: found.rows.map(toAppointment),
      total: found.total,
      page: query.page,
      pageSize: LIST_PAGE_SIZE,
      upcoming: found.upcoming,
      past: found.past,
      awaiting: found.awaiting,
    };
    return c.json(page, 200);
  })
  .patch('/:id', validate('param', idParamSchema), validate('json', appointmentStatusSchema), async (c) => {
    const { id } = c.req.valid('param');
    const { status, timeSlot: picked } = c.req.valid('json');
    const db = getDb(c.env.DB);
    const current = await findAppointment(db, id);
    if (!current) return c.json({ message: 'Appointment not found' }, 404);
    // A request without a time is confirmed with the free slot the admin picked (docs/product.md
    // §3): only then does it hold a slot, and only then does the visitor get the invite and links.
    const picking = status === 'confirmed' && current.timeSlot === null;
    if (picking && !picked) return c.json({ message: CONFIRM_MESSAGES.slotNeeded, fields: { timeSlot: [CONFIRM_MESSAGES.slotNeeded] } }, 400);
    if (status === 'confirmed' && picked && current.timeSlot !== null && picked !== current.timeSlot) return c.json({ message: CONFIRM_MESSAGES.hasTime }, 409);
    if (current.status === status) return c.json(toAppointment(current), 200);
    if (picking) {
      if (slotHasPassed(current.date, picked!, firm.timeZone)) return c.json({ message: BOOKING_MESSAGES.slotPassed }, 409);
      // The booking rules are for visitors: the admin may confirm inside the notice or on a holiday.
      const refusal = await availabilityRefusal(db, current.date, picked!, { rules: false });
      if (refusal) return c.json({ message: refusal }, 409);
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
        return c.json({ message }, 409);
      }
      throw error;
    }
    if (!updated) return c.json({ message: 'Appointment not found' }, 404);
    // Confirmed: a REQUEST with fresh cancel/reschedule links; cancelled: a CANCEL that removes the
    // event (a request that never had a time had no event: a plain notice).
    const links = updated.status === 'cancelled' || !hasTime(updated) ? undefined : await appointmentLinks(c.env, updated);
    await audit(c, updated.status === 'cancelled' ? 'appointment.cancel' : 'appointment.confirm', `appointment:${updated.id}`);
    await sendAfterStoring(c.env, [appointmentStatusEmail(c.env, (await publishedContent(c.env)).firm, updated, links)]);
    return c.json(toAppointment(updated), 200);
  });
