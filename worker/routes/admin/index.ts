import { Hono } from 'hono';
import type { AppEnv } from '../../env';
import { requireAdmin } from '../../middleware/require-admin';
import { requirePermission } from '../../middleware/require-permission';
import { adminAppointments } from './appointments';
import { adminAudit } from './audit';
import { adminAvailability } from './availability';
import { adminCalendarSync } from './calendar-sync';
import { adminChatSessions } from './chat-sessions';
import { adminContactMessages } from './contact-messages';
import { adminContent } from './content';
import { adminEmails } from './emails';
import { adminGoLive } from './go-live';
import { adminInvitationsApi } from './invitations';
import { adminNewsletter } from './newsletter';
import { adminNewsletterDrafts } from './newsletter-drafts';
import { adminNewsletterTestSend } from './newsletter-test-send';
import { adminNewsletterReports } from './newsletter-reports';
import { adminRateLimitStats } from './rate-limit-stats';
import { adminChangePassword, adminSession } from './session';
import { adminSubscriberImports } from './subscriber-imports';
import { adminTurnstile } from './turnstile';
import { adminTwoFactor } from './two-factor';
import { adminAccountApi, adminSecuritySettingsApi, adminUsersApi } from './users';

/**
 * Everything of the admin API but signing in: behind requireAdmin, 401 without a valid session, and
 * requireAdmin sets adminUser for the handlers; then requirePermission, 403 unless the permission
 * table (services/admin-auth/permissions.ts) lets the account's role use the route. Its middleware
 * covers every path under it, so a route added here, and a path no route answers, is closed by
 * default (owner-only until the table gives it a row).
 */
export const adminSignedInApi = new Hono<AppEnv>()
  .use(requireAdmin())
  .use(requirePermission())
  .route('/', adminChangePassword)
  .route('/account', adminAccountApi)
  .route('/users', adminUsersApi)
  .route('/', adminSecuritySettingsApi)
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
  .route('/', adminNewsletterDrafts)
  .route('/subscriber-imports', adminSubscriberImports)
  .route('/', adminNewsletterReports)
  .route('/', adminEmails)
  .route('/', adminCalendarSync)
  .route('/audit', adminAudit)
  .route('/go-live', adminGoLive);

/**
 * The admin API (docs/product.md §11), mounted at /api/admin by worker/index.ts: the public part
 * first (sign-in, sign-out, the session check and accepting an invitation, which answer without a
 * session and so never reach requireAdmin), then every other route behind it. Same-origin and the body limits are the whole
 * API's middleware (worker/index.ts).
 */
export const adminApi = new Hono<AppEnv>().route('/', adminSession).route('/', adminInvitationsApi).route('/', adminSignedInApi);
