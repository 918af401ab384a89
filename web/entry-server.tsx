// The build's prerender step (scripts/prerender.ts) renders each public route with this module,
// in Node, to static HTML: the same route table and components as the browser, no data loaders,
// and the default content (docs/decisions/0013-content-as-a-versioned-document.md).
import { createStaticHandler } from 'react-router';
import { defaultContent } from '#core/content/default-content';
import { renderRouteWith, type RenderedRoute } from './render-route';
import { routes } from './routes';

export { renderHeadTags, siteUrl } from './lib/page-meta';
export { routes };
export { islandModules } from './islands/names';

const handler = createStaticHandler(routes);

export const renderRoute = (pathname: string): Promise<RenderedRoute> => renderRouteWith(handler, pathname, defaultContent);
