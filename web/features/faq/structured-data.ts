import type { SiteContent } from '#core/content/schema';

/** FAQPage structured data with all 12 questions (whatever filter is selected on screen). */
export function faqPageJsonLd(faqItems: SiteContent['faq']['items']): Record<string, unknown> {
  return {
    '@context': 'https://schema.org',
    '@type': 'FAQPage',
    mainEntity: faqItems.map((item) => ({
      '@type': 'Question',
      name: item.question,
      acceptedAnswer: { '@type': 'Answer', text: item.answer },
    })),
  };
}
