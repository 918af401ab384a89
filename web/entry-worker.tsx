// The worker's page renderer (docs/decisions/0016-published-content-serving.md): the public pages
// with a given content document, for the published version and for Preview. scripts/prerender.ts
// builds it with Vite (the same defines as the prerender) into dist/page-renderer/, and the worker
// imports it as '#page-renderer' (worker/services/content/published-pages.ts). The public pages,
// imported statically, in the site's frame without a router (they use none): no admin screen and no
// React Router in the worker. tests/build/page-renderer.test.ts checks that it renders every page
// exactly as the prerender (the route table) did.
import type { ComponentType } from 'react';
import type { SiteContent } from '#core/content/schema';
import type { PublicPath } from '#core/public-routes';
import { SiteFrame } from './app/site-frame';
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
import { renderTree } from './render-route';

/** The page of each public route (core/public-routes.ts; the type insists on every one), as web/routes.tsx maps them. */
const pages: Record<PublicPath, ComponentType> = {
  '/': HomePage,
  '/services': ServicesPage,
  '/about': AboutPage,
  '/resources': ResourcesPage,
  '/faq': FaqPage,
  '/contact': ContactPage,
  '/schedule': SchedulePage,
  '/privacy-policy': PrivacyPolicyPage,
  '/payment-success': PaymentSuccessPage,
  '/payment-cancelled': PaymentCancelledPage,
  '/newsletter': NewsletterArchivePage,
};

/** The page of `pathname`: a public page, an issue's page (/newsletter/<id>), or the 404 page. */
function pageOf(pathname: string): { Page: ComponentType; status: number } {
  const Page = Object.hasOwn(pages, pathname) ? pages[pathname as PublicPath] : /^\/newsletter\/\d+$/.test(pathname) ? NewsletterIssuePage : null;
  return Page ? { Page, status: 200 } : { Page: NotFoundPage, status: 404 };
}

/** A public page with `content`: its head tags and the HTML of its root, as the prerender writes them. */
export async function renderPage(pathname: string, content: SiteContent): Promise<{ headTags: string; html: string; status: number }> {
  const { Page, status } = pageOf(pathname);
  const { html, head } = renderTree(
    <SiteFrame pathname={pathname}>
      <Page />
    </SiteFrame>,
    pathname,
    content,
    status,
  );
  if (!head) throw new Error(`${pathname} did not call usePageMeta`);
  return { headTags: renderHeadTags(head), html, status };
}
