import { Hono } from 'hono';
import type { AppEnv } from '../../env';
import { validate } from '../../middleware/validate';
import { idParamSchema } from '#core/schemas/appointments';
import { firm } from '#core/content/firm';
import { sendNewsletterSchema, subscriberListQuerySchema } from '#core/schemas/newsletter';
import {
  currentPeriod,
  eraseSubscriber,
  generateNewsletter,
  listSentNewsletters,
  listSubscribers,
  newsletterStats,
  resendConfirmation,
  schedulerState,
  searchSubscribers,
  sendComposedNewsletter,
  sendNewsletterNow,
  setSchedulerRunning,
  startingDraft,
  subscriberCounts,
  type SubscriberStatus,
} from '../../services/newsletter';
import { siteOrigin } from '../../services/platform/site-origin';
import { audit } from '../../middleware/audit';

function deliveredMessage(recipientCount: number, totalRecipients: number, status: string): string {
  if (status === 'sent') return `Newsletter sent to ${recipientCount} of ${totalRecipients} subscribers`;
  return `Newsletter is being sent: ${recipientCount} of ${totalRecipients} delivered so far; the rest follow automatically`;
}

const SUBSCRIBER_NOT_FOUND = 'Subscriber not found';

/** Why a confirmation is not resent: only a pending, unsuppressed subscriber is asked to confirm. */
const notPendingMessage: Record<SubscriberStatus, string> = {
  pending: 'This address is suppressed; nothing is sent to it',
  active: 'This subscriber has already confirmed',
  unsubscribed: 'This subscriber has unsubscribed; no confirmation is sent',
  bounced: 'This address bounced and is suppressed; nothing is sent to it',
  complained: 'This address reported our mail as spam and is suppressed; nothing is sent to it',
};

/**
 * Subscribers, sending, previews and the scheduler (docs/product.md §5 and §11). Behind
 * requireAdmin (routes/admin/index.ts).
 */
