import { Hono } from 'hono';
import { idParamSchema } from '#core/schemas/appointments';
import { newsletterDraftSchema, newsletterRenderSchema, scheduleDraftSchema } from '#core/schemas/newsletter-drafts';
import { mayUse } from '../../services/admin-auth';
import type { AppEnv } from '../../env';
import { validate } from '../../middleware/validate';
import { audit } from '../../middleware/audit';
import {
  cancelScheduledDraft,
  createDraft,
  deleteDraft,
  firmWhen,
  getDraft,
  listDrafts,
  renderDraftPreview,
  scheduleDraftFor,
  toDraft,
  updateDraft,
} from '../../services/newsletter';
import { siteOrigin } from '../../services/platform/site-origin';

const DRAFT_NOT_FOUND = 'Draft not found';
/** The 403 of a scheduled issue's edit by an account that may not send (the cron would send the edit). */
export const SCHEDULED_NEEDS_SEND_PERMISSION =
  'This newsletter is scheduled to be sent, so changing it needs the owner’s permission to send newsletters. Ask the firm’s owner, or ask someone who may send to cancel the schedule first.';
const notEditable = (status: string) =>
  status === 'sent' || status === 'sending' ? 'This newsletter has already started sending; it can no longer be changed' : 'This draft cannot be changed';

/**
 * The newsletter editor's drafts and one-off scheduled issues (docs/product.md §5.9), and the
 * editor's live preview in the firm's frame. Behind requireAdmin (routes/admin/index.ts); bodies
 * may be as large as a send's (requestBodyLimit largePaths in worker/index.ts).
 */
export const adminNewsletterDrafts = new Hono<AppEnv>()
  // The issue as a subscriber would get it: sanitised body in the firm's frame, an unsubscribe link
  // that works for nobody (the test send's).
  .post('/newsletter/render', validate('json', newsletterRenderSchema), async (c) =>
    c.json(await renderDraftPreview(c.env, c.req.valid('json'), siteOrigin(c.env, c.req.url)), 200),
  )
  .get('/newsletter/drafts', async (c) => c.json(await listDrafts(c.var.db), 200))
  .post('/newsletter/drafts', validate('json', newsletterDraftSchema), async (c) => {
    const row = await createDraft(c.var.db, c.req.valid('json'));
    await audit(c, 'newsletter.draft-create', `newsletter-draft:${row.id}`);
    return c.json({ message: 'Draft saved', draft: toDraft(row) }, 201);
  })
  .get('/newsletter/drafts/:id', validate('param', idParamSchema), async (c) => {
    const row = await getDraft(c.var.db, c.req.valid('param').id);
    if (!row) return c.json({ message: DRAFT_NOT_FOUND }, 404);
    return c.json(toDraft(row), 200);
  })
  .put('/newsletter/drafts/:id', validate('param', idParamSchema), validate('json', newsletterDraftSchema), async (c) => {
    const maySend = mayUse(c.get('adminUser'), 'newsletter');
    const result = await updateDraft(c.var.db, c.req.valid('param').id, { ...c.req.valid('json'), maySend });
    if (result.outcome === 'needs-send-permission') return c.json({ message: SCHEDULED_NEEDS_SEND_PERMISSION }, 403);
    if (result.outcome === 'empty-content') {
      return c.json({ message: 'A scheduled newsletter needs some content; cancel the schedule to save it empty', fields: { content: ['A scheduled newsletter needs some content'] } }, 400);
    }
    if (result.outcome === 'not-found') return c.json({ message: DRAFT_NOT_FOUND }, 404);
    if (result.outcome === 'not-editable') return c.json({ message: notEditable(result.status) }, 409);
    await audit(c, 'newsletter.draft-update', `newsletter-draft:${result.draft.id}`);
    return c.json({ message: 'Draft saved', draft: toDraft(result.draft) }, 200);
  })
  .delete('/newsletter/drafts/:id', validate('param', idParamSchema), async (c) => {
    const result = await deleteDraft(c.var.db, c.req.valid('param').id);
    if (result.outcome === 'not-found') return c.json({ message: DRAFT_NOT_FOUND }, 404);
    if (result.outcome === 'not-editable') {
      return c.json({ message: result.status === 'scheduled' ? 'Cancel the schedule before deleting this draft' : notEditable(result.status) }, 409);
    }
    await audit(c, 'newsletter.draft-delete', `newsletter-draft:${c.req.valid('param').id}`);
    return c.json({ message: 'Draft deleted' }, 200);
  })
  .post('/newsletter/drafts/:id/schedule', validate('param', idParamSchema), validate('json', scheduleDraftSchema), async (c) => {
    const result = await scheduleDraftFor(c.var.db, c.req.valid('param').id, c.req.valid('json'));
    if (result.outcome === 'in-the-past') {
      return c.json({ message: 'Please choose a time in the future', fields: { time: ['Please choose a time in the future'] } }, 400);
    }
    if (result.outcome === 'empty-content') {
      return c.json({ message: 'The newsletter content is empty once unsafe HTML is removed', fields: { content: ['Please write the newsletter first'] } }, 400);
    }
    if (result.outcome === 'not-found') return c.json({ message: DRAFT_NOT_FOUND }, 404);
    if (result.outcome === 'not-editable') return c.json({ message: notEditable(result.status) }, 409);
    await audit(c, 'newsletter.draft-schedule', `newsletter-draft:${result.draft.id}`);
    return c.json({ message: `Scheduled for ${firmWhen(result.at)}`, draft: toDraft(result.draft) }, 200);
  })
  .post('/newsletter/drafts/:id/cancel', validate('param', idParamSchema), async (c) => {
    const result = await cancelScheduledDraft(c.var.db, c.req.valid('param').id);
    if (result.outcome === 'not-found') return c.json({ message: DRAFT_NOT_FOUND }, 404);
    if (result.outcome !== 'ok') {
      const status = result.outcome === 'not-editable' ? result.status : 'draft';
      return c.json({ message: status === 'draft' || status === 'cancelled' ? 'This draft is not scheduled' : notEditable(status) }, 409);
    }
    await audit(c, 'newsletter.draft-cancel', `newsletter-draft:${result.draft.id}`);
    return c.json({ message: 'Schedule cancelled: this newsletter will not be sent', draft: toDraft(result.draft) }, 200);
  });
