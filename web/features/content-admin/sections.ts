import type { ContentDocument } from './content-api';
import type { ContentSectionSlug } from './section-slugs';

// What each content screen edits (docs/product.md §6.6, the content screens): the top-level parts of
// the document it owns and its fields, described once and drawn by content-fields.tsx. Labels follow
// the schema's (core/content/schema.ts), so its messages read naturally under them. Rich text only
// where the page shows formatting (the schema's rich paragraphs); plain inputs everywhere else.

export type Field =
  | { kind: 'text' | 'textarea' | 'rich' | 'number'; key: string | number; label: string; hint?: string; nullable?: boolean }
  | { kind: 'group'; key: string; label?: string; fields: Field[] }
  | {
      kind: 'list';
      key: string;
      label: string;
      /** One entry's name ("Question"): its legend is "Question 3", its buttons "Add question". */
      itemLabel: string;
      item: Field;
      newItem: (items: unknown[]) => unknown;
      /** The key may be absent: removing the last entry removes the list. */
      optional?: boolean;
      /** The entry's text shown in its collapsed heading. */
      summary?: (item: unknown) => string;
    };

export interface ContentSection {
  slug: ContentSectionSlug;
  title: string;
  intro: string;
  keys: (keyof ContentDocument)[];
  fields: Field[];
}

const text = (key: string | number, label: string, hint?: string): Field => ({ kind: 'text', key, label, hint });
const textarea = (key: string | number, label: string, hint?: string): Field => ({ kind: 'textarea', key, label, hint });
const group = (key: string, label: string | undefined, fields: Field[]): Field => ({ kind: 'group', key, label, fields });
const field = (item: unknown, key: string) => (item && typeof item === 'object' ? String((item as Record<string, unknown>)[key] ?? '') : '');

const ICON_HINT = 'A lucide icon name, such as calculator or file-text';

const card = (itemLabel: string, key: string, label: string): Field => ({
  kind: 'list',
  key,
  label,
  itemLabel,
  item: group('', undefined, [text('title', 'Title'), text('icon', 'Icon', ICON_HINT), textarea('description', 'Description')]),
  newItem: () => ({ title: '', icon: 'circle', description: '' }),
  summary: (item) => field(item, 'title'),
});

const strings = (key: string, label: string, itemLabel: string, kind: 'text' | 'textarea' | 'rich' = 'text', optional = false): Field => ({
  kind: 'list',
  key,
  label,
  itemLabel,
  item: { kind, key: '', label: itemLabel },
  newItem: () => '',
  optional,
});

/** A list of records: each entry the group of `fields`, its collapsed heading the text of its `summaryKey`. */
const records = (key: string, label: string, itemLabel: string, fields: Field[], newItem: () => unknown, summaryKey: string): Field => ({
  kind: 'list',
  key,
  label,
  itemLabel,
  item: group('', undefined, fields),
  newItem,
  summary: (item) => field(item, summaryKey),
});

