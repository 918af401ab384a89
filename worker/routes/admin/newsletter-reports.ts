import { Hono } from 'hono';
import * as z from 'zod/v4';
import { idParamSchema } from '#core/schemas/appointments';
import type { AppEnv } from '../../env';
import { validate } from '../../middleware/validate';
import { audit } from '../../middleware/audit';
import { clickTrackingSetting, newsletterReport, setClickTracking } from '../../services/newsletter';

const settingsSchema = z.object({ clickTracking: z.boolean({ error: 'clickTracking must be true or false' }) });

/**
 * The report per issue and the click-tracking setting (docs/product.md §5.11). Behind requireAdmin
 * (routes/admin/index.ts).
 */
export const adminNewsletterReports = new Hono<AppEnv>()
  .get('/sent-newsletters/:id/report', validate('param', idParamSchema), async (c) => {
    const report = await newsletterReport(c.var.db, c.req.valid('param').id);
    if (!report) return c.json({ message: 'Newsletter not found' }, 404);
    return c.json(report, 200);
  })
  .get('/newsletter/settings', async (c) => c.json(await clickTrackingSetting(c.var.db), 200))
  .put('/newsletter/settings', validate('json', settingsSchema), async (c) => {
    const { clickTracking } = c.req.valid('json');
    await setClickTracking(c.var.db, clickTracking);
    await audit(c, clickTracking ? 'newsletter.click-tracking-on' : 'newsletter.click-tracking-off');
    return c.json({ clickTracking, message: clickTracking ? 'Click tracking is on' : 'Click tracking is off' }, 200);
  });