export const adminNewsletter = new Hono<AppEnv>()
  // Every subscriber, for the CSV export (docs/product.md §6.3); the screen reads /subscribers/search.
  .get('/subscribers', async (c) => c.json(await listSubscribers(c.var.db), 200))
  .get('/subscribers/search', validate('query', subscriberListQuerySchema), async (c) =>
    c.json(await searchSubscribers(c.var.db, c.req.valid('query'), firm.timeZone), 200),
  )
  .get('/subscribers/counts', async (c) => c.json(await subscriberCounts(c.var.db), 200))
  // Erasure on request (docs/product.md §6.3): the row goes, the records that stay name nobody.
  .delete('/subscribers/:id', validate('param', idParamSchema), async (c) => {
    const erased = await eraseSubscriber(c.var.db, c.req.valid('param').id);
    if (!erased) return c.json({ message: SUBSCRIBER_NOT_FOUND }, 404);
    await audit(c, 'subscriber.erase', `subscriber:${c.req.valid('param').id}`);
    return c.json({ message: `${erased.email} has been deleted and erased from the delivery records` }, 200);
  })
  .post('/subscribers/:id/resend-confirmation', validate('param', idParamSchema), async (c) => {
    const result = await resendConfirmation(c.env, c.var.db, c.req.valid('param').id, siteOrigin(c.env, c.req.url));
    switch (result.outcome) {
      case 'sent':
        await audit(c, 'subscriber.resend-confirmation', `subscriber:${c.req.valid('param').id}`);
        return c.json({ message: `Confirmation e-mail sent to ${result.email}` }, 200);
      case 'not-found':
        return c.json({ message: SUBSCRIBER_NOT_FOUND }, 404);
      case 'not-pending':
        return c.json({ message: notPendingMessage[result.status] }, 409);
      case 'too-soon': {
        const minutes = Math.ceil(result.retryAfterSeconds / 60);
        c.header('Retry-After', String(result.retryAfterSeconds));
        return c.json({ message: `A confirmation e-mail went to this address less than 10 minutes ago. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.` }, 429);
      }
      case 'failed':
        return c.json({ message: 'The confirmation e-mail could not be sent. Please try again.' }, 502);
    }
  })
  .get('/sent-newsletters', async (c) => c.json(await listSentNewsletters(c.var.db), 200))
  .post('/send-newsletter', validate('json', sendNewsletterSchema), async (c) => {
    const { subject, content } = c.req.valid('json');
    const result = await sendComposedNewsletter(c.env, { subject, content }, siteOrigin(c.env, c.req.url));
    if (result.outcome === 'empty-content') return c.json({ message: 'The newsletter content is empty once unsafe HTML is removed' }, 400);
    if (result.outcome === 'duplicate') return c.json({ message: 'This newsletter was sent a moment ago; it will not be sent twice' }, 409);
    if (result.outcome !== 'created') return c.json({ message: 'There are no active subscribers to send to' }, 400);
    const { newsletterId, recipientCount, totalRecipients, status } = result.newsletter;
    await audit(c, 'newsletter.send', `newsletter:${newsletterId}`);
    return c.json({ message: deliveredMessage(recipientCount, totalRecipients, status), newsletterId, recipientCount, totalRecipients, status }, 200);
  })
  .post('/newsletter/send', async (c) => {
    const result = await sendNewsletterNow(c.env, c.var.db, { kind: 'period', trigger: 'manual', force: true }, { origin: siteOrigin(c.env, c.req.url) });
    if (result.outcome === 'no-subscribers') return c.json({ message: 'There are no active subscribers to send to' }, 400);
    if (result.outcome !== 'created') return c.json({ message: `The ${currentPeriod().label} newsletter has already been sent` }, 409);
    const { newsletterId, recipientCount, totalRecipients, status } = result.newsletter;
    await audit(c, 'newsletter.send', `newsletter:${newsletterId}`);
    return c.json({ sentCount: recipientCount, message: deliveredMessage(recipientCount, totalRecipients, status), newsletterId }, 200);
  })
  .get('/newsletter/stats', async (c) => c.json(await newsletterStats(c.var.db), 200))
  // subject and htmlContent as docs/product.md §11 lists them; aiUnavailable says the draft is the
  // static template because Workers AI gave none, so the admin is not shown it as an AI draft.
  .get('/newsletter/preview', async (c) => {
    const draft = await generateNewsletter(c.env, siteOrigin(c.env, c.req.url));
    return c.json({ subject: draft.subject, htmlContent: draft.htmlContent, aiUnavailable: draft.source === 'static' }, 200);
  })
  .get('/newsletter/preview-static', async (c) => {
    const draft = await startingDraft(c.env, 'static', siteOrigin(c.env, c.req.url));
    return c.json({ subject: draft.subject, htmlContent: draft.htmlContent }, 200);
  })
  .get('/newsletter/template', async (c) => c.json(await startingDraft(c.env, 'sample', siteOrigin(c.env, c.req.url)), 200))
  .get('/scheduler/status', async (c) => {
    const state = await schedulerState(c.var.db);
    return c.json({ running: state.running, schedule: state.schedule }, 200);
  })
  .post('/scheduler/:action{start|stop|trigger}', async (c) => {
    const action = c.req.param('action') as 'start' | 'stop' | 'trigger';
    if (action === 'start') {
      await setSchedulerRunning(c.var.db, true);
      await audit(c, 'newsletter.schedule-start');
      return c.json({ message: 'Scheduler started successfully' }, 200);
    }
    if (action === 'stop') {
      await setSchedulerRunning(c.var.db, false);
      await audit(c, 'newsletter.schedule-stop');
      return c.json({ message: 'Scheduler stopped successfully' }, 200);
    }
    const result = await sendNewsletterNow(c.env, c.var.db, { kind: 'period', trigger: 'scheduled', force: true }, { origin: siteOrigin(c.env, c.req.url) });
    if (result.outcome === 'no-subscribers') return c.json({ message: 'There are no active subscribers to send to' }, 400);
    if (result.outcome !== 'created') return c.json({ message: `The ${currentPeriod().label} newsletter has already been sent` }, 409);
    const { recipientCount, totalRecipients, status } = result.newsletter;
    await audit(c, 'newsletter.schedule-trigger', `newsletter:${result.newsletter.newsletterId}`);
    return c.json({ message: `Scheduled newsletter triggered. ${deliveredMessage(recipientCount, totalRecipients, status)}` }, 200);
  });
