import { Hono, type Context } from 'hono';
import type { AppEnv } from '../env';
import { feedEtag, isFeedSecret, renderFeed } from '../services/appointments';
import { safeErrorSummary } from '../services/platform/log-safe';
import { publishedContent } from '../services/content/published';

/**
 * The firm's private calendar feed, GET /api/calendar/<secret>.ics (docs/product.md §6.4): what
 * Google Calendar, Outlook and Apple Calendar subscribe to. The secret is the only key: a wrong or
 * rotated one is a plain 404. The ETag is checked before anything is rendered (304).
 */
export const calendarFeedApi = new Hono<AppEnv>().get('/:file', async (c) => {
  try {
    return await answerFeed(c);
  } catch (error) {
    // Logged here, not by app.onError, which logs the path: here the path is the secret.
    console.error('Calendar feed failed', safeErrorSummary(error));
    return c.json({ message: 'Internal server error' }, 500);
  }
});

async function answerFeed(c: Context<AppEnv>) {
  const file = c.req.param('file') ?? '';
  const db = c.var.db;
  if (!file.endsWith('.ics') || !(await isFeedSecret(db, file.slice(0, -'.ics'.length)))) return c.json({ message: 'Not found' }, 404);
  const now = new Date();
  const { firm } = await publishedContent(c.env);
  const etag = await feedEtag(db, firm, now);
  // Private (names and contacts): no shared cache may keep it; calendars revalidate with the ETag.
  const headers = { ETag: etag, 'Cache-Control': 'private, no-cache' };
  const asked = c.req.header('if-none-match');
  if (asked && asked.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)) return c.body(null, 304, headers);
  const body = await renderFeed(c.env, db, firm, now);
  return c.body(body, 200, { ...headers, 'Content-Type': 'text/calendar; charset=utf-8', 'Content-Disposition': 'inline; filename="appointments.ics"' });
}
