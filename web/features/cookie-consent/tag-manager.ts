import { api } from '../../lib/api';

/**
 * Reads the site's Google Tag Manager container from GET /api/site-config and, when there is one,
 * loads gtm.js (docs/product.md §12). Called once per page, after consent (consent.ts).
 */
export async function startTagManager(): Promise<void> {
  const res = await api['site-config'].$get();
  if (!res.ok) return;
  const { gtmId } = await res.json();
  if (!gtmId) return;
  window.dataLayer = window.dataLayer ?? [];
  window.dataLayer.push({ event: 'gtm.js', 'gtm.start': Date.now() });
  const script = document.createElement('script');
  script.async = true;
  script.src = `https://www.googletagmanager.com/gtm.js?id=${encodeURIComponent(gtmId)}`;
  document.head.appendChild(script);
}
