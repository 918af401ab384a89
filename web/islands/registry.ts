import type { ComponentType } from 'react';

// Every island of the prerendered pages (web/islands/island.tsx), one row each: its module as
// Vite's manifest names it (scripts/prerender.ts modulepreloads the modules of the islands a page
// holds; the path below web/ of the row's import) and how the browser loads its component
// (web/islands/runtime.tsx): one chunk per island module, so a page downloads only the islands it
// holds.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loader = () => Promise<ComponentType<any>>;

export const islands = {
  header: { module: 'components/layout/site-header.tsx', load: () => import('../components/layout/site-header').then((m) => m.SiteHeader) },
  'newsletter-signup': { module: 'features/newsletter/components/newsletter-signup.tsx', load: () => import('../features/newsletter/components/newsletter-signup').then((m) => m.NewsletterSignup) },
  chat: { module: 'features/chat/components/chat-launcher.tsx', load: () => import('../features/chat/components/chat-launcher').then((m) => m.ChatLauncher) },
  'cookie-banner': { module: 'features/cookie-consent/cookie-banner.tsx', load: () => import('../features/cookie-consent/cookie-banner').then((m) => m.CookieBanner) },
  toaster: { module: 'components/layout/lazy-toaster.tsx', load: () => import('../components/layout/lazy-toaster').then((m) => m.LazyToaster) },
  testimonials: { module: 'features/home/components/testimonials-carousel.tsx', load: () => import('../features/home/components/testimonials-carousel').then((m) => m.TestimonialsCarousel) },
  'faq-list': { module: 'features/faq/components/faq-list.tsx', load: () => import('../features/faq/components/faq-list').then((m) => m.FaqList) },
  'did-you-know': { module: 'features/resources/components/did-you-know.tsx', load: () => import('../features/resources/components/did-you-know').then((m) => m.DidYouKnow) },
  'state-refund': { module: 'features/resources/components/state-refund-selector.tsx', load: () => import('../features/resources/components/state-refund-selector').then((m) => m.StateRefundSelector) },
  'contact-form': { module: 'features/contact/components/contact-form.tsx', load: () => import('../features/contact/components/contact-form').then((m) => m.ContactForm) },
  'map-embed': { module: 'features/contact/components/map-embed.tsx', load: () => import('../features/contact/components/map-embed').then((m) => m.MapEmbed) },
  'booking-form': { module: 'features/booking/components/booking-form.tsx', load: () => import('../features/booking/components/booking-form').then((m) => m.BookingForm) },
  'payment-announcement': { module: 'components/layout/payment-announcement.tsx', load: () => import('../components/layout/payment-announcement').then((m) => m.PaymentAnnouncement) },
  'newsletter-archive': { module: 'features/newsletter/components/archive-list.tsx', load: () => import('../features/newsletter/components/archive-list').then((m) => m.ArchiveList) },
  'newsletter-issue': { module: 'features/newsletter/components/archived-issue.tsx', load: () => import('../features/newsletter/components/archived-issue').then((m) => m.ArchivedIssue) },
} as const satisfies Record<string, { module: string; load: Loader }>;

export type IslandName = keyof typeof islands;
