// The public routes: prerendered by the build (scripts/prerender.ts), listed in the sitemap the
// worker serves (all but the payment pages; worker/routes/site-pages.ts) and checked in the upload directory by tests/build/deploy-assets.test.ts.
export const publicRoutes = [
  { path: '/', priority: '1.0', sitemap: true },
  { path: '/services', priority: '0.9', sitemap: true },
  { path: '/about', priority: '0.8', sitemap: true },
  { path: '/resources', priority: '0.7', sitemap: true },
  { path: '/faq', priority: '0.8', sitemap: true },
  { path: '/contact', priority: '0.9', sitemap: true },
  { path: '/schedule', priority: '0.9', sitemap: true },
  { path: '/privacy-policy', priority: '0.3', sitemap: true },
  // The newsletter archive: the list is prerendered empty-handed and fetches the issues in the
  // browser; each issue's page (/newsletter/:id) is answered by the worker (worker/routes/site-pages.ts).
  { path: '/newsletter', priority: '0.6', sitemap: true },
  { path: '/payment-success', priority: '0.1', sitemap: false },
  { path: '/payment-cancelled', priority: '0.1', sitemap: false },
] as const;

export type PublicPath = (typeof publicRoutes)[number]['path'];

/** The file Workers Static Assets serves for a route (html_handling "auto-trailing-slash"). */
export const htmlFileFor = (pathname: string) => (pathname === '/' ? 'index.html' : `${pathname.slice(1)}.html`);

/**
 * The newsletter issue page's shell (scripts/prerender.ts writes it; worker/routes/site-pages.ts
 * serves it for a sent issue, never under its own address) and what its root's data-prerendered
 * says until the worker puts the issue's path there.
 */
export const ISSUE_SHELL_PATH = '/newsletter/issue-shell';
export const ISSUE_SHELL_PLACEHOLDER = '/newsletter/:id';

/**
 * The paths the 404 page and the issue shell are rendered at, by the prerender (scripts/prerender.ts)
 * and again with the published content by the worker (worker/routes/site-pages.ts): a path no route
 * claims (the route table's catch-all renders the 404 page), and any issue id (the issue page
 * renders its loading state, the same for every id).
 */
export const NOT_FOUND_PROBE = '/__not-found__';
export const ISSUE_PROBE = '/newsletter/1';

/**
 * Paths whose pages (and API) are the back office: the admin CSP applies there
 * (worker/middleware/security-headers.ts), and the public pages open them as a fresh document once
 * Tag Manager ran (web/features/cookie-consent/consent.ts).
 */
export function isAdminPath(pathname: string): boolean {
  return pathname === '/admin' || pathname.startsWith('/admin/') || pathname === '/api/admin' || pathname.startsWith('/api/admin/');
}
