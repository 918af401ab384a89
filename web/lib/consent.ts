// docs/product.md §12: consent is the localStorage flag cookieConsent = 'true'. The cookie banner
// (web/features/cookie-consent/) sets it; other features read it (the contact page's map loads only
// after it), so it lives here rather than inside one feature.

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
