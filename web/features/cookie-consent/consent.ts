// docs/product.md §12: consent is the localStorage flag cookieConsent = 'true'. Nothing third-party
// loads before it is set; afterwards Google Tag Manager loads when the site has a container id
// configured.

import { isAdminPath } from '#core/public-routes';
import { hasConsent } from '../../lib/consent';
import { addressCarriesLinkToken } from '../../lib/link-token';

let tagManagerRequested = false;

/**
 * Whether this document may have loaded Tag Manager. Its script cannot be unloaded, so once it ran,
 * the admin pages must be opened as a fresh document (which never loads it, and whose CSP forbids
 * it), never by an in-app navigation: see leaveTagManagerBehind.
 */
export function tagManagerInDocument(): boolean {
  return tagManagerRequested;
}

/**
 * Opens an admin page as a new document when Tag Manager ran in this one, so the container's script
 * never shares a page with the firm's client data. Registered as soon as Tag Manager is requested: a
 * capturing click listener turns links to /admin into full page loads before the router sees them,
 * and a history change that lands on /admin (Back, Forward) reloads at once.
 */
let leavingRegistered = false;
function leaveTagManagerBehind(): void {
  if (leavingRegistered) return;
  leavingRegistered = true;
  document.addEventListener(
    'click',
    (event) => {
      if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const link = (event.target as Element | null)?.closest?.('a[href]');
      if (!(link instanceof HTMLAnchorElement) || link.target || link.origin !== window.location.origin) return;
      if (!isAdminPath(link.pathname)) return;
      event.preventDefault();
      event.stopPropagation();
      window.location.assign(link.href);
    },
    true,
  );
  window.addEventListener('popstate', () => {
    if (isAdminPath(window.location.pathname)) window.location.reload();
  });
}

/** Loads Google Tag Manager once, after consent, when /api/site-config names a container; never on /admin. */
export async function loadTagManager(): Promise<void> {
  // Nor while an e-mail link's token is still in the address (web/lib/link-token.ts takes it out first).
  if (tagManagerRequested || !hasConsent() || isAdminPath(window.location.pathname) || addressCarriesLinkToken()) return;
  tagManagerRequested = true;
  leaveTagManagerBehind();
  try {
    // Its code (and the API client it reads the setting with) loads only now, after consent: no
    // page pays for it up front.
    const { startTagManager } = await import('./tag-manager');
    await startTagManager();
  } catch {
    tagManagerRequested = false; // offline: try again on the next page load
  }
}
