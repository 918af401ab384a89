// docs/product.md §12: consent is the localStorage flag cookieConsent = 'true'. Nothing third-party
// loads before it is set; afterwards Google Tag Manager loads when the site has a container id
// configured.

export const CONSENT_KEY = 'cookieConsent';

export function hasConsent(): boolean {
  try {
    return window.localStorage.getItem(CONSENT_KEY) === 'true';
  } catch {
    return false; // storage blocked: treat as not consented (and show the banner)
  }
}

export function storeConsent(): void {
  try {
    window.localStorage.setItem(CONSENT_KEY, 'true');
  } catch {
    // storage blocked: the banner hides for this visit only
  }
}

let tagManagerRequested = false;

/** Loads Google Tag Manager once, after consent, when /api/site-config names a container. */
export async function loadTagManager(): Promise<void> {
  if (tagManagerRequested || !hasConsent()) return;
  tagManagerRequested = true;
  try {
    const res = await fetch('/api/site-config', { credentials: 'same-origin' });
    if (!res.ok) return;
    const { gtmId } = (await res.json()) as { gtmId: string | null };
    if (!gtmId) return;
    window.dataLayer = window.dataLayer ?? [];
    window.dataLayer.push({ event: 'gtm.js', 'gtm.start': Date.now() });
    const script = document.createElement('script');
    script.async = true;
    script.src = `https://www.googletagmanager.com/gtm.js?id=${encodeURIComponent(gtmId)}`;
    document.head.appendChild(script);
  } catch {
    tagManagerRequested = false; // offline: try again on the next page load
  }
}
