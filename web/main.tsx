import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { defaultContent } from '#core/content/default-content';
import type { SiteContent } from '#core/content/schema';
import { SHELL_CONTENT_ID } from '#core/content/shell';
import { installClickTracking } from './lib/analytics';
import { ContentProvider } from './lib/content';
import { takeLinkTokenFromAddress } from './lib/link-token';
import { routes } from './routes';
import './styles.css';

// The single-page app of the client-only screens (/admin, the e-mail link pages): their HTML is an
// empty shell, rendered here. The prerendered public pages load web/islands.tsx instead
// (docs/decisions/0009-islands-on-prerendered-pages.md).
// First of all: an e-mail link's token leaves the address before the router reads it and before
// anything (Tag Manager after consent) can see it; the page keeps it in memory (web/lib/link-token.ts).
takeLinkTokenFromAddress();
const router = createBrowserRouter(routes);
// The published content, when the firm has published its own: the worker writes it into the shell
// after the root (worker/services/content/published-pages.ts, staticFileWithContent); the defaults otherwise.
const publishedJson = document.getElementById(SHELL_CONTENT_ID)?.textContent;
const content = publishedJson ? (JSON.parse(publishedJson) as SiteContent) : defaultContent;
const container = document.getElementById('root')!;

installClickTracking();
container.replaceChildren();
createRoot(container).render(
  <StrictMode>
    {/* React Query is provided per page (web/routes.tsx), not here: content pages never load it. */}
    {/* The public pages are prerendered, or served by the worker with the published content. */}
    <ContentProvider value={content}>
      <RouterProvider router={router} />
    </ContentProvider>
  </StrictMode>,
);
