import { Hono } from 'hono';
import { busyCalendarParamSchema, busyCalendarSchema, BUSY_CALENDAR_INPUT_MESSAGES } from '#core/schemas/calendar-sync';
import { getDb } from '../../db/client';
import type { AppEnv } from '../../env';
import { validate } from '../../middleware/validate';
import {
  addBusyCalendar,
  isLocalDevelopment,
  calendarUrlProblem,
  normalizeCalendarUrl,
  findBusyCalendar,
  listBusyCalendars,
  redactedCalendarUrl,
  refreshBusyCalendar,
  removeBusyCalendar,
  type BusyCalendarRow,
} from '../../services/appointments/busy-calendars';
import { feedStatus, feedUrls, rotateFeedSecret } from '../../services/appointments/calendar-feed';
import { audit } from '../../middleware/audit';

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
  .get('/calendar-feed', async (c) => c.json(await feedStatus(getDb(c.env.DB)), 200))
  // A new secret replaces the old one at once (the old address answers 404); the address is shown
  // this once, in this answer (docs/decisions/0014).
  .post('/calendar-feed/rotate', async (c) => {
    const { secret, createdAt } = await rotateFeedSecret(getDb(c.env.DB));
    await audit(c, 'calendar.feed-rotate');
    return c.json({ active: true, createdAt, ...feedUrls(c.env, secret) }, 201);
  })
  .get('/busy-calendars', async (c) => {
    const rows = await listBusyCalendars(getDb(c.env.DB));
    return c.json({ calendars: rows.map(view) }, 200);
  })
  // Stored, then fetched at once: a failed first fetch keeps the address, with its error shown.
  .post('/busy-calendars', validate('json', busyCalendarSchema), async (c) => {
    const { label, url: typed } = c.req.valid('json');
    const url = normalizeCalendarUrl(typed);
    const localDevelopment = isLocalDevelopment(c.env, c.req.url);
    const problem = calendarUrlProblem(new URL(url), localDevelopment);
    if (problem) return c.json({ message: problem, fields: { url: [problem] } }, 400);
    const db = getDb(c.env.DB);
    const id = await addBusyCalendar(db, { label, url });
    await audit(c, 'calendar.busy-add', `busy-calendar:${id}`);
    await refreshBusyCalendar(c.env, db, { id, url }, { localDevelopment });
    return c.json(view(await findBusyCalendar(db, id)), 201);
  })
  .post('/busy-calendars/:id/refresh', validate('param', busyCalendarParamSchema), async (c) => {
    const db = getDb(c.env.DB);
    const row = await findBusyCalendar(db, c.req.valid('param').id);
    if (!row) return c.json({ message: BUSY_CALENDAR_INPUT_MESSAGES.id }, 404);
    await refreshBusyCalendar(c.env, db, row, { localDevelopment: isLocalDevelopment(c.env, c.req.url) });
    await audit(c, 'calendar.busy-refresh', `busy-calendar:${row.id}`);
    return c.json(view(await findBusyCalendar(db, row.id)), 200);
  })
  // Idempotent: removing a removed calendar is still 204. Its busy times stop closing slots at once.
  .delete('/busy-calendars/:id', validate('param', busyCalendarParamSchema), async (c) => {
    await removeBusyCalendar(getDb(c.env.DB), c.req.valid('param').id);
    await audit(c, 'calendar.busy-remove', `busy-calendar:${c.req.valid('param').id}`);
    return c.body(null, 204);
  });

export type AdminBusyCalendar = ReturnType<typeof view>;
