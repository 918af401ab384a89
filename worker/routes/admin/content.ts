import { Hono } from 'hono';
import type { Context } from 'hono';
import { CONTENT_MAX_BYTES } from '#core/content/schema';
import { contentDraftSchema, contentPreviewQuerySchema, contentPublishSchema, contentRestoreSchema } from '#core/schemas/content';
import type { AppEnv } from '../../env';
import { fieldMessages, validate } from '../../middleware/validate';
import {
  contentForEditor,
  listVersions,
  pageHeaders,
  previewPage,
  publishContent,
  restoreContent,
  reviewDraft,
  saveContentDraft,
  type ContentWriteResult,
  type CurrentVersion,
  type DraftTooLarge,
} from '../../services/content';
import { audit } from '../../middleware/audit';

// The firm's content document (docs/product.md, the content API; docs/decisions/0013-content-as-a-versioned-document.md),
// mounted under /api/admin/content (admin only, and covered by the same-origin rule like every admin write).

const iso = (date: Date | null) => (date ? date.toISOString() : null);

const currentVersionBody = (current: CurrentVersion) => ({
  version: current.version,
  publishedAt: iso(current.publishedAt),
  publishedBy: current.publishedBy,
});

/** The 409 of a write made on a version that is no longer the latest: which one is, who published it and when. */
function staleAnswer(c: Context<AppEnv>, current: CurrentVersion) {
  const by = current.publishedBy ? `, published by ${current.publishedBy} at ${iso(current.publishedAt)}` : ' (the default content)';
  return c.json(
    { message: `The content changed since you started: version ${current.version} is now current${by}. Reload to see it.`, current: currentVersionBody(current) },
    409,
  );
}

/** 409: the draft changed since the admin loaded it (a save) or reviewed it (a publish). */
function draftChangedAnswer(c: Context<AppEnv>, draft: Extract<ContentWriteResult<unknown>, { reason: 'draft-changed' }>['draft'], action: 'save' | 'publish') {
  const by = draft ? `saved by ${draft.updatedBy} at ${draft.updatedAt.toISOString()}` : 'published or discarded';
  const message =
    action === 'publish'
      ? `Not published: the draft changed since you reviewed it (${by}). Review its changes again before publishing.`
      : `The draft changed since you loaded it (${by}). Reload to see it.`;
  return c.json({ message, draft: draft && { updatedAt: draft.updatedAt.toISOString(), updatedBy: draft.updatedBy, revision: draft.revision } }, 409);
}

/** The answer to a refused write, in the API's usual shapes. */
function refusal(c: Context<AppEnv>, result: Exclude<ContentWriteResult<unknown>, { ok: true }> | DraftTooLarge, action: 'save' | 'publish' = 'save') {
  switch (result.reason) {
    case 'too-large':
      // Every field has its own limit; this one bounds the whole document (413, like the body limit).
      return c.json({ message: `The content is too large: ${Math.ceil(result.bytes / 1024)} KB, at most ${CONTENT_MAX_BYTES / 1024} KB` }, 413);
    case 'stale':
      return staleAnswer(c, result.current);
    case 'draft-changed':
      return draftChangedAnswer(c, result.draft, action);
    case 'no-draft':
      return c.json({ message: 'There is no draft to publish' }, 400);
    case 'invalid': {
      // Keyed like a draft save's messages (content.firm.name), so the screen shows them in one place.
      const issues = result.issues.map((issue) => ({ ...issue, path: ['content', ...issue.path] }));
      return c.json({ message: issues[0]?.message ?? 'Invalid content', fields: fieldMessages(issues) }, 400);
    }
    case 'not-found':
      return c.json({ message: 'There is no such version' }, 404);
  }
}

export const adminContent = new Hono<AppEnv>()
  .get('/', async (c) => {
    const { published, draft } = await contentForEditor(c.var.db);
    return c.json(
      {
        published: { ...currentVersionBody(published), content: published.content },
        draft: draft && { basedOn: draft.basedOn, revision: draft.revision, updatedAt: draft.updatedAt.toISOString(), updatedBy: draft.updatedBy, content: draft.content },
      },
      200,
    );
  })
  .put('/draft', validate('json', contentDraftSchema), async (c) => {
    const { basedOn, content, draftUpdatedAt } = c.req.valid('json');
    const result = await saveContentDraft(c.var.db, {
      basedOn,
      content,
      by: c.get('adminUser').username,
      draftUpdatedAt: typeof draftUpdatedAt === 'string' ? new Date(draftUpdatedAt) : draftUpdatedAt,
    });
    if (!result.ok) return refusal(c, result);
    await audit(c, 'content.save-draft', `content-draft:${result.value.basedOn}`);
    const draft = result.value;
    return c.json({ basedOn: draft.basedOn, revision: draft.revision, updatedAt: draft.updatedAt.toISOString(), updatedBy: draft.updatedBy, content: draft.content }, 200);
  })
  // What a publish would change on the live site, change by change, with who saved each and the
  // e-mail, payment and other links flagged (worker/services/content/review.ts); the Publish
  // confirmation shows it and publishes the revision it names.
  .get('/review', async (c) => {
    const review = await reviewDraft(c.var.db);
    if (!review) return c.json({ message: 'There is no draft to publish' }, 404);
    return c.json({ ...review, live: currentVersionBody(review.live), updatedAt: review.updatedAt.toISOString() }, 200);
  })
  // The public pages, e-mails, invites and the chat follow a publish or a restore (worker/services/content/publishing.ts).
  .post('/publish', validate('json', contentPublishSchema), async (c) => {
    const { basedOn, revision } = c.req.valid('json');
    const result = await publishContent(c.env, c.var.db, { basedOn, revision, by: c.get('adminUser').username });
    if (!result.ok) return refusal(c, result, 'publish');
    await audit(c, 'content.publish', `content-version:${result.value.version}`);
    return c.json({ version: result.value.version }, 200);
  })
  .get('/versions', async (c) => {
    const versions = await listVersions(c.var.db);
    return c.json(
      versions.map((v) => ({ ...v, publishedAt: iso(v.publishedAt) })),
      200,
    );
  })
  .post('/restore', validate('json', contentRestoreSchema), async (c) => {
    const result = await restoreContent(c.env, c.var.db, { version: c.req.valid('json').version, by: c.get('adminUser').username });
    if (!result.ok) return refusal(c, result);
    // The record is the version restored from; the answer's version is the new one it became.
    await audit(c, 'content.restore', `content-version:${c.req.valid('json').version}`);
    return c.json({ version: result.value.version }, 200);
  })
  // Preview: a public page with the draft (the published content when there is none), for the
  // signed-in admin only (this sub-app's guard; worker/services/content/preview.ts).
  .get('/preview', validate('query', contentPreviewQuerySchema), async (c) => {
    const preview = await previewPage(c.env, c.var.db, new URL(c.req.url).origin, c.req.valid('query').path);
    if (!preview.ok) return c.json({ message: 'The draft no longer passes the content rules: open it and save it again', errors: fieldMessages(preview.issues) }, 409);
    return c.body(preview.html, 200, { ...pageHeaders, 'Cache-Control': 'no-store', 'X-Robots-Tag': 'noindex' });
  });
