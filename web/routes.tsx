import type { RouteObject } from 'react-router';
import { publicRoutes, type PublicPath } from '#core/public-routes';
import { RootLayout } from './app/root-layout';
import { CONTENT_SECTION_SLUGS } from './features/content-admin/section-slugs';

// The route table of the prerender (web/entry-server.tsx renders every public page with it) and of
// the single-page app of the client-only screens (web/main.tsx); the prerendered pages themselves
// hydrate only their islands, without it (docs/decisions/0009-islands-on-prerendered-pages.md).
// Every page is its own chunk: the app downloads the screen it opens, never the others.
// lazyPage: the page gets the React Query client (admin data, unsubscribe). contentPage: pages that
// need no data layer, so @tanstack/query-core stays out of their download (the contact and booking
// forms send with plain requests and load zod when submitted).
const lazyPage = (load: () => Promise<{ default: React.ComponentType }>) => async () => {
  // The wrapper first: it also configures zod (no eval probe under our CSP) before the page's
  // schemas are built, hence the two loads one after the other.
  const { withQueryClient } = await import('./lib/with-query-client');
  const page = await load();
  return { Component: withQueryClient(page.default) };
};
const contentPage = (load: () => Promise<{ default: React.ComponentType }>) => async () => ({ Component: (await load()).default });

/** The page of each public route (core/public-routes.ts; the type insists on every one), as web/entry-worker.tsx maps them. */
const publicPages: Record<PublicPath, () => Promise<{ default: React.ComponentType }>> = {
  '/': () => import('./pages/home'),
  '/services': () => import('./pages/services'),
  '/about': () => import('./pages/about'),
  '/resources': () => import('./pages/resources'),
  '/faq': () => import('./pages/faq'),
  '/contact': () => import('./pages/contact'),
  '/schedule': () => import('./pages/schedule'),
  '/privacy-policy': () => import('./pages/privacy-policy'),
  '/payment-success': () => import('./pages/payment-success'),
  '/payment-cancelled': () => import('./pages/payment-cancelled'),
  '/newsletter': () => import('./pages/newsletter-archive'),
};

export const routes: RouteObject[] = [
  {
    path: '/',
    Component: RootLayout,
    children: [
      // The public routes, as core/public-routes.ts lists them (the prerender renders each).
      ...publicRoutes.map(({ path }) => (path === '/' ? { index: true, lazy: contentPage(publicPages[path]) } : { path: path.slice(1), lazy: contentPage(publicPages[path]) })),
      // An issue of the archive. Static segments outrank ':id' in React Router, so newsletter/confirmed
      // and the other e-mail link pages below still match their own routes.
      { path: 'newsletter/:id', lazy: contentPage(() => import('./pages/newsletter-issue')) },
      { path: 'newsletter/confirm', lazy: lazyPage(() => import('./pages/newsletter-confirm')) },
      { path: 'newsletter/confirmed', lazy: contentPage(() => import('./pages/newsletter-confirmed')) },
      { path: 'newsletter/unsubscribe', lazy: lazyPage(() => import('./pages/newsletter-unsubscribe')) },
      { path: 'newsletter/unsubscribed', lazy: contentPage(() => import('./pages/newsletter-unsubscribed')) },
      { path: 'newsletter/invalid-link', lazy: contentPage(() => import('./pages/newsletter-invalid-link')) },
      { path: 'appointment/cancel', lazy: contentPage(() => import('./pages/appointment-cancel')) },
      { path: 'appointment/reschedule', lazy: contentPage(() => import('./pages/appointment-reschedule')) },
      { path: 'admin', lazy: lazyPage(() => import('./pages/admin')) },
      { path: 'admin/login', lazy: lazyPage(() => import('./pages/admin-login')) },
      { path: 'admin/subscribers', lazy: lazyPage(() => import('./pages/admin-subscribers')) },
      { path: 'admin/newsletters', lazy: lazyPage(() => import('./pages/admin-newsletters')) },
      { path: 'admin/newsletters/edit', lazy: lazyPage(() => import('./pages/admin-newsletter-editor')) },
      { path: 'admin/availability', lazy: lazyPage(() => import('./pages/admin-availability')) },
      { path: 'admin/chats', lazy: lazyPage(() => import('./pages/admin-chats')) },
      { path: 'admin/users', lazy: lazyPage(() => import('./pages/admin-users')) },
      { path: 'admin/accept-invitation', lazy: lazyPage(() => import('./pages/admin-accept-invitation')) },
      { path: 'admin/reset-password', lazy: lazyPage(() => import('./pages/admin-reset-password')) },
      { path: 'admin/audit', lazy: lazyPage(() => import('./pages/admin-audit')) },
      { path: 'admin/go-live', lazy: lazyPage(() => import('./pages/admin-go-live')) },
      { path: 'admin/content', lazy: lazyPage(() => import('./pages/admin-content')) },
      { path: 'admin/content/history', lazy: lazyPage(() => import('./pages/admin-content-history')) },
      // One static route per section, so each gets its prerendered shell (scripts/prerender.ts).
      ...CONTENT_SECTION_SLUGS.map((slug) => ({ path: `admin/content/${slug}`, lazy: lazyPage(() => import('./pages/admin-content-section')) })),
      { path: '*', lazy: contentPage(() => import('./pages/not-found')) },
    ],
  },
];
