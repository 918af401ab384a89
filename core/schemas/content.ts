import { z } from 'zod';
import { siteContentSchema } from '../content/schema';

// The content API's request bodies (docs/product.md, the content API): the back office's screens
// build them with the same schemas, so a field message exists once.

const versionField = (label: string) =>
  z.number({ error: `${label} must be a version number` }).int(`${label} must be a version number`).min(1, `${label} must be a version number`).max(1_000_000, `${label} must be a version number`);

/** PUT /api/admin/content/draft: the whole document, and the published version it was made from. */
export const contentDraftSchema = z.object({ basedOn: versionField('basedOn'), content: siteContentSchema });

/** POST /api/admin/content/publish: the published version the draft was made from. */
export const contentPublishSchema = z.object({ basedOn: versionField('basedOn') });

/** POST /api/admin/content/restore: the earlier version to publish again. */
export const contentRestoreSchema = z.object({ version: versionField('version') });
