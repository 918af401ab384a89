import { Hono } from 'hono';
import { busyCalendarParamSchema, busyCalendarSchema, BUSY_CALENDAR_INPUT_MESSAGES } from '#core/schemas/calendar-sync';
import type { AppEnv } from '../../env';
import { validate } from '../../middleware/validate';
import {
  addBusyCalendarNow,
  feedStatus,
  listBusyCalendars,
  redactedCalendarUrl,
  refreshBusyCalendarNow,
  removeBusyCalendarNow,
  rotateFeed,
  type BusyCalendarRow,
} from '../../services/appointments';
import { adminActor } from '../../middleware/audit';

/** What the admin sees of a busy calendar: never the secret address, only its host. */
const view = (row: BusyCalendarRow) => ({
  id: row.id,
  label: row.label,
  address: redactedCalendarUrl(row.url),
  busyCount: row.busy.length,
  lastSuccessAt: row.lastSuccessAt,
  lastError: row.lastError,
  lastErrorAt: row.lastErrorAt,
});

/**
 * The firm's calendar in both directions (docs/product.md §6.4), mounted under /api/admin (admin
 * only): the private feed's status and rotation, and the busy calendars.
 */
export const adminCalendarSync = new Hono<AppEnv>()
  .get('/calendar-feed', async (c) => c.json(await feedStatus(c.var.db), 200))
  // A new secret replaces the old one at once (the old address answers 404); the address is shown
  // this once, in this answer (docs/decisions/0014).
  .post('/calendar-feed/rotate', async (c) => c.json(await rotateFeed(c.env, c.var.db, adminActor(c)), 201))
  .get('/busy-calendars', async (c) => {
    const rows = await listBusyCalendars(c.var.db);
    return c.json({ calendars: rows.map(view) }, 200);
  })
  // Stored, then fetched at once: a failed first fetch keeps the address, with its error shown.
  .post('/busy-calendars', validate('json', busyCalendarSchema), async (c) => {
    const added = await addBusyCalendarNow(c.env, c.var.db, { ...c.req.valid('json'), requestUrl: c.req.url }, adminActor(c));
    if (!added.ok) return c.json({ message: added.problem, fields: { url: [added.problem] } }, 400);
    return c.json(view(added.calendar), 201);
  })
  .post('/busy-calendars/:id/refresh', validate('param', busyCalendarParamSchema), async (c) => {
    const row = await refreshBusyCalendarNow(c.env, c.var.db, { id: c.req.valid('param').id, requestUrl: c.req.url }, adminActor(c));
    if (!row) return c.json({ message: BUSY_CALENDAR_INPUT_MESSAGES.id }, 404);
    return c.json(view(row), 200);
  })
  // Idempotent: removing a removed calendar is still 204. Its busy times stop closing slots at once.
  .delete('/busy-calendars/:id', validate('param', busyCalendarParamSchema), async (c) => {
    await removeBusyCalendarNow(c.var.db, c.req.valid('param').id, adminActor(c));
    return c.body(null, 204);
  });

export type AdminBusyCalendar = ReturnType<typeof view>;
