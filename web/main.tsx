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
 * Public routes arrive prerendered (see scripts/prerender.ts): the static HTML names its route in
 * data-prerendered. When it is this page, hydrate it once the route's lazy page chunk is loaded
 * (so the first client render equals the HTML). Any other HTML (the SPA fallback, which is the
 * prerendered home page, served for unknown paths and client-only screens) is replaced instead.
 */
function start() {
  const prerenderedPath = container.dataset.prerendered;
  const currentPath = window.location.pathname.replace(/(.)\/+$/, '$1');
  if (prerenderedPath !== undefined && prerenderedPath === currentPath) {
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
