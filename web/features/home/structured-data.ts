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
    ...openingHours(firm.hours),
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

const WEEK = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

/** "Monday", "Monday - Friday", "Monday, Wednesday": the days named, in week order; null when a name is not a day. */
function daysOf(text: string): string[] | null {
  const day = (name: string) => WEEK.findIndex((d) => d.toLowerCase() === name.trim().toLowerCase());
  const days: string[] = [];
  for (const part of text.split(',')) {
    const [from, to, ...rest] = part.split(/\s*(?:-|–|\bto\b)\s*/);
    const [a, b] = [day(from), to === undefined ? day(from) : day(to)];
    if (rest.length || a < 0 || b < a) return null;
    days.push(...WEEK.slice(a, b + 1));
  }
  return days;
}

/** "9:00 AM" or "5 PM" as "09:00" / "17:00"; null when it is not such a time. */
function clockOf(text: string): string | null {
  const match = /^(\d{1,2})(?::(\d{2}))?\s*([AP])\.?M\.?$/i.exec(text.trim());
  if (!match || Number(match[1]) < 1 || Number(match[1]) > 12 || Number(match[2] ?? 0) > 59) return null;
  const hour = (Number(match[1]) % 12) + (match[3].toUpperCase() === 'P' ? 12 : 0);
  return `${String(hour).padStart(2, '0')}:${match[2] ?? '00'}`;
}

/**
 * The office hours as schema.org OpeningHoursSpecification, read from the published hours ("Monday -
 * Friday", "9:00 AM - 5:00 PM"; "Closed" days are left out). The hours are free text the firm edits:
 * when a line cannot be read this way, no hours are stated at all rather than wrong ones.
 */
export function openingHours(hours: SiteContent['firm']['hours']): { openingHoursSpecification?: Record<string, unknown>[] } {
  const specification: Record<string, unknown>[] = [];
  for (const line of hours) {
    if (/^closed$/i.test(line.time.trim())) continue;
    const dayOfWeek = daysOf(line.days);
    const [opens, closes, ...rest] = line.time.split(/\s*(?:-|–|\bto\b)\s*/).map(clockOf);
    if (!dayOfWeek || !opens || !closes || rest.length) return {};
    specification.push({ '@type': 'OpeningHoursSpecification', dayOfWeek, opens, closes });
  }
  return specification.length ? { openingHoursSpecification: specification } : {};
}
