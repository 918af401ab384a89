import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { routes } from './routes';
import './styles.css';

const router = createBrowserRouter(routes);
const container = document.getElementById('root')!;

const app = (
  <StrictMode>
    {/* React Query is provided per page (web/routes.tsx), not here: content pages never load it. */}
    <RouterProvider router={router} />
  </StrictMode>
);

/**
 * Public routes and the 404 page arrive prerendered (see scripts/prerender.ts): the static HTML
 * names its route in data-prerendered. When it is this page, hydrate it once the route's lazy page
 * chunk is loaded (so the first client render equals the HTML). Any other HTML (the empty shell of
 * client-only screens such as /admin) is replaced instead.
 */
function start() {
  const prerenderedPath = container.dataset.prerendered;
  const currentPath = window.location.pathname.replace(/(.)\/+$/, '$1');
  // "*" is the prerendered 404 page (404.html), served for any unknown path: it matches when the
  // router also lands on its catch-all route.
  const isNotFound = router.state.matches.at(-1)?.route.path === '*';
  if (prerenderedPath !== undefined && (prerenderedPath === currentPath || (prerenderedPath === '*' && isNotFound))) {
    hydrateRoot(container, app);
  } else {
    container.replaceChildren();
    createRoot(container).render(app);
  }
}

if (router.state.initialized) {
  start();
} else {
  const unsubscribe = router.subscribe((state) => {
    if (!state.initialized) return;
    unsubscribe();
    start();
  });
}
