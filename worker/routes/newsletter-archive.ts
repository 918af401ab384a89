import { Hono } from 'hono';
import type { AppEnv } from '../env';
import { archivedIssue, listArchivedIssues } from '../services/newsletter';
import { siteOrigin } from '../services/platform/site-origin';

/** A newsletter id as the archive's URLs write it: digits only, no leading zero. */
export const ISSUE_ID = /^[1-9][0-9]{0,15}$/;

export const issueId = (param: string): number | null => (ISSUE_ID.test(param) ? Number(param) : null);

/**
 * The public newsletter archive's API (docs/product.md §5): the issues that went out and each one's
 * HTML, with nothing about their recipients (worker/services/newsletter/archive.ts).
 */
export const newsletterArchive = new Hono<AppEnv>()
  .get('/', async (c) => c.json(await listArchivedIssues(c.var.db), 200))
  .get('/:id', async (c) => {
    const id = issueId(c.req.param('id'));
    const issue = id === null ? null : await archivedIssue(c.env, c.var.db, id, siteOrigin(c.env, c.req.url));
    if (!issue) return c.json({ message: 'Newsletter not found' }, 404);
    return c.json(issue, 200);
  });
