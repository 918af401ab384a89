import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { scheduled } from './cron';
import type { AppEnv } from './env';
import { requestBodyLimit } from './middleware/body-limit';
import { httpsOnly } from './middleware/https-only';
import { requireAdmin } from './middleware/require-admin';
import { requireJwtSecret } from './middleware/require-jwt-secret';
import { sameOrigin } from './middleware/same-origin';
import { securityHeaders } from './middleware/security-headers';
import { adminAppointments } from './routes/admin/appointments';
import { adminAvailability } from './routes/admin/availability';
import { adminCalendarSync } from './routes/admin/calendar-sync';
import { adminChatSessions } from './routes/admin/chat-sessions';
import { adminContactMessages } from './routes/admin/contact-messages';
import { adminContent } from './routes/admin/content';
import { adminEmails } from './routes/admin/emails';
import { adminNewsletter } from './routes/admin/newsletter';
import { adminNewsletterTestSend } from './routes/admin/newsletter-test-send';
import { adminRateLimitStats } from './routes/admin/rate-limit-stats';
import { adminSession } from './routes/admin/session';
import { adminTurnstile } from './routes/admin/turnstile';
import { adminTwoFactor } from './routes/admin/two-factor';
import { appointmentLinksApi } from './routes/appointment-links';
import { appointmentsApi } from './routes/appointments';
import { calendarFeedApi } from './routes/calendar-feed';
import { chat } from './routes/chat';
import { closedDays } from './routes/closed-days';
import { contact } from './routes/contact';
import { health } from './routes/health';
import { newsletter } from './routes/newsletter';
import { newsletterArchive } from './routes/newsletter-archive';
import { siteConfig } from './routes/site-config';
import { sitePages } from './routes/site-pages';
import { webhooks } from './routes/webhooks';
import { safeErrorSummary } from './services/platform/log-safe';

// Admin routes reachable without a session: signing in, signing out, and asking whether one is.
const PUBLIC_ADMIN_PATHS = new Set(['/api/admin/login', '/api/admin/logout', '/api/admin/session']);

const app = new Hono<AppEnv>();

app.use(securityHeaders());
// Before anything reads a body or a cookie: plain HTTP is redirected or refused (localhost excepted).
app.use(httpsOnly());
// No API without a usable JWT_SECRET: a clear log line and a 503, never a half-working API.
app.use('/api/*', requireJwtSecret());
// MailChannels' delivery events come from its servers, authenticated by their signature (routes/webhooks.ts).
app.use('/api/*', sameOrigin({ allow: ['/api/newsletter/unsubscribe', '/api/webhooks/mailchannels'] }));
app.use(
  '/api/*',
  requestBodyLimit({
    defaultBytes: 64 * 1024,
    largeBytes: 1024 * 1024,
    largePaths: ['/api/admin/send-newsletter', '/api/admin/newsletter/send', '/api/admin/newsletter/test-send', '/api/webhooks/mailchannels', '/api/admin/content/draft'],
  }),
);
// Every admin route, present and future, is closed by default.
const adminGuard = requireAdmin();
app.use('/api/admin/*', (c, next) => (PUBLIC_ADMIN_PATHS.has(c.req.path) ? next() : adminGuard(c, next)));

const routes = app.route('/api/health', health).route('/api/site-config', siteConfig).route('/api/admin', adminSession)
  .route('/api/chat', chat)
  .route('/api/contact', contact)
  .route('/api/appointments', appointmentsApi)
  .route('/api/appointments/manage', appointmentLinksApi)
  .route('/api/appointments/closed-days', closedDays)
  .route('/api/admin/contact-messages', adminContactMessages)
  .route('/api/admin/content', adminContent)
  .route('/api/admin/chat-sessions', adminChatSessions)
  .route('/api/admin/appointments', adminAppointments)
  .route('/api/admin/rate-limit-stats', adminRateLimitStats)
  .route('/api/admin/two-factor', adminTwoFactor)
  .route('/api/admin/turnstile', adminTurnstile)
  .route('/api/newsletter', newsletter)
  .route('/api/webhooks', webhooks)
  .route('/api/newsletters', newsletterArchive)
  .route('/api/admin', adminNewsletter)
  .route('/api/admin', adminNewsletterTestSend)
  .route('/api/admin', adminEmails)
  .route('/api/admin', adminAvailability)
  .route('/api/admin', adminCalendarSync)
  .route('/api/calendar', calendarFeedApi);

// Pages the worker answers before the static assets (wrangler.toml run_worker_first): the issue
// pages and the sitemap. Not part of the typed API.
app.route('/', sitePages);

// An unknown API path is a JSON 404. Any other path reached the worker through run_worker_first
// without being one of its pages (/newsletter/confirmed, ...): the static assets answer it, with
// their own 404 page for what does not exist.
app.notFound(async (c) => {
  // (A config without [assets], such as the newsletter benchmark's, has no ASSETS binding.)
  if (c.req.path.startsWith('/api/') || !c.env.ASSETS) return c.json({ message: 'Not found' }, 404);
  const asset = await c.env.ASSETS.fetch(c.req.raw);
  // A copy: the security headers middleware adds to it, and a fetched response's headers are immutable.
  return new Response(asset.body, asset);
});

app.onError((err, c) => {
  if (err instanceof HTTPException) {
    // Keep the status and a short message; never the stack or internals.
    return c.json({ message: err.message || 'Request failed' }, err.status);
  }
  // The path without its query string, and the error's name and message without Drizzle's
  // parameters: never the request's data (worker/services/platform/log-safe.ts).
  console.error('Unhandled error', c.req.method, c.req.path, safeErrorSummary(err));
  return c.json({ message: 'Internal server error' }, 500);
});

export type AppType = typeof routes;

export default {
  fetch: app.fetch,
  scheduled,
} satisfies ExportedHandler<AppEnv['Bindings']>;
