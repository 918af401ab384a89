// Renders one route of a route table to HTML, the way the browser shows it: the page inside the
// content document's provider, then each island as a root of its own into its placeholder. Shared by
// the build's prerender (web/entry-server.tsx, the default content) and the worker's renderer of the
// published content and of Preview (web/entry-worker.tsx).
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { createStaticRouter, StaticRouterProvider, type createStaticHandler } from 'react-router';
import type { SiteContent } from '#core/content/schema';
import { collectServerIslands, islandPlaceholder, stopCollectingServerIslands } from './islands/island';
import { ContentProvider } from './lib/content';
import { setServerPathname, takeServerHead, type HeadMeta } from './lib/page-meta';

export interface RenderedRoute {
  html: string;
  head: HeadMeta | null;
  status: number;
}

export async function renderRouteWith(handler: ReturnType<typeof createStaticHandler>, pathname: string, content: SiteContent): Promise<RenderedRoute> {
  const context = await handler.query(new Request(`http://prerender.local${pathname}`));
  if (context instanceof Response) throw new Error(`${pathname} answered with a redirect or response (${context.status})`);
  const router = createStaticRouter(handler.dataRoutes, context);
  takeServerHead();
  setServerPathname(pathname);
  const islands = collectServerIslands();
  let html: string;
  try {
    html = renderToString(
      <StrictMode>
        <ContentProvider value={content}>
          {/* hydrate={false}: no inline hydration script (the CSP forbids inline scripts); the routes have no loaders. */}
          <StaticRouterProvider router={router} context={context} hydrate={false} />
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
  return { html, head, status: context.statusCode };
}
