// Every island of the prerendered pages (web/islands/island.tsx): its name and its module, as Vite's
// manifest names it (scripts/prerender.ts modulepreloads the modules of the islands a page holds).
// web/islands/registry.ts loads the same modules in the browser.
export const islandModules = {
  header: 'components/layout/site-header.tsx',
  'newsletter-signup': 'features/newsletter/components/newsletter-signup.tsx',
  chat: 'features/chat/components/chat-launcher.tsx',
  'cookie-banner': 'features/cookie-consent/cookie-banner.tsx',
  toaster: 'components/layout/lazy-toaster.tsx',
  testimonials: 'features/home/components/testimonials-carousel.tsx',
  'faq-list': 'features/faq/components/faq-list.tsx',
  'did-you-know': 'features/resources/components/did-you-know.tsx',
  'state-refund': 'features/resources/components/state-refund-selector.tsx',
  'contact-form': 'features/contact/components/contact-form.tsx',
  'map-embed': 'features/contact/components/map-embed.tsx',
  'booking-form': 'features/booking/components/booking-form.tsx',
  'payment-announcement': 'components/layout/payment-announcement.tsx',
  'newsletter-archive': 'features/newsletter/components/archive-list.tsx',
  'newsletter-issue': 'features/newsletter/components/archived-issue.tsx',
} as const;

export type IslandName = keyof typeof islandModules;
