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

export const trackPaymentAttempt = (action: 'success' | 'error', value?: number) =>
  push({ event: 'payment_attempt', category: 'Payments', action, value });
