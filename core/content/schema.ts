import * as z from 'zod/v4';
import { emailField, foldLine, tooLongMessage } from '../schemas/fields';
import { isSafeLink, sanitizeRichText } from './rich-text';

// The firm's content as one document (docs/decisions/0013-content-as-a-versioned-document.md): what
// the back office edits and publishes, validated here by the API (worker/routes/admin/content.ts)
// and by the screens. Its default is today's content (core/content/default-content.ts). Every string
// has a maximum, every list a bound, every link a scheme from an allow-list; rich text is reduced to
// its subset on parse (core/content/rich-text.ts). Navigation, the state list's codes and names,
// icons' meaning and the firm's time zone stay code.

/** The whole document, serialised as JSON, may not exceed this (the API answers 413 above it). */
export const CONTENT_MAX_BYTES = 256 * 1024;

/** The size the limit counts: the document's JSON in UTF-8. */
export const contentByteSize = (content: unknown) => new TextEncoder().encode(JSON.stringify(content)).length;

const required = (label: string) => `${label} is required`;

/**
 * A one-line text: trimmed, not blank, no line breaks (it may end up in an e-mail header, such as
 * the firm's name in every reply's subject, or an .ics line). Any other control character (a tab,
 * NEL, a separator) is folded into a space rather than refused, so a version published before the
 * rule still parses (a stored version that no longer did would be replaced by the defaults).
 */
const line = (label: string, max = 120) =>
  z
    .string({ error: required(label) })
    .trim()
    .min(1, required(label))
    .max(max, tooLongMessage(label, max))
    .refine((value) => !/[\r\n]/.test(value), `${label} must be a single line`)
    .transform(foldLine);

/** A paragraph of plain text (shown as text everywhere: escaped in HTML, e-mail, ICS and JSON-LD). */
const paragraph = (label: string, max = 1000) =>
  z.string({ error: required(label) }).trim().min(1, required(label)).max(max, tooLongMessage(label, max));

/**
 * A paragraph of rich text: sanitised to the subset on save, then measured (escaping can lengthen
 * it), so what is stored always parses again unchanged.
 */
const richParagraph = (label: string, max = 2000) =>
  z
    .string({ error: required(label) })
    .trim()
    .transform(sanitizeRichText)
    .pipe(z.string().min(1, required(label)).max(max, tooLongMessage(label, max)));

const WEB_LINK_MESSAGE = 'Must be a web address starting with https:// or http://';
const CONTACT_LINK_MESSAGE = 'Must be a web address (https://), a mailto: or a tel: link';

/** A web address: absolute http(s) only. */
const webLink = (label: string) =>
  line(label, 500).refine((value) => isSafeLink(value) && /^https?:/i.test(value), WEB_LINK_MESSAGE);

/** A contact link: http(s), mailto: or tel:. */
const contactLink = (label: string) => line(label, 500).refine(isSafeLink, CONTACT_LINK_MESSAGE);

