import { Hono } from 'hono';
import type { AppEnv } from '../../env';
import { validate } from '../../middleware/validate';
import { testSendNewsletterSchema } from '#core/schemas/newsletter';
import { sendTestNewsletter } from '../../services/newsletter';
import { siteOrigin } from '../../services/platform/site-origin';
import { audit } from '../../middleware/audit';

/**
 * The send dialog's "Send a test" (docs/product.md §6.3): the issue being written, to one address,
 * before it goes to everyone. Behind requireAdmin (routes/admin/index.ts); its body may be as
 * large as the send's (requestBodyLimit largePaths in worker/index.ts).
 */
export const adminNewsletterTestSend = new Hono<AppEnv>().post('/newsletter/test-send', validate('json', testSendNewsletterSchema), async (c) => {
  const draft = c.req.valid('json');
  const outcome = await sendTestNewsletter(c.env, draft, siteOrigin(c.env, c.req.url));
  if (outcome === 'empty-content') return c.json({ message: 'The newsletter content is empty once unsafe HTML is removed' }, 400);
  if (!outcome.ok) return c.json({ message: `The test could not be sent: ${outcome.error ?? 'sending failed'}` }, 502);
  await audit(c, 'newsletter.test', `email-log:${outcome.logId}`);
  const message =
    outcome.status === 'stored'
      ? `No MailChannels key is configured: the test to ${draft.to} was stored in the outbox (e-mail log #${outcome.logId}), not sent`
      : `Test sent to ${draft.to}`;
  return c.json({ message }, 200);
});
