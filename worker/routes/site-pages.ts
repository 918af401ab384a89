import { Hono, type Context } from 'hono';
import { escapeHtml } from '#core/html';
import { ISSUE_PROBE, ISSUE_SHELL_PATH, ISSUE_SHELL_PLACEHOLDER, NOT_FOUND_PROBE, publicRoutes } from '#core/public-routes';
import { pageHeaders, publishedContent, publishedPage } from '../services/content';
import type { AppEnv } from '../env';
import { findArchivedIssue, followClick, issueDescription, listArchivedIssues } from '../services/newsletter';
import { siteOrigin } from '../services/platform/site-origin';
import { issueId } from './newsletter-archive';

/**
 * The pages whose existence is data, answered by the worker before the static assets
 * (wrangler.jsonc run_worker_first; docs/decisions/0007-one-build-real-404s.md):
 *   /newsletter/:id  a sent issue: the prerendered issue shell (scripts/prerender.ts) with the
 *                    issue's title, description and canonical address in its head; an unknown or
 *                    unsent id gets the 404 page with status 404, never a soft 404.
 *   /sitemap.xml     the public routes (core/public-routes.ts) and one URL per sent issue.
 *                    It used to be a build file, but issues are added after the build, so a static
 *                    sitemap would miss every issue sent since the last deploy.
 *   /r/:token        a tracked newsletter link (services/newsletter/click-tracking.ts): a 302 to
 *                    the issue's original URL, counted once per recipient and link; a forged or
 *                    unknown link gets the 404 page.
 * Every other path under /newsletter/ (confirmed, unsubscribe, ...) goes on to the static assets.
 *
 * And the public routes (core/public-routes.ts), the 404 page and the issue shell with the published
 * content once the firm has published its own (docs/decisions/0016-published-content-serving.md):
 * until then each is its static file, untouched.
 */

/** The page at `pathname` with the published content, or null while the defaults are published. */
const published = (c: Context<AppEnv>, pathname: string, file: string) =>
  publishedPage(c.env, c.var.db, (promise) => c.executionCtx.waitUntil(promise), new URL(c.req.url).origin, pathname, file);

/** A public route: the published content's page, or the static file while nothing is published. */
async function publicPage(c: Context<AppEnv>, pathname: string): Promise<Response> {
  const html = await published(c, pathname, pathname);
  if (html === null) {
    const asset = await c.env.ASSETS.fetch(c.req.raw);
    // A copy: the security headers middleware adds to it, and a fetched response's headers are immutable.
    return new Response(asset.body, asset);
  }
  return c.body(html, 200, pageHeaders);
}

/**
 * The prerendered 404 page with status 404 (the file itself answers /404 with 200), with the
 * published content once there is any; also what worker/index.ts answers a path under the
 * worker's routes that names nothing (/admin/no-such-screen).
 */
export async function notFoundPage(c: Context<AppEnv>): Promise<Response> {
  const html = await published(c, NOT_FOUND_PROBE, '/404');
  if (html !== null) return c.body(html, 404, pageHeaders);
  const page = await c.env.ASSETS.fetch(new URL('/404', c.req.url));
  return new Response(page.body, { status: 404, headers: page.headers });
}

/**
 * Sets an attribute of the shell's tags. HTMLRewriter escapes only the double quote in an attribute
 * value, so `&`, `<` and `>` are escaped here (a subject reading "&amp;" stays four characters).
 */
const setAttribute = (name: string, value: string): HTMLRewriterElementContentHandlers => ({
  element: (element) => void element.setAttribute(name, escapeHtml(value, { quotes: false })),
});

async function trackedLink(c: Context<AppEnv>): Promise<Response> {
  const url = await followClick(c.env.JWT_SECRET, c.var.db, c.req.param('token') ?? '');
  // (The newsletter benchmark's config has no ASSETS binding.)
  if (!url) return c.env.ASSETS ? notFoundPage(c) : c.text('Not found', 404);
  // Not cached, so every recipient's click reaches the worker; the link's token stays out of the target's Referer.
  return c.body(null, 302, { Location: url, 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' });
}

/** The issue shell's head and hydration marker, written for one issue. */
function withIssueMeta(shell: Response, meta: { title: string; description: string; url: string }): Response {
  return new HTMLRewriter()
    .on('title', { element: (element) => void element.setInnerContent(meta.title) })
    .on('meta[name="description"], meta[property="og:description"]', setAttribute('content', meta.description))
    .on('meta[property="og:title"]', setAttribute('content', meta.title))
    .on('meta[property="og:url"]', setAttribute('content', meta.url))
    .on('meta[property="og:type"]', setAttribute('content', 'article'))
    .on('link[rel="canonical"]', setAttribute('href', meta.url))
    // web/main.tsx hydrates the prerendered page when this names the current path.
    .on(`div#root[data-prerendered="${ISSUE_SHELL_PLACEHOLDER}"]`, setAttribute('data-prerendered', new URL(meta.url).pathname))
    .transform(shell);
}

async function issuePage(c: Context<AppEnv>): Promise<Response> {
  const id = issueId(c.req.param('id') ?? '');
  const db = c.var.db;
  const issue = id === null ? undefined : await findArchivedIssue(db, id);
  if (!issue) return notFoundPage(c);
  const publishedShell = await published(c, ISSUE_PROBE, ISSUE_SHELL_PATH);
  const shell = publishedShell !== null ? new Response(publishedShell, { headers: pageHeaders }) : await c.env.ASSETS.fetch(new URL(ISSUE_SHELL_PATH, c.req.url));
  if (!shell.ok) throw new Error(`the issue shell ${ISSUE_SHELL_PATH} is missing from the build (${shell.status})`);
  // As web/lib/page-meta.ts writes a document title ("Page | Firm").
  const title = `${issue.subject} | ${(await publishedContent(c.env)).firm.name}`;
  const page = withIssueMeta(shell, { title, description: issueDescription(issue.content), url: `${siteOrigin(c.env, c.req.url)}/newsletter/${issue.id}` });
  const headers = new Headers(page.headers);
  headers.set('Cache-Control', 'no-cache');
  return new Response(page.body, { status: 200, headers });
}

async function sitemap(c: Context<AppEnv>): Promise<Response> {
  const origin = siteOrigin(c.env, c.req.url);
  const issues = await listArchivedIssues(c.var.db);
  const day = (iso: string) => iso.slice(0, 10);
  const entries = [
    ...publicRoutes
      .filter((route) => route.sitemap)
      .map((route) => ({ loc: `${origin}${route.path}`, priority: route.priority, lastmod: route.path === '/newsletter' && issues[0] ? day(issues[0].sentAt) : undefined })),
    ...issues.map((issue) => ({ loc: `${origin}/newsletter/${issue.id}`, priority: '0.5', lastmod: day(issue.sentAt) })),
  ];
  const urls = entries.map(
    (e) => `  <url>\n    <loc>${escapeHtml(e.loc)}</loc>\n${e.lastmod ? `    <lastmod>${e.lastmod}</lastmod>\n` : ''}    <priority>${e.priority}</priority>\n  </url>`,
  );
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
  return c.body(xml, 200, { 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': 'public, max-age=300' });
}

export const sitePages = new Hono<AppEnv>()
  .get('/sitemap.xml', sitemap)
  // The shell is only ever served through issuePage.
  .get(ISSUE_SHELL_PATH, notFoundPage)
  .get('/newsletter/:id{[0-9]+}', issuePage)
  .get('/r/:token', trackedLink);

for (const route of publicRoutes) sitePages.get(route.path, (c) => publicPage(c, route.path));
