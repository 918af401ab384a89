import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { scheduled } from './cron';
import type { AppEnv } from './env';
import { requestBodyLimit } from './middleware/body-limit';
import { database } from './middleware/database';
import { httpsOnly } from './middleware/https-only';
import { requireJwtSecret } from './middleware/require-jwt-secret';
import { sameOrigin } from './middleware/same-origin';
import { securityHeaders } from './middleware/security-headers';
import { adminApi } from './routes/admin/index';
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
import { notFoundPage, sitePages } from './routes/site-pages';
import { webhooks } from './routes/webhooks';
import { publishedContent, staticFileWithContent } from './services/content';
import { useFirmNameReader } from './services/email/sender-name';
import { countingD1Calls } from './services/platform/d1-call-count';
import { safeErrorSummary } from './services/platform/log-safe';

// The e-mail floor sends the firm's own e-mails under its published name, which only the content
// domain reads (worker/services/email/sender-name.ts): handed in here, where the worker is wired.
useFirmNameReader(async (env) => (await publishedContent(env)).firm.name);

const app = new Hono<AppEnv>();

app.use(securityHeaders());
app.use(database());
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
    largePaths: ['/api/admin/send-newsletter', '/api/admin/newsletter/send', '/api/admin/newsletter/test-send', '/api/webhooks/mailchannels', '/api/admin/content/draft',
      '/api/admin/newsletter/render', '/api/admin/newsletter/drafts', '/api/admin/newsletter/drafts/*',
      '/api/admin/subscriber-imports/rows'],
  }),
);
// The admin API is a sub-app with its own guard: every admin route, present and future, is closed
// by default but sign-in, sign-out and the session check (routes/admin/index.ts).
const routes = app.route('/api/health', health).route('/api/site-config', siteConfig).route('/api/admin', adminApi)
  .route('/api/chat', chat)
  .route('/api/contact', contact)
  .route('/api/appointments', appointmentsApi)
  .route('/api/appointments/manage', appointmentLinksApi)
  .route('/api/appointments/closed-days', closedDays)
  .route('/api/newsletter', newsletter)
  .route('/api/webhooks', webhooks)
  .route('/api/newsletters', newsletterArchive)
  .route('/api/calendar', calendarFeedApi);

// Pages the worker answers before the static assets (wrangler.jsonc run_worker_first): the issue
// pages and the sitemap. Not part of the typed API.
app.route('/', sitePages);

// An unknown API path is a JSON 404. Any other path reached the worker through run_worker_first
// without being one of its pages (/newsletter/confirmed, ...): the static assets answer it, with
// their own 404 page for what does not exist.
app.notFound(async (c) => {
  // (A config without [assets], such as the newsletter benchmark's, has no ASSETS binding.)
  if (c.req.path.startsWith('/api/') || !c.env.ASSETS) return c.json({ message: 'Not found' }, 404);
  // The client-only screens' shell carries the published content (docs/decisions/0016-published-content-serving.md),
  // and so does the 404 page answering a path that names none of them (/admin/no-such-screen).
  const response = await staticFileWithContent(c.env, c.req.raw);
  return response.status === 404 ? notFoundPage(c) : response;
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
  fetch: countingD1Calls(app.fetch),
  scheduled,
} satisfies ExportedHandler<AppEnv['Bindings']>;
