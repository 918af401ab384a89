// docs/product.md §12: analytics events go to window.dataLayer. Nothing third-party loads from
// here; a tag manager (when configured) is added only after cookie consent and reads the same
// dataLayer.

type DataLayerEvent = Record<string, unknown> & { event: string };

declare global {
  interface Window {
    dataLayer?: DataLayerEvent[];
  }
}

function push(event: DataLayerEvent) {
  if (typeof window === 'undefined') return;
  window.dataLayer = window.dataLayer ?? [];
  window.dataLayer.push(event);
}

export const trackPageview = (page: string) => push({ event: 'pageview', page });

export const trackButtonClick = (label: string, category = 'Button Clicks') => push({ event: 'button_click', category, label });

export const trackFormSubmission = (label: string, action: 'success' | 'error') =>
  push({ event: 'form_submission', category: 'Forms', action, label });

/** payment_attempt (docs/product.md §12): category "Payments", action success or error, and always a numeric value. */
export const trackPaymentAttempt = (action: 'success' | 'error', value: number) =>
  push({ event: 'payment_attempt', category: 'Payments', action, value });

/**
 * The value of a payment_attempt: the `amount` query parameter of the address the card-payment page
 * returned the visitor to (e.g. `/payment-success?amount=125.50` gives 125.5), or 0 when it is
 * absent or not a plain decimal number (no sign, no thousands separator, no currency symbol).
 */
export function paymentAmount(search: string): number {
  const amount = new URLSearchParams(search).get('amount')?.trim() ?? '';
  return /^\d+(?:\.\d+)?$/.test(amount) ? Number(amount) : 0;
}

/**
 * The attributes of a link whose click is tracked as a button_click: static links on the
 * prerendered pages carry no React handler (only islands are hydrated, docs/decisions/0009-islands-on-prerendered-pages.md),
 * so one listener on the document (installClickTracking) reads them.
 */
export const trackedClick = (label: string, category?: string) => ({
  'data-track': label,
  ...(category ? { 'data-track-category': category } : {}),
});

/** Tracks clicks on elements marked with trackedClick(), wherever they are on the page. */
export function installClickTracking() {
  document.addEventListener('click', (event) => {
    const target = event.target instanceof Element ? event.target.closest<HTMLElement>('[data-track]') : null;
    if (!target?.dataset.track) return;
    trackButtonClick(target.dataset.track, target.dataset.trackCategory);
  });
}
