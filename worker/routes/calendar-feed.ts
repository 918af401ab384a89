import { Hono } from 'hono';
import type { AppEnv } from '../env';
import { calendarFeedFile } from '../services/appointments';
import { safeErrorSummary } from '../services/platform/log-safe';

/**
 * The firm's private calendar feed, GET /api/calendar/<secret>.ics (docs/product.md §6.4): what
 * Google Calendar, Outlook and Apple Calendar subscribe to. The secret is the only key: a wrong or
 * rotated one is a plain 404. The ETag is checked before anything is rendered (304).
 */
export const calendarFeedApi = new Hono<AppEnv>().get('/:file', async (c) => {
  try {
    const feed = await calendarFeedFile(c.env, c.var.db, c.req.param('file') ?? '', c.req.header('if-none-match'));
    if (!feed.found) return c.json({ message: 'Not found' }, 404);
    // Private (names and contacts): no shared cache may keep it; calendars revalidate with the ETag.
    const headers = { ETag: feed.etag, 'Cache-Control': 'private, no-cache' };
    if (!feed.modified) return c.body(null, 304, headers);
    return c.body(feed.body, 200, { ...headers, 'Content-Type': 'text/calendar; charset=utf-8', 'Content-Disposition': 'inline; filename="appointments.ics"' });
  } catch (error) {
    // Logged here, not by app.onError, which logs the path: here the path is the secret.
    console.error('Calendar feed failed', safeErrorSummary(error));
    return c.json({ message: 'Internal server error' }, 500);
  }
});
