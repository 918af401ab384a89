// The worker's page renderer (docs/decisions/0015-published-content-serving.md): the public pages
// with a given content document, for the published version and for Preview. scripts/prerender.ts
// builds it with Vite (the same defines as the prerender) into dist/page-renderer/, and the worker
// imports it as '#page-renderer' (worker/services/content/published-pages.ts). The route table is
// web/routes.tsx's public part with the pages imported statically: no admin screen in the worker.
import { createStaticHandler, type RouteObject } from 'react-router';
import type { SiteContent } from '#core/content/schema';
import { RootLayout } from './app/root-layout';
import { renderHeadTags } from './lib/page-meta';
import AboutPage from './pages/about';
import ContactPage from './pages/contact';
import FaqPage from './pages/faq';
import HomePage from './pages/home';
import NewsletterArchivePage from './pages/newsletter-archive';
import NewsletterIssuePage from './pages/newsletter-issue';
import NotFoundPage from './pages/not-found';
import PaymentCancelledPage from './pages/payment-cancelled';
import PaymentSuccessPage from './pages/payment-success';
import PrivacyPolicyPage from './pages/privacy-policy';
import ResourcesPage from './pages/resources';
import SchedulePage from './pages/schedule';
import ServicesPage from './pages/services';
import { renderRouteWith } from './render-route';

const routes: RouteObject[] = [
  {
    path: '/',
    Component: RootLayout,
    children: [
      { index: true, Component: HomePage },
      { path: 'services', Component: ServicesPage },
      { path: 'about', Component: AboutPage },
      { path: 'resources', Component: ResourcesPage },
      { path: 'faq', Component: FaqPage },
      { path: 'contact', Component: ContactPage },
      { path: 'schedule', Component: SchedulePage },
      { path: 'privacy-policy', Component: PrivacyPolicyPage },
      { path: 'payment-success', Component: PaymentSuccessPage },
      { path: 'payment-cancelled', Component: PaymentCancelledPage },
      { path: 'newsletter', Component: NewsletterArchivePage },
      { path: 'newsletter/:id', Component: NewsletterIssuePage },
      { path: '*', Component: NotFoundPage },
    ],
  },
];

const handler = createStaticHandler(routes);

/** A public page with `content`: its head tags and the HTML of its root, as the prerender writes them. */
export async function renderPage(pathname: string, content: SiteContent): Promise<{ headTags: string; html: string; status: number }> {
  const { html, head, status } = await renderRouteWith(handler, pathname, content);
  if (!head) throw new Error(`${pathname} did not call usePageMeta`);
  return { headTags: renderHeadTags(head), html, status };
}
