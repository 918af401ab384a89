import { Hono } from 'hono';
import type { AppEnv } from '../../env';
import { goLiveFacts } from '../../services/go-live';

/**
 * The go-live checklist's facts (docs/product.md §6.10), owner only (services/admin-auth/
 * permissions.ts), read now; core/go-live.ts evaluateGoLive judges them on the screen and in `npm
 * run doctor`. Read only: nothing to audit. Whether each secret is set, never its value.
 */
export const adminGoLive = new Hono<AppEnv>().get('/', async (c) => c.json(await goLiveFacts(c.env, c.var.db, c.req.url), 200));
