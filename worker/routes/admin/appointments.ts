import { Hono } from 'hono';
import { firm } from '#core/content/firm';
import type { AppEnv } from '../../env';
import { validate } from '../../middleware/validate';
import { LIST_PAGE_SIZE, type ListPage } from '#core/schemas/admin-list';
import { appointmentListQuerySchema, appointmentStatusSchema, CONFIRM_MESSAGES, idParamSchema } from '#core/schemas/appointments';
import { type AppointmentRow, listAppointments, searchAppointments, confirmOrCancel } from '../../services/appointments';
import { firmToday } from '#core/firm-time';
import { adminActor } from '../../middleware/audit';

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
    const rows = await listAppointments(c.var.db, firmToday(firm.timeZone));
    return c.json(rows.map(toAppointment), 200);
  })
  .get('/search', validate('query', appointmentListQuerySchema), async (c) => {
    const query = c.req.valid('query');
    const found = await searchAppointments(c.var.db, query, firmToday(firm.timeZone));
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
  // Confirm (with a picked slot for a request without a time) or cancel (confirmOrCancel).
  .patch('/:id', validate('param', idParamSchema), validate('json', appointmentStatusSchema), async (c) => {
    const result = await confirmOrCancel(c.env, c.var.db, { id: c.req.valid('param').id, ...c.req.valid('json') }, adminActor(c));
    if (result.ok) return c.json(toAppointment(result.appointment), 200);
    switch (result.reason) {
      case 'not-found':
        return c.json({ message: 'Appointment not found' }, 404);
      case 'slot-needed':
        return c.json({ message: result.message, fields: { timeSlot: [CONFIRM_MESSAGES.slotNeeded] } }, 400);
      case 'slot-refused':
        return c.json({ message: result.message }, 409);
    }
  });
