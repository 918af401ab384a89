import type { SiteContent } from '#core/content/schema';
import { firmStateName, firmTown } from '../../lib/content';
import { siteUrl } from '../../lib/page-meta';

/**
 * docs/product.md §1.3: the home page's structured business data (foundingDate 2020, as the firm's
 * records say).
 */
export function accountingServiceJsonLd(content: SiteContent): Record<string, unknown> {
  const { firm, services } = content;
  const serviceGroups = services.groups;
  const { address } = firm.contact;
  return {
    '@context': 'https://schema.org',
    '@type': ['AccountingService', 'LocalBusiness'],
    '@id': `${siteUrl}/#business`,
    name: firm.name,
    legalName: firm.legalName,
    description: `Certified public accountants providing tax preparation, accounting, payroll and business consulting in ${firmTown(address)} and nationwide.`,
    url: `${siteUrl}/`,
    logo: `${siteUrl}/logo.svg`,
    image: `${siteUrl}/og-image.png`,
    telephone: firm.contact.phone,
    faxNumber: firm.contact.fax,
    email: firm.contact.email,
    foundingDate: String(firm.foundingYear),
    priceRange: '$$',
    address: {
      '@type': 'PostalAddress',
      streetAddress: address.street,
      addressLocality: address.city,
      addressRegion: address.region,
      postalCode: address.postalCode,
      addressCountry: address.country,
    },
    areaServed: [{ '@type': 'State', name: firmStateName(content) }, { '@type': 'Country', name: 'United States' }],
    openingHoursSpecification: [
      {
        '@type': 'OpeningHoursSpecification',
        dayOfWeek: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'],
        opens: '09:00',
        closes: '17:00',
      },
    ],
    sameAs: firm.social.map((s) => s.href),
    hasOfferCatalog: {
      '@type': 'OfferCatalog',
      name: 'Accounting and tax services',
      itemListElement: serviceGroups.map((group) => ({
        '@type': 'OfferCatalog',
        name: group.title,
        itemListElement: group.services.map((service) => ({ '@type': 'Offer', itemOffered: { '@type': 'Service', name: service.title } })),
      })),
    },
  };
}
