// Renders a page to HTML, the way the browser shows it: the page inside the content document's
// provider, then each island as a root of its own into its placeholder. Shared by the build's
// prerender (web/entry-server.tsx: the route table, the default content) and the worker's renderer
// of the published content and of Preview (web/entry-worker.tsx: the public pages, no router).
import { StrictMode, type ReactElement } from 'react';
import { renderToString } from 'react-dom/server';
import type { SiteContent } from '#core/content/schema';
import { collectServerIslands, islandPlaceholder, stopCollectingServerIslands } from './islands/island';
import { ContentProvider } from './lib/content';
import { setServerPathname, takeServerHead, type HeadMeta } from './lib/page-meta';

export interface RenderedRoute {
  html: string;
  head: HeadMeta | null;
  status: number;
}

/** Renders `page` (the page in its frame, for `pathname`) with `content`; `status` is the page's. */
export function renderTree(page: ReactElement, pathname: string, content: SiteContent, status: number): RenderedRoute {
  takeServerHead();
  setServerPathname(pathname);
  const islands = collectServerIslands();
  let html: string;
  try {
    html = renderToString(
      <StrictMode>
        <ContentProvider value={content}>
          {page}
        </ContentProvider>
      </StrictMode>,
    );
  } finally {
    stopCollectingServerIslands();
  }
  const head = takeServerHead();
  // Each island as a root of its own, the way web/islands.tsx hydrates it (same wrapper, same
  // identifierPrefix), into its placeholder. Islands are never nested. An island takes its content
  // as props, so it renders without the provider, as in the browser.
  islands.forEach(({ name, element }, index) => {
    const islandHtml = renderToString(<StrictMode>{element}</StrictMode>, { identifierPrefix: `${name}-` });
    html = html.replace(islandPlaceholder(index), () => islandHtml);
  });
  return { html, head, status };
}
