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
    // Its code (and the API client it reads the setting with) loads only now, after consent: no
    // page pays for it up front.
    const { startTagManager } = await import('./tag-manager');
    await startTagManager();
  } catch {
    tagManagerRequested = false; // offline: try again on the next page load
  }
}