export const CONTENT_SECTIONS: ContentSection[] = [
  {
    slug: 'firm',
    title: 'Firm details',
    intro: 'Name, contact details, address, office hours and the firm’s links.',
    keys: ['firm'],
    fields: [
      group('firm', undefined, [
        text('name', 'Firm name'),
        text('legalName', 'Legal name'),
        text('tagline', 'Tagline'),
        { kind: 'number', key: 'foundingYear', label: 'Founding year' },
        { kind: 'number', key: 'openedToPublicYear', label: 'Year opened to the public' },
        text('yearsOfExperience', 'Years of experience', 'As the pages show it, such as 25+'),
        group('contact', 'Contact', [
          text('phone', 'Phone'),
          text('phoneHref', 'Phone link', 'tel: and the number, such as tel:+17245550142'),
          text('fax', 'Fax'),
          text('email', 'Email'),
          group('address', 'Address', [text('street', 'Street'), text('city', 'City'), text('region', 'State'), text('postalCode', 'ZIP code'), text('country', 'Country', 'Two letters, such as US')]),
        ]),
        records('hours', 'Office hours', 'Hours', [text('days', 'Days'), text('time', 'Hours')], () => ({ days: '', time: '' }), 'days'),
        text('hoursSummary', 'Hours summary'),
        text('confirmationPromise', 'Confirmation promise'),
        group('links', 'Links', [
          text('payNow', 'Pay Now address'),
          text('clientPortal', 'Client Portal address'),
          text('googleReviews', 'Google reviews address'),
          text('mapEmbed', 'Map embed address'),
          text('mapLink', 'Map link'),
        ]),
        records('social', 'Social links', 'Social link', [
          text('name', 'Network'),
          text('kind', 'Kind of network'),
          text('href', 'Profile address'),
        ], () => ({ name: '', kind: '', href: 'https://' }), 'name'),
      ]),
    ],
  },
  {
    slug: 'services',
    title: 'Services and prices',
    intro: 'The service groups and their cards on the Services page, and the prices.',
    keys: ['services', 'prices'],
    fields: [
      group('services', undefined, [
        records('groups', 'Service groups', 'Group', [
          text('title', 'Group title'),
          text('icon', 'Icon', ICON_HINT),
          textarea('summary', 'Summary'),
          card('Service', 'services', 'Services'),
        ], () => ({ title: '', icon: 'briefcase', summary: '', services: [{ title: '', icon: 'circle', description: '' }] }), 'title'),
      ]),
      group('prices', 'Prices', [
        text('individualReturn', 'Individual return price'),
        text('businessReturn', 'Business return price'),
        text('monthlyBookkeeping', 'Monthly bookkeeping price'),
        text('initialConsultation', 'Initial consultation price'),
      ]),
    ],
  },
  {
    slug: 'about',
    title: 'About',
    intro: 'The firm’s story, the highlight cards and the leader’s profile on the About page.',
    keys: ['about'],
    fields: [
      group('about', undefined, [
        strings('story', 'Story', 'Paragraph', 'rich'),
        card('Highlight', 'highlights', 'Highlights'),
        group('leader', 'Leader', [
          text('name', 'Name'),
          text('shortName', 'Short name'),
          text('title', 'Title'),
          strings('credentials', 'Credentials', 'Credential'),
          text('photoAlt', 'Photo description'),
          strings('bio', 'Biography', 'Paragraph', 'rich'),
          records('social', 'Links', 'Link', [text('name', 'Label'), text('href', 'Link')], () => ({ name: '', href: 'https://' }), 'name'),
        ]),
      ]),
    ],
  },
  {
    slug: 'testimonials',
    title: 'Testimonials',
    intro: 'The clients’ reviews shown on the home page.',
    keys: ['testimonials'],
    fields: [
      {
        kind: 'list',
        key: 'testimonials',
        label: 'Testimonials',
        itemLabel: 'Testimonial',
        item: group('', undefined, [
          { kind: 'number', key: 'id', label: 'Id', hint: 'A number no other testimonial uses' },
          text('author', 'Author'),
          { kind: 'number', key: 'rating', label: 'Rating', hint: '1 to 5 stars' },
          textarea('text', 'Review'),
          text('date', 'Date', 'As the page shows it, such as March 2024'),
        ]),
        newItem: (items) => ({ id: Math.max(0, ...items.map((t) => Number(field(t, 'id')) || 0)) + 1, author: '', rating: 5, text: '', date: '' }),
        summary: (item) => field(item, 'author'),
      },
    ],
  },
  {
    slug: 'faq',
    title: 'FAQ',
    intro: 'The categories and the questions and answers of the FAQ page.',
    keys: ['faq'],
    fields: [
      group('faq', undefined, [
        strings('categories', 'Categories', 'Category'),
        records('items', 'Questions', 'Question', [
          text('id', 'Id', 'Lowercase letters, digits and hyphens; the answer’s link anchor'),
          text('category', 'Category', 'One of the categories above, as written there'),
          text('question', 'Question'),
          textarea('answer', 'Answer'),
          {
            kind: 'list',
            key: 'links',
            label: 'Links',
            itemLabel: 'Link',
            item: group('', undefined, [text('label', 'Link text'), text('href', 'Link', 'A page of this site (/contact), https://, mailto: or tel:')]),
            newItem: () => ({ label: '', href: '/contact' }),
            optional: true,
            summary: (item) => field(item, 'label'),
          },
        ], () => ({ id: '', category: '', question: '', answer: '' }), 'question'),
      ]),
    ],
  },
  {
    slug: 'resources',
    title: 'Resources',
    intro: 'The tax facts and the federal and state links of the Resources page.',
    keys: ['resources'],
    fields: [
      group('resources', undefined, [
        group('taxFacts', 'Tax facts', [{ kind: 'number', key: 'taxYear', label: 'Tax year' }, strings('facts', 'Facts', 'Fact', 'textarea')]),
        records('federalLinks', 'Federal links', 'Federal link', [
          text('title', 'Title'),
          textarea('description', 'Description'),
          text('href', 'Link'),
        ], () => ({ title: '', description: '', href: 'https://' }), 'title'),
        records('stateLinks', 'State links', 'State', [
          text('code', 'State code'),
          text('name', 'State'),
          { kind: 'text', key: 'refundUrl', label: 'Refund status address', hint: 'Leave empty when the state has none', nullable: true },
        ], () => ({ code: '', name: '', refundUrl: null }), 'name'),
      ]),
    ],
  },
  {
    slug: 'privacy',
    title: 'Privacy policy',
    intro: 'The sections of the privacy policy page.',
    keys: ['privacyPolicy'],
    fields: [
      group('privacyPolicy', undefined, [
        text('lastUpdated', 'Last updated', 'As the page shows it, such as January 1, 2026'),
        records('sections', 'Sections', 'Section', [
          text('id', 'Id', 'Lowercase letters, digits and hyphens; the section’s link anchor'),
          text('title', 'Title'),
          strings('paragraphs', 'Paragraphs', 'Paragraph', 'rich'),
          strings('list', 'List', 'List item', 'rich', true),
        ], () => ({ id: '', title: '', paragraphs: [''] }), 'title'),
      ]),
    ],
  },
  {
    slug: 'booking',
    title: 'Booking',
    intro: 'The service types a visitor picks from when booking an appointment.',
    keys: ['booking'],
    fields: [group('booking', undefined, [strings('serviceTypes', 'Service types', 'Service type')])],
  },
  {
    slug: 'chat',
    title: 'Chat',
    intro: 'The suggested questions the chat assistant offers, in groups.',
    keys: ['chat'],
    fields: [
      group('chat', undefined, [
        records('suggestedQuestionGroups', 'Suggested question groups', 'Group', [
          text('title', 'Group title'),
          strings('questions', 'Questions', 'Question'),
        ], () => ({ title: '', questions: [''] }), 'title'),
      ]),
    ],
  },
];

export const sectionBySlug = (slug: string) => CONTENT_SECTIONS.find((s) => s.slug === slug);
