import { useEffect } from 'react';
import { escapeHtml } from '#core/html';
import { useOptionalContent } from './content';

export interface PageMeta {
  title: string;
  description: string;
  /** Structured data (schema.org) embedded as JSON-LD in the page's head. */
  jsonLd?: Record<string, unknown>;
  /** Keep this page out of search results (admin screens, the 404 page). */
  noindex?: boolean;
  /** The firm's name, for an island (rendered without the content context); pages read it from the context. */
  siteName?: string;
}

export interface HeadMeta extends PageMeta {
  siteName: string;
  /** The full document title ("Page | Firm"). */
  documentTitle: string;
  canonical: string;
}

/** The full document title of a page; the home page leads with the firm's name. */
export const documentTitle = (title: string, siteName: string) => `${title} | ${siteName}`;

/** The site's public origin: SITE_URL in wrangler.jsonc, put in at build time by vite.config.ts. */
export const siteUrl = import.meta.env.VITE_SITE_URL;

export const canonicalUrl = (pathname: string) => `${siteUrl}${pathname === '/' ? '/' : pathname.replace(/\/+$/, '')}`;

/**
 * At build time the prerender step renders each route on the server, where effects never run:
 * the page's meta is recorded here during render, and the prerender step writes it into the head
 * of the static HTML. In the browser this stays null.
 */
let serverHead: HeadMeta | null = null;
/** The path the prerender is rendering (entry-server sets it); the browser reads its own location. */
let serverPathname = '/';
export const setServerPathname = (pathname: string) => {
  serverPathname = pathname;
};
export const takeServerHead = (): HeadMeta | null => {
  const head = serverHead;
  serverHead = null;
  return head;
};

function setMeta(attribute: 'name' | 'property', key: string, content: string) {
  let meta = document.head.querySelector<HTMLMetaElement>(`meta[${attribute}="${key}"]`);
  if (!meta) {
    meta = document.createElement('meta');
    meta.setAttribute(attribute, key);
    document.head.appendChild(meta);
  }
  meta.content = content;
}

/**
 * Sets the page's title, meta description, canonical link, Open Graph tags and JSON-LD, both in
 * the prerendered HTML (see above) and on every client-side navigation.
 */
export function usePageMeta(meta: PageMeta) {
  // No router hook: islands (web/islands/island.tsx) are hydrated without a router.
  const pathname = typeof window === 'undefined' ? serverPathname : window.location.pathname;
  const content = useOptionalContent();
  const siteName = meta.siteName ?? content?.firm.name;
  if (siteName === undefined) throw new Error('usePageMeta needs the content context or meta.siteName');
  const head: HeadMeta = { ...meta, siteName, documentTitle: documentTitle(meta.title, siteName), canonical: canonicalUrl(pathname) };
  // eslint-disable-next-line react-hooks/globals -- the prerender's one render per page hands the head out (see above)
  if (typeof document === 'undefined') serverHead = head;
  const jsonLd = meta.jsonLd ? JSON.stringify(meta.jsonLd) : '';

  useEffect(() => {
    document.title = head.documentTitle;
    setMeta('name', 'description', head.description);
    setMeta('property', 'og:title', head.documentTitle);
    setMeta('property', 'og:description', head.description);
    setMeta('property', 'og:url', head.canonical);
    setMeta('name', 'robots', head.noindex ? 'noindex' : 'index, follow');
    let canonical = document.head.querySelector<HTMLLinkElement>('link[rel="canonical"]');
    if (!canonical) {
      canonical = document.createElement('link');
      canonical.rel = 'canonical';
      document.head.appendChild(canonical);
    }
    canonical.href = head.canonical;
    // One JSON-LD block per page: replace the previous page's (prerendered or client-set).
    for (const script of document.head.querySelectorAll('script[type="application/ld+json"]')) script.remove();
    if (jsonLd) {
      const script = document.createElement('script');
      script.type = 'application/ld+json';
      script.textContent = jsonLd;
      document.head.appendChild(script);
    }
  }, [head.documentTitle, head.description, head.canonical, head.noindex, jsonLd]);
}

/** The head tags of a prerendered page (used by the build's prerender step). */
export function renderHeadTags(head: HeadMeta): string {
  const tags = [
    `<title>${escapeHtml(head.documentTitle)}</title>`,
    `<meta name="description" content="${escapeHtml(head.description)}" />`,
    `<meta name="robots" content="${head.noindex ? 'noindex' : 'index, follow'}" />`,
    // A noindex page (the 404 page, admin shells) names no canonical address of its own (nor og:url below).
    ...(head.noindex ? [] : [`<link rel="canonical" href="${escapeHtml(head.canonical)}" />`]),
    `<meta property="og:type" content="website" />`,
    `<meta property="og:site_name" content="${escapeHtml(head.siteName)}" />`,
    `<meta property="og:title" content="${escapeHtml(head.documentTitle)}" />`,
    `<meta property="og:description" content="${escapeHtml(head.description)}" />`,
    ...(head.noindex ? [] : [`<meta property="og:url" content="${escapeHtml(head.canonical)}" />`]),
    `<meta property="og:image" content="${siteUrl}/og-image.png" />`,
    `<meta property="og:locale" content="en_US" />`,
    `<meta name="twitter:card" content="summary_large_image" />`,
  ];
  if (head.jsonLd) {
    // "</" cannot end the script element early once escaped.
    tags.push(`<script type="application/ld+json">${JSON.stringify(head.jsonLd).replace(/</g, '\\u003c')}</script>`);
  }
  return tags.join('\n    ');
}
