// The worker's page renderer, built by scripts/prerender.ts from web/entry-worker.tsx into
// dist/page-renderer/entry-worker.js (package.json "imports": '#page-renderer'). Its types are
// declared here so the worker typechecks before a build (docs/decisions/0016-published-content-serving.md).
import type { SiteContent } from '#core/content/schema';

/** A public page rendered with `content`: its head tags and its root's HTML, as the prerender writes them. */
export function renderPage(pathname: string, content: SiteContent): Promise<{ headTags: string; html: string; status: number }>;
