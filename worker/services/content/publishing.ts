import { CONTENT_MAX_BYTES, contentByteSize, type SiteContent } from '#core/content/schema';
import type { Db } from '../../db/client';
import { type ContentEnv, pointAtPublished } from './published';
import { getContentDraft, getPublished, publishDraft, restoreVersion, saveDraft, type ContentDraft, type ContentWriteResult, type PublishedContent } from './store';

// The content editor's writes as use cases (docs/product.md §6.6; docs/decisions/0013-content-as-a-versioned-document.md):
// each returns the store's result, and a publish or a restore points every reader at the new
// version (worker/services/content/published.ts) once D1 has committed it. The route audits.


/** The editor's opening read: the published version and the draft, if any. */
export async function contentForEditor(db: Db): Promise<{ published: PublishedContent; draft: ContentDraft | null }> {
  const [published, draft] = await Promise.all([getPublished(db), getContentDraft(db)]);
  return { published, draft };
}

/** A draft refused before the store is asked: over the whole document's limit (413). */
export type DraftTooLarge = { ok: false; reason: 'too-large'; bytes: number };

/**
 * Saves the draft made from version `basedOn`: refused when the whole document is over
 * CONTENT_MAX_BYTES (every field has its own limit; this one bounds the document), else the
 * store's save (store.ts saveDraft).
 */
export async function saveContentDraft(
  db: Db,
  input: { basedOn: number; content: SiteContent; by: string; draftUpdatedAt?: Date | null },
): Promise<ContentWriteResult<ContentDraft> | DraftTooLarge> {
  const bytes = contentByteSize(input.content);
  if (bytes > CONTENT_MAX_BYTES) return { ok: false, reason: 'too-large', bytes };
  return saveDraft(db, input);
}

/** Publishes the reviewed draft (store.ts publishDraft); the public pages, e-mails, invites and the chat follow it. */
export async function publishContent(env: ContentEnv, db: Db, input: { basedOn: number; revision: number; by: string }): Promise<ContentWriteResult<{ version: number }>> {
  const result = await publishDraft(db, input);
  if (result.ok) await pointAtPublished(env);
  return result;
}

/** Publishes a copy of an earlier version as a new one (store.ts restoreVersion); every reader follows it. */
export async function restoreContent(env: ContentEnv, db: Db, input: { version: number; by: string }): Promise<ContentWriteResult<{ version: number }>> {
  const result = await restoreVersion(db, input);
  if (result.ok) await pointAtPublished(env);
  return result;
}
