import { and, count, eq, gte, max } from 'drizzle-orm';
import { Hono } from 'hono';
import { getDb } from '../../db/client';
import { sentNewsletters } from '../../db/schema';
import type { AppEnv } from '../../env';
import { validate } from '../../middleware/validate';
import { sendNewsletterSchema } from '../../schemas/newsletter';
import { generateNewsletter } from '../../services/newsletter/ai-preview';
import { sanitizeHtml } from '../../services/newsletter/sanitize-html';
import { currentPeriod, schedulerState, setSchedulerRunning, startPeriodNewsletter } from '../../services/newsletter/scheduler';
import { countingD1 } from '../../services/newsletter/d1-counter';
import { batchSize, countActiveSubscribers, createNewsletter, getNewsletter, listSentNewsletters, sendNewsletterBatch } from '../../services/newsletter/sending';
import { listSubscribers } from '../../services/newsletter/subscriptions';
import { sampleTemplate, siteOrigin, staticNewsletter } from '../../services/newsletter/template';

/**
 * D1 calls and provider requests a send route makes besides its first batch (session check,
 * counts, creating the newsletter, the final read; the AI call and scheduler state for the
 * generated newsletter). The first batch shrinks by this much, so the request stays under the
 * plan's subrequest limit; the cron sends the rest.
 */
const SEND_ROUTE_OVERHEAD = 10;
const firstBatch = (env: AppEnv['Bindings']) => Math.max(1, batchSize(env) - SEND_ROUTE_OVERHEAD);

/** A second identical newsletter within this window is refused: a double click must not mail everyone twice. */
const DUPLICATE_WINDOW_MS = 10 * 60 * 1000;

function deliveredMessage(recipientCount: number, totalRecipients: number, status: string): string {
  if (status === 'sent') return `Newsletter sent to ${recipientCount} of ${totalRecipients} subscribers`;
  return `Newsletter is being sent: ${recipientCount} of ${totalRecipients} delivered so far; the rest follow automatically`;
}

/**
 * Subscribers, sending, previews and the scheduler (docs/product.md §5 and §11). Guarded by
 * requireAdmin in index.ts.
 */
