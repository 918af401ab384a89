// The public routes: prerendered by the build (scripts/prerender.ts), listed in the sitemap the
// worker serves (all but the payment pages; worker/routes/site-pages.ts) and checked in the upload directory by tests/build/deploy-assets.test.ts.
// `page` is the route's module under web/, as Vite's manifest names it (for modulepreload links).
export const publicRoutes = [
  { path: '/', page: 'pages/home.tsx', priority: '1.0', sitemap: true },
  { path: '/services', page: 'pages/services.tsx', priority: '0.9', sitemap: true },
  { path: '/about', page: 'pages/about.tsx', priority: '0.8', sitemap: true },
  { path: '/resources', page: 'pages/resources.tsx', priority: '0.7', sitemap: true },
  { path: '/faq', page: 'pages/faq.tsx', priority: '0.8', sitemap: true },
  { path: '/contact', page: 'pages/contact.tsx', priority: '0.9', sitemap: true },
  { path: '/schedule', page: 'pages/schedule.tsx', priority: '0.9', sitemap: true },
  { path: '/privacy-policy', page: 'pages/privacy-policy.tsx', priority: '0.3', sitemap: true },
  // The newsletter archive: the list is prerendered empty-handed and fetches the issues in the
  // browser; each issue's page (/newsletter/:id) is answered by the worker (worker/routes/site-pages.ts).
  { path: '/newsletter', page: 'pages/newsletter-archive.tsx', priority: '0.6', sitemap: true },
  { path: '/payment-success', page: 'pages/payment-success.tsx', priority: '0.1', sitemap: false },
  { path: '/payment-cancelled', page: 'pages/payment-cancelled.tsx', priority: '0.1', sitemap: false },
] as const;

/** The file Workers Static Assets serves for a route (html_handling "auto-trailing-slash"). */
export const htmlFileFor = (pathname: string) => (pathname === '/' ? 'index.html' : `${pathname.slice(1)}.html`);

/**
 * The newsletter issue page's shell (scripts/prerender.ts writes it; worker/routes/site-pages.ts
 * serves it for a sent issue, never under its own address) and what its root's data-prerendered
 * says until the worker puts the issue's path there.
 */
export const ISSUE_SHELL_PATH = '/newsletter/issue-shell';
export const ISSUE_SHELL_PLACEHOLDER = '/newsletter/:id';
