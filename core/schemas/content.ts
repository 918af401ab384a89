import * as z from 'zod/v4';
import { siteContentSchema } from '../content/schema';
import { publicRoutes } from '../public-routes';

// The content API's request bodies (docs/product.md, the content API): the back office's screens
// build them with the same schemas, so a field message exists once.

const versionField = (label: string) =>
  z.number({ error: `${label} must be a version number` }).int(`${label} must be a version number`).min(1, `${label} must be a version number`).max(1_000_000, `${label} must be a version number`);

/**
 * PUT /api/admin/content/draft: the whole document, and the published version it was made from.
 * Optional `draftUpdatedAt`: the updatedAt of the draft the editor loaded (null: it started with no
 * draft); when given, a save over a draft saved since (another tab, another admin) is refused (409).
 */
export const contentDraftSchema = z.object({
  basedOn: versionField('basedOn'),
  draftUpdatedAt: z.iso.datetime({ error: "draftUpdatedAt must be the loaded draft's updatedAt" }).nullable().optional(),
  content: siteContentSchema,
});

/**
 * POST /api/admin/content/publish: the published version the draft was made from, and the draft's
 * revision the owner reviewed (GET .../review): a draft saved since is not published (409).
 */
export const contentPublishSchema = z.object({
  basedOn: versionField('basedOn'),
  revision: z
    .number({ error: 'revision must be the reviewed draft’s revision' })
    .int('revision must be the reviewed draft’s revision')
    .min(0, 'revision must be the reviewed draft’s revision')
    .max(1_000_000_000, 'revision must be the reviewed draft’s revision'),
});

/** POST /api/admin/content/restore: the earlier version to publish again. */
export const contentRestoreSchema = z.object({ version: versionField('version') });

const previewPaths = publicRoutes.map((route) => route.path) as [string, ...string[]];

/** GET /api/admin/content/preview?path=/faq: the public page to show with the draft. */
export const contentPreviewQuerySchema = z.object({
  path: z.enum(previewPaths, { error: `path must be a public page: ${previewPaths.join(', ')}` }),
});
