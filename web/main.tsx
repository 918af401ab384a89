import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { installClickTracking } from './lib/analytics';
import { routes } from './routes';
import './styles.css';

// The single-page app of the client-only screens (/admin, the e-mail link pages): their HTML is an
// empty shell, rendered here. The prerendered public pages load web/islands.tsx instead
// (docs/decisions/0009-islands-on-prerendered-pages.md).
const router = createBrowserRouter(routes);
const container = document.getElementById('root')!;

installClickTracking();
container.replaceChildren();
createRoot(container).render(
  <StrictMode>
    {/* React Query is provided per page (web/routes.tsx), not here: content pages never load it. */}
    <RouterProvider router={router} />
  </StrictMode>,
);
