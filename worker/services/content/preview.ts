import { siteContentSchema } from '#core/content/schema';
import type { Db } from '../../db/client';
import { withPreviewBar } from './preview-bar';
import { prerenderedFile, renderWithContent } from './published-pages';
import { getContentDraft, getPublished } from './store';

// Preview (docs/product.md §6.6): a public page with the draft (the published content when there
// is none), rendered by the same components as the published pages, with the bar that tells it
// from the live site (./preview-bar.ts). For the signed-in admin only (the route's guard).

export type PreviewResult =
  | { ok: true; html: string }
  /** The draft no longer passes today's content rules: it must be opened and saved again. */
  | { ok: false; reason: 'draft-invalid'; issues: { path: PropertyKey[]; message: string }[] };

/** The page at `path` (a public route) rendered with the draft, on the prerendered file from `origin`'s assets. */
export async function previewPage(env: Pick<Env, 'ASSETS'>, db: Db, origin: string, path: string): Promise<PreviewResult> {
  const draft = await getContentDraft(db);
  const parsed = draft ? siteContentSchema.safeParse(draft.content) : null;
  if (parsed && !parsed.success) return { ok: false, reason: 'draft-invalid', issues: parsed.error.issues };
  const content = parsed ? parsed.data : (await getPublished(db)).content;
  const template = await (await prerenderedFile(env, origin, path)).text();
  return { ok: true, html: withPreviewBar(await renderWithContent(template, path, content), parsed !== null) };
}
