// The build's prerender step (scripts/prerender.ts) renders each public route with this module,
// in Node, to static HTML: the same route table and components as the browser, no data loaders.
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import { takeServerHead, type HeadMeta } from './lib/page-meta';
import { routes } from './routes';

export { renderHeadTags, siteUrl } from './lib/page-meta';
export { routes };

const handler = createStaticHandler(routes);

export async function renderRoute(pathname: string): Promise<{ html: string; head: HeadMeta | null; status: number }> {
  const context = await handler.query(new Request(`http://prerender.local${pathname}`));
  if (context instanceof Response) throw new Error(`${pathname} answered with a redirect or response (${context.status})`);
  const router = createStaticRouter(handler.dataRoutes, context);
  takeServerHead();
  const html = renderToString(
    <StrictMode>
      {/* hydrate={false}: no inline hydration script (the CSP forbids inline scripts); the routes have no loaders. */}
      <StaticRouterProvider router={router} context={context} hydrate={false} />
    </StrictMode>,
  );
  return { html, head: takeServerHead(), status: context.statusCode };
}
