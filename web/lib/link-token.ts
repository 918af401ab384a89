// The e-mail links' bearer tokens (docs/product.md §3.1, §5.1, §5.2, §12): whoever holds one can
// cancel or move an appointment, or confirm or end a subscription. Tag Manager, once consent is
// given, reads the page's address (and the browser sends it to Google as the Referer), so the token
// is taken out of the address before any analytics can load (web/main.tsx, first thing) and kept in
// memory for the page's own API calls.

/** The pages whose address carries a live token: /appointment/cancel, /appointment/reschedule, /newsletter/confirm, /newsletter/unsubscribe. */
const TOKEN_PAGES = ['/appointment/', '/newsletter/'];

/** Tokens taken from the address, by the page's path. */
const taken = new Map<string, string>();

const isTokenPage = (pathname: string) => TOKEN_PAGES.some((prefix) => pathname.startsWith(prefix));

/** True while the address is a token page's with its token still in it. */
export function addressCarriesLinkToken(location: Pick<Location, 'href'> = window.location): boolean {
  const url = new URL(location.href);
  return isTokenPage(url.pathname) && url.searchParams.has('token');
}

/** Takes the token out of a token page's address (history.replaceState, no reload) and keeps it for linkToken. */
export function takeLinkTokenFromAddress(): void {
  if (!addressCarriesLinkToken()) return;
  const url = new URL(window.location.href);
  taken.set(url.pathname, url.searchParams.get('token') ?? '');
  url.searchParams.delete('token');
  window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`);
}

/**
 * This page's link token: the one taken from its address when it opened ('' when there was none),
 * or one still in the address (`params`, only after an in-app navigation to a link: none does so).
 */
export function linkToken(params: URLSearchParams): string {
  return params.get('token') ?? (typeof window === 'undefined' ? undefined : taken.get(window.location.pathname)) ?? '';
}