/** A page of this site ('/contact', '/services#tax-services') or a contact link. */
const siteOrContactLink = (label: string) =>
  line(label, 500).refine(
    (value) => /^\/(?![/\\])[A-Za-z0-9\-._~/#?=&%]*$/.test(value) || isSafeLink(value),
    'Must be a page of this site (/contact), a web address (https://), a mailto: or a tel: link',
  );

/** An id used in a page's anchors and keys: lowercase letters, digits and hyphens. */
const slug = (label: string) =>
  line(label, 60).refine((value) => /^[a-z0-9]+(-[a-z0-9]+)*$/.test(value), `${label} may use only lowercase letters, digits and hyphens`);

/** A lucide icon name; the pages draw a default icon for a name they do not know. */
const icon = () => slug('Icon');

const year = (label: string) =>
  z.number({ error: `${label} must be a year` }).int(`${label} must be a year`).min(1900, `${label} must be a year after 1900`).max(2100, `${label} must be a year before 2100`);

const list = <T extends z.ZodType>(item: T, label: string, max: number, min = 0) =>
  z
    .array(item, { error: `${label} must be a list` })
    .min(min, min === 1 ? `Add at least one ${label.toLowerCase()} item` : `${label} needs at least ${min} items`)
    .max(max, `${label} may have at most ${max} items`);

/** Adds an issue at `path` for every value seen twice (ids, categories, service types). */
function unique<T>(items: readonly T[], key: (item: T) => string, ctx: z.RefinementCtx, path: (index: number) => PropertyKey[], message: string) {
  const seen = new Set<string>();
  items.forEach((item, index) => {
    const value = key(item);
    if (seen.has(value)) ctx.addIssue({ code: 'custom', path: path(index), message });
    seen.add(value);
  });
}

const firmSchema = z.object({
  name: line('Firm name', 80),
  legalName: line('Legal name', 120),
  tagline: line('Tagline', 200),
  foundingYear: year('Founding year'),
  openedToPublicYear: year('Year opened to the public'),
  yearsOfExperience: line('Years of experience', 20),
  contact: z.object({
    phone: line('Phone', 40),
    phoneHref: line('Phone link', 40).refine((value) => /^tel:\+?[0-9-]{3,20}$/.test(value), 'Phone link must be a tel: link such as tel:+17245550142'),
    fax: line('Fax', 40),
    email: emailField(),
    address: z.object({
      street: line('Street', 120),
      city: line('City', 80),
      region: line('State', 40),
      postalCode: line('ZIP code', 20),
      country: line('Country', 2).refine((value) => /^[A-Z]{2}$/.test(value), 'Country must be a two-letter code such as US'),
    }),
  }),
  hours: list(z.object({ days: line('Days', 60), time: line('Hours', 60) }), 'Hours', 7, 1),
  hoursSummary: line('Hours summary', 200),
  confirmationPromise: line('Confirmation promise', 300),
  links: z.object({
    payNow: webLink('Pay Now address'),
    clientPortal: webLink('Client Portal address'),
    googleReviews: webLink('Google reviews address'),
    mapEmbed: webLink('Map embed address'),
    mapLink: webLink('Map link'),
  }),
  social: list(z.object({ name: line('Network', 40), kind: line('Kind of network', 60), href: webLink('Profile address') }), 'Social links', 10),
});

const pricesSchema = z.object({
  individualReturn: line('Individual return price', 60),
  businessReturn: line('Business return price', 60),
  monthlyBookkeeping: line('Monthly bookkeeping price', 60),
  initialConsultation: line('Initial consultation price', 60),
});

const titledCard = () => z.object({ title: line('Title', 80), icon: icon(), description: paragraph('Description', 600) });

const servicesSchema = z.object({
  groups: list(
    z.object({
      title: line('Group title', 80),
      icon: icon(),
      summary: paragraph('Summary', 600),
      services: list(titledCard(), 'Services', 12, 1),
    }),
    'Service groups',
    8,
    1,
  ).superRefine((groups, ctx) => unique(groups, (g) => g.title.toLowerCase(), ctx, (i) => [i, 'title'], 'Two groups have this title')),
});

const aboutSchema = z.object({
  story: list(richParagraph('Paragraph'), 'Story', 10, 1),
  highlights: list(titledCard(), 'Highlights', 6),
  leader: z.object({
    name: line('Name', 100),
    shortName: line('Short name', 100),
    title: line('Title', 100),
    credentials: list(line('Credential', 80), 'Credentials', 10),
    photoAlt: line('Photo description', 200),
    bio: list(richParagraph('Paragraph'), 'Biography', 10, 1),
    social: list(z.object({ name: line('Label', 40), href: contactLink('Link') }), 'Links', 10),
  }),
});

const testimonialsSchema = list(
  z.object({
    id: z.number({ error: 'Id must be a number' }).int('Id must be a whole number').min(1, 'Id must be positive').max(1_000_000, 'Id is too large'),
    author: line('Author', 80),
    rating: z.number({ error: 'Rating must be 1 to 5' }).int('Rating must be 1 to 5').min(1, 'Rating must be 1 to 5').max(5, 'Rating must be 1 to 5'),
    text: paragraph('Review', 1000),
    date: line('Date', 40),
  }),
  'Testimonials',
  30,
).superRefine((items, ctx) => unique(items, (t) => String(t.id), ctx, (i) => [i, 'id'], 'Two testimonials have this id'));

const faqSchema = z
  .object({
    categories: list(line('Category', 60), 'Categories', 10, 1),
    items: list(
      z.object({
        id: slug('Id'),
        category: line('Category', 60),
        question: line('Question', 300),
        answer: paragraph('Answer', 2000),
        links: list(z.object({ label: line('Link text', 80), href: siteOrContactLink('Link') }), 'Links', 4).optional(),
      }),
      'Questions',
      100,
    ),
  })
  .superRefine((faq, ctx) => {
    unique(faq.categories, (c) => c.toLowerCase(), ctx, (i) => ['categories', i], 'Two categories have this name');
    unique(faq.items, (item) => item.id, ctx, (i) => ['items', i, 'id'], 'Two questions have this id');
    faq.items.forEach((item, i) => {
      if (!faq.categories.includes(item.category)) ctx.addIssue({ code: 'custom', path: ['items', i, 'category'], message: 'Choose one of the categories' });
    });
  });

const resourcesSchema = z.object({
  taxFacts: z.object({ taxYear: year('Tax year'), facts: list(paragraph('Fact', 400), 'Tax facts', 20) }),
  federalLinks: list(z.object({ title: line('Title', 80), description: paragraph('Description', 300), href: webLink('Link') }), 'Federal links', 10),
  stateLinks: list(
    z.object({
      code: line('State code', 2).refine((value) => /^[A-Z]{2}$/.test(value), 'State code must be two capital letters'),
      name: line('State', 40),
      refundUrl: webLink('Refund status address').nullable(),
    }),
    'State links',
    60,
  ).superRefine((states, ctx) => unique(states, (s) => s.code, ctx, (i) => [i, 'code'], 'Two states have this code')),
});

const privacyPolicySchema = z.object({
  lastUpdated: line('Last updated', 40),
  sections: list(
    z.object({
      id: slug('Id'),
      title: line('Title', 120),
      paragraphs: list(richParagraph('Paragraph', 3000), 'Paragraphs', 10, 1),
      list: list(richParagraph('List item', 1000), 'List', 20).optional(),
    }),
    'Sections',
    20,
    1,
  ).superRefine((sections, ctx) => unique(sections, (s) => s.id, ctx, (i) => [i, 'id'], 'Two sections have this id')),
});

const bookingSchema = z.object({
  serviceTypes: list(line('Service type', 60), 'Service types', 20, 1).superRefine((types, ctx) =>
    unique(types, (t) => t.toLowerCase(), ctx, (i) => [i], 'This service type is listed twice'),
  ),
});

const chatSchema = z.object({
  suggestedQuestionGroups: list(
    z.object({ title: line('Group title', 60), questions: list(line('Question', 200), 'Questions', 8, 1) }),
    'Suggested question groups',
    6,
  ),
});

/** The content document: every editable text of the site. */
export const siteContentSchema = z.object({
  firm: firmSchema,
  prices: pricesSchema,
  services: servicesSchema,
  about: aboutSchema,
  testimonials: testimonialsSchema,
  faq: faqSchema,
  resources: resourcesSchema,
  privacyPolicy: privacyPolicySchema,
  booking: bookingSchema,
  chat: chatSchema,
});

/** The document as stored and served (rich text sanitised). */
export type SiteContent = z.output<typeof siteContentSchema>;
/** The document as an editor sends it. */
export type SiteContentInput = z.input<typeof siteContentSchema>;
