import { Hono } from 'hono';
import type { AppEnv } from '../../env';
import { goLiveChecks } from '../../services/go-live';

/**
 * The go-live checklist (docs/product.md §6.10), owner only (services/admin-auth/permissions.ts):
 * each production requirement's state, read now. Read only: nothing to audit. It answers whether a
 * secret is set, never its value; `no-store`, as every admin answer.
 */
export const adminGoLive = new Hono<AppEnv>().get('/', async (c) => c.json({ checkedAt: new Date().toISOString(), checks: await goLiveChecks(c.env, c.req.url) }, 200));
