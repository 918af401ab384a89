import type { SiteContent } from '#core/content/schema';
import { SHELL_CONTENT_ID } from '#core/content/shell';
import type { Db } from '../../db/client';
import { DEFAULT_VERSION } from './store';
import { escapeHtml } from '#core/html';
import { publishedContent, publishedVersion } from './published';
import { contentOfVersion } from './store';

// The public pages with the published content, at static speed (docs/decisions/0016-published-content-serving.md).
//
// The build prerenders every public page with the default content (scripts/prerender.ts); while
// nothing is published (version 1) the worker hands each request to those static files untouched.
// Once the firm publishes version N, a public page is the prerendered file (its head, scripts and
// critical CSS: the template) with the head tags and the root's HTML rendered by the same components
// with version N (web/entry-worker.tsx, bundled as '#page-renderer'), rendered on the first request
// of that page for that version and build, and kept in KV under a key naming both. The hot path is
// two KV reads, both cached at the location: the published-version pointer and the page. No D1 query
// and no render per request.

/** A rendered page never changes under its key (build, version, page): cached long at each location. */
const PAGE_CACHE_TTL = 24 * 60 * 60;
/** Pages of past builds and versions expire from KV on their own. */
const PAGE_TTL = 30 * 24 * 60 * 60;

type PagesEnv = Pick<Env, 'PAGES' | 'ASSETS'>;

const HEAD = /<!--app-head-->[\s\S]*?<!--\/app-head-->/;
const ROOT = /<!--app-html-->[\s\S]*<!--\/app-html-->/;

/**
 * A prerendered page (`template`) with the page at `pathname` rendered with `content` in place of
 * its head tags and its root's HTML, between the markers scripts/prerender.ts leaves.
 */
export async function renderWithContent(template: string, pathname: string, content: SiteContent): Promise<string> {
  if (!HEAD.test(template) || !ROOT.test(template)) throw new Error(`the prerendered page of ${pathname} has no <!--app-head--> or <!--app-html--> markers`);
  const { renderPage } = await import('#page-renderer');
  const { headTags, html } = await renderPage(pathname, content);
  return template.replace(HEAD, () => `<!--app-head-->${headTags}<!--/app-head-->`).replace(ROOT, () => `<!--app-html-->${html}<!--/app-html-->`);
}

/** The prerendered file `file` (a path the static assets answer, e.g. /faq or /404), read from the assets. */
export async function prerenderedFile(env: Pick<Env, 'ASSETS'>, origin: string, file: string): Promise<Response> {
  const response = await env.ASSETS.fetch(new URL(file, origin));
  if (!response.ok) throw new Error(`the prerendered page ${file} is missing from the build (${response.status})`);
  return response;
}

/**
 * The page at `pathname` (whose prerendered file is `file`) with the published content: null while
 * the defaults are published (the caller serves the static file itself), else its HTML. The
 * worker's security headers middleware adds the same headers as _headers gives the static pages.
 */
export async function publishedPage(
  env: PagesEnv,
  db: Db,
  waitUntil: (promise: Promise<unknown>) => void,
  origin: string,
  pathname: string,
  file: string,
): Promise<string | null> {
  const version = await publishedVersion(env);
  if (version === DEFAULT_VERSION) return null;
  const { buildId } = await import('#page-renderer/build-id');
  const key = `page:${buildId}:${version}:${file}`;
  const cached = await env.PAGES.get(key, { cacheTtl: PAGE_CACHE_TTL });
  if (cached !== null) return cached;
  const template = await (await prerenderedFile(env, origin, file)).text();
  const html = await renderWithContent(template, pathname, await contentOfVersion(db, version));
  waitUntil(env.PAGES.put(key, html, { expirationTtl: PAGE_TTL }));
  return html;
}

/** The headers of a page served by the worker: HTML, revalidated on every visit as the static pages are. */
export const pageHeaders = { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'public, max-age=0, must-revalidate' };

/** The client-only screens' shell as scripts/prerender.ts writes it: index.html with an empty root. */
const EMPTY_ROOT = '<div id="root"></div>';

/**
 * A static file the worker hands on (`request` reached it without being one of its pages): the
 * client-only screens' shell (/admin..., the e-mail link pages) carries the published content once
 * the firm has published its own, as JSON after the empty root, which web/main.tsx renders with
 * from the first frame: no fetch and no flash of the defaults' name, phone or address. Its title and
 * description name the published firm too. While nothing is published, or for any other file
 * (a prerendered 404 page, an image), the static file untouched.
 */
export async function staticFileWithContent(env: Pick<Env, 'PAGES' | 'ASSETS' | 'DB'>, request: Request): Promise<Response> {
  if ((await publishedVersion(env)) === DEFAULT_VERSION) {
    const asset = await env.ASSETS.fetch(request);
    // A copy: the security headers middleware adds to it, and a fetched response's headers are immutable.
    return new Response(asset.body, asset);
  }
  // Unconditional: a shell the browser kept from before the publish has no content in it, so its
  // validator must not earn a 304.
  const asset = await env.ASSETS.fetch(request.url);
  if (!asset.ok || !(asset.headers.get('Content-Type') ?? '').startsWith('text/html')) return new Response(asset.body, asset);
  const html = await asset.text();
  const headers = new Headers(asset.headers);
  headers.delete('ETag');
  if (!html.includes(EMPTY_ROOT)) return new Response(html, { status: asset.status, headers });
  const content = await publishedContent(env);
  const { name, tagline } = content.firm;
  // In a <script> element: "<" escaped, so no text can close it or open a comment.
  const json = JSON.stringify(content).replace(/</g, '\\u003c');
  const shell = html
    .replace(EMPTY_ROOT, () => `${EMPTY_ROOT}<script type="application/json" id="${SHELL_CONTENT_ID}">${json}</script>`)
    .replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(name)}</title>`)
    .replace(/(<meta name="description" content=")[^"]*"/, (_, start: string) => `${start}${escapeHtml(`${name}: ${tagline}`)}"`);
  return new Response(shell, { status: asset.status, headers });
}