export const adminNewsletter = new Hono<AppEnv>()
  .get('/subscribers', async (c) => c.json(await listSubscribers(getDb(c.env.DB)), 200))
  .get('/sent-newsletters', async (c) => c.json(await listSentNewsletters(getDb(c.env.DB)), 200))
  .post('/send-newsletter', validate('json', sendNewsletterSchema), async (c) => {
    const { subject, content } = c.req.valid('json');
    const d1 = countingD1(c.env.DB);
    const db = getDb(d1.db);
    const clean = sanitizeHtml(content);
    if (!clean.replace(/<[^>]*>/g, '').trim()) {
      return c.json({ message: 'The newsletter content is empty once unsafe HTML is removed' }, 400);
    }
    if ((await countActiveSubscribers(db)) === 0) {
      return c.json({ message: 'There are no active subscribers to send to' }, 400);
    }
    const recent = await db.query.sentNewsletters.findFirst({
      where: and(eq(sentNewsletters.subject, subject), eq(sentNewsletters.content, clean), gte(sentNewsletters.sentAt, new Date(Date.now() - DUPLICATE_WINDOW_MS))),
    });
    if (recent) return c.json({ message: 'This newsletter was sent a moment ago; it will not be sent twice' }, 409);
    const created = await createNewsletter(db, { subject, content: clean, trigger: 'manual' });
    const stats = await sendNewsletterBatch({ ...c.env, DB: d1.db }, db, { newsletterId: created.id, origin: siteOrigin(c.env, c.req.url), limit: firstBatch(c.env) });
    const after = (await getNewsletter(db, created.id))!;
    // +1: the session check in requireAdmin ran before this handler.
    console.log(`[newsletter-batch] ${JSON.stringify({ source: 'send-newsletter', ...stats, d1Calls: d1.calls() + 1, subrequests: d1.calls() + 1 + stats.providerRequests })}`);
    return c.json(
      {
        message: deliveredMessage(after.recipientCount, after.totalRecipients, after.status),
        newsletterId: after.id,
        recipientCount: after.recipientCount,
        totalRecipients: after.totalRecipients,
        status: after.status,
      },
      200,
    );
  })
  .post('/newsletter/send', async (c) => {
    const db = getDb(c.env.DB);
    const origin = siteOrigin(c.env, c.req.url);
    const result = await startPeriodNewsletter(c.env, db, { force: true, origin, trigger: 'manual' });
    if (result.outcome === 'no-subscribers') return c.json({ message: 'There are no active subscribers to send to' }, 400);
    if (result.outcome !== 'created') {
      return c.json({ message: `The ${currentPeriod().label} newsletter has already been sent` }, 409);
    }
    await sendNewsletterBatch(c.env, db, { newsletterId: result.newsletterId, origin, limit: firstBatch(c.env) });
    const after = (await getNewsletter(db, result.newsletterId))!;
    return c.json({ sentCount: after.recipientCount, message: deliveredMessage(after.recipientCount, after.totalRecipients, after.status), newsletterId: after.id }, 200);
  })
  .get('/newsletter/stats', async (c) => {
    const db = getDb(c.env.DB);
    const [activeSubscribers, [sent]] = await Promise.all([
      countActiveSubscribers(db),
      db.select({ total: count(), last: max(sentNewsletters.sentAt) }).from(sentNewsletters),
    ]);
    const last = sent?.last as Date | number | null | undefined;
    return c.json({ activeSubscribers, totalSent: sent?.total ?? 0, lastSent: last ? new Date(last).toISOString() : null }, 200);
  })
  .get('/newsletter/preview', async (c) => {
    const draft = await generateNewsletter(c.env, siteOrigin(c.env, c.req.url));
    return c.json({ subject: draft.subject, htmlContent: draft.htmlContent }, 200);
  })
  .get('/newsletter/preview-static', (c) => {
    const draft = staticNewsletter(siteOrigin(c.env, c.req.url));
    return c.json({ subject: draft.subject, htmlContent: draft.htmlContent }, 200);
  })
  .get('/newsletter/template', (c) => c.json(sampleTemplate(siteOrigin(c.env, c.req.url)), 200))
  .get('/scheduler/status', async (c) => {
    const state = await schedulerState(getDb(c.env.DB));
    return c.json({ running: state.running, schedule: state.schedule }, 200);
  })
  .post('/scheduler/:action{start|stop|trigger}', async (c) => {
    const action = c.req.param('action') as 'start' | 'stop' | 'trigger';
    const db = getDb(c.env.DB);
    if (action === 'start') {
      await setSchedulerRunning(db, true);
      return c.json({ message: 'Scheduler started successfully' }, 200);
    }
    if (action === 'stop') {
      await setSchedulerRunning(db, false);
      return c.json({ message: 'Scheduler stopped successfully' }, 200);
    }
    const origin = siteOrigin(c.env, c.req.url);
    const result = await startPeriodNewsletter(c.env, db, { force: true, origin, trigger: 'scheduled' });
    if (result.outcome === 'no-subscribers') return c.json({ message: 'There are no active subscribers to send to' }, 400);
    if (result.outcome !== 'created') {
      return c.json({ message: `The ${currentPeriod().label} newsletter has already been sent` }, 409);
    }
    await sendNewsletterBatch(c.env, db, { newsletterId: result.newsletterId, origin, limit: firstBatch(c.env) });
    const after = (await getNewsletter(db, result.newsletterId))!;
    return c.json({ message: `Scheduled newsletter triggered. ${deliveredMessage(after.recipientCount, after.totalRecipients, after.status)}` }, 200);
  });
