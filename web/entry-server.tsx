// The build's prerender step (scripts/prerender.ts) renders each public route with this module,
// in Node, to static HTML: the same route table and components as the browser, no data loaders.
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import { defaultContent } from '#core/content/default-content';
import type { SiteContent } from '#core/content/schema';
import { collectServerIslands, islandPlaceholder, stopCollectingServerIslands } from './islands/island';
import { ContentProvider } from './lib/content';
import { setServerPathname, takeServerHead, type HeadMeta } from './lib/page-meta';
import { routes } from './routes';

export { renderHeadTags, siteUrl } from './lib/page-meta';
export { routes };
export { islandModules } from './islands/names';

const handler = createStaticHandler(routes);

export async function renderRoute(pathname: string, content: SiteContent = defaultContent): Promise<{ html: string; head: HeadMeta | null; status: number }> {
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
        {/* hydrate={false}: no inline hydration script (the CSP forbids inline scripts); the routes have no loaders. */}
        <ContentProvider value={content}>
          <StaticRouterProvider router={router} context={context} hydrate={false} />
        </ContentProvider>
      </StrictMode>,
    );
  } finally {
    stopCollectingServerIslands();
  }
  const head = takeServerHead();
  // Each island as a root of its own, the way web/islands.tsx hydrates it (same wrapper, same
  // identifierPrefix), into its placeholder. Islands are never nested.
  islands.forEach(({ name, element }, index) => {
    const islandHtml = renderToString(<StrictMode>{element}</StrictMode>, { identifierPrefix: `${name}-` });
    html = html.replace(islandPlaceholder(index), () => islandHtml);
  });
  return { html, head, status: context.statusCode };
}
