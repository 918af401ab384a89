import type { ComponentType } from 'react';
import type { IslandName } from './names';

// How the browser loads each island's component (web/islands.tsx): one chunk per island module, so
// a page downloads only the islands it holds. Keep in step with web/islands/names.ts (the type
// below insists on every name).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loader = () => Promise<ComponentType<any>>;

export const islandLoaders: Record<IslandName, Loader> = {
  header: () => import('../components/layout/site-header').then((m) => m.SiteHeader),
  'newsletter-signup': () => import('../features/newsletter/components/newsletter-signup').then((m) => m.NewsletterSignup),
  chat: () => import('../features/chat/components/chat-launcher').then((m) => m.ChatLauncher),
  'cookie-banner': () => import('../features/cookie-consent/cookie-banner').then((m) => m.CookieBanner),
  toaster: () => import('../components/layout/lazy-toaster').then((m) => m.LazyToaster),
  testimonials: () => import('../features/home/components/testimonials-carousel').then((m) => m.TestimonialsCarousel),
  'faq-list': () => import('../features/faq/components/faq-list').then((m) => m.FaqList),
  'did-you-know': () => import('../features/resources/components/did-you-know').then((m) => m.DidYouKnow),
  'state-refund': () => import('../features/resources/components/state-refund-selector').then((m) => m.StateRefundSelector),
  'contact-form': () => import('../features/contact/components/contact-form').then((m) => m.ContactForm),
  'map-embed': () => import('../features/contact/components/map-embed').then((m) => m.MapEmbed),
  'booking-form': () => import('../features/booking/components/booking-form').then((m) => m.BookingForm),
  'payment-announcement': () => import('../components/layout/payment-announcement').then((m) => m.PaymentAnnouncement),
  'newsletter-archive': () => import('../features/newsletter/components/archive-list').then((m) => m.ArchiveList),
  'newsletter-issue': () => import('../features/newsletter/components/archived-issue').then((m) => m.ArchivedIssue),
};
