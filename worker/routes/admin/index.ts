import { Hono } from 'hono';
import type { AppEnv } from '../../env';
import { requireAdmin } from '../../middleware/require-admin';
import { adminAppointments } from './appointments';
import { adminAvailability } from './availability';
import { adminCalendarSync } from './calendar-sync';
import { adminChatSessions } from './chat-sessions';
import { adminContactMessages } from './contact-messages';
import { adminContent } from './content';
import { adminEmails } from './emails';
import { adminNewsletter } from './newsletter';
import { adminNewsletterTestSend } from './newsletter-test-send';
import { adminNewsletterReports } from './newsletter-reports';
import { adminRateLimitStats } from './rate-limit-stats';
import { adminChangePassword, adminSession } from './session';
import { adminSubscriberImports } from './subscriber-imports';
import { adminTurnstile } from './turnstile';
import { adminTwoFactor } from './two-factor';

/**
 * Everything of the admin API but signing in: behind requireAdmin, 401 without a valid session, and
 * requireAdmin sets adminUser for the handlers. Its middleware covers every path under it, so a
 * route added here, and a path no route answers, is closed by default.
 */
const signedIn = new Hono<AppEnv>()
  .use(requireAdmin())
  .route('/', adminChangePassword)
  .route('/two-factor', adminTwoFactor)
  .route('/contact-messages', adminContactMessages)
  .route('/content', adminContent)
  .route('/chat-sessions', adminChatSessions)
  .route('/appointments', adminAppointments)
  .route('/', adminAvailability)
  .route('/rate-limit-stats', adminRateLimitStats)
  .route('/turnstile', adminTurnstile)
  .route('/', adminNewsletter)
  .route('/', adminNewsletterTestSend)
  .route('/subscriber-imports', adminSubscriberImports)
  .route('/', adminNewsletterReports)
  .route('/', adminEmails)
  .route('/', adminCalendarSync);

/**
 * The admin API (docs/product.md §11), mounted at /api/admin by worker/index.ts: the public part
 * first (sign-in, sign-out and the session check, which answer without a session and so never reach
 * requireAdmin), then every other route behind it. Same-origin and the body limits are the whole
 * API's middleware (worker/index.ts).
 */
export const adminApi = new Hono<AppEnv>().route('/', adminSession).route('/', signedIn);
