// The build's prerender step (scripts/prerender.ts) renders each public route with this module,
// in Node, to static HTML: the same route table and components as the browser, no data loaders,
// and the default content (docs/decisions/0013-content-as-a-versioned-document.md).
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import { defaultContent } from '#core/content/default-content';
import { renderTree, type RenderedRoute } from './render-route';
import { routes } from './routes';

export { renderHeadTags, siteUrl } from './lib/page-meta';
export { routes };
export { islands } from './islands/registry';

const handler = createStaticHandler(routes);

export async function renderRoute(pathname: string): Promise<RenderedRoute> {
  const context = await handler.query(new Request(`http://prerender.local${pathname}`));
  if (context instanceof Response) throw new Error(`${pathname} answered with a redirect or response (${context.status})`);
  const router = createStaticRouter(handler.dataRoutes, context);
  // hydrate={false}: no inline hydration script (the CSP forbids inline scripts); the routes have no loaders.
  return renderTree(<StaticRouterProvider router={router} context={context} hydrate={false} />, pathname, defaultContent, context.statusCode);
}
