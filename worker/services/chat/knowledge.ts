// The assistant's knowledge: every fact comes from the published content document (one source for
// the site and the assistant: worker/services/content/published.ts), so a price, a phone number or
// an opening hour the firm publishes changes what the assistant says. What the document does not
// hold (the time slots, the schedule page's lists) is core/content code. The only thing added here
// is retrieval metadata: extra words visitors use for each topic. Built once per published version
// (knowledgeFor), not per question.
import { bookingTimeSlots } from '#core/content/booking';
import type { SiteContent } from '#core/content/schema';
import type { ChatSource } from '#core/schemas/chat';
import { reasonsToBook, scheduleServiceSummary, serviceAnchor, trustLabels } from '#core/content/services';
import { firmAddressLine } from '#core/content/firm-facts';

/** A page of the site an answer may point to (the widget makes these clickable). */
export type SitePath = '/schedule' | '/contact' | '/services' | '/faq' | '/about' | '/resources';

export interface KnowledgeFact {
  id: string;
  /** What the fact is about (a service name or an FAQ question): weighs most in retrieval. */
  title: string;
  /** The answer text, quoted as is. */
  text: string;
  /** Words visitors use for this topic that the text itself may not contain. */
  keywords: string;
  /** The page with more on this topic. */
  link: SitePath;
  /** Relevance multiplier: summaries rank a little below the specific fact they summarise. */
  weight?: number;
  /** The page of the site that shows this fact: an answer that relies on it links it. */
  source?: ChatSource;
}

/** The pages facts come from (docs/product.md §4: answers show their source). */
const pages = {
  faq: { path: '/faq', title: 'FAQ' },
  schedule: { path: '/schedule', title: 'Schedule a consultation' },
  contact: { path: '/contact', title: 'Contact us' },
  about: { path: '/about', title: 'About us' },
  services: { path: '/services', title: 'Services' },
  resources: { path: '/resources', title: 'Resources' },
} satisfies Record<string, ChatSource>;

// Retrieval synonyms per service card title (core/content/services.ts).
const serviceKeywords: Record<string, string> = {
  'Individuals and Families': 'individual personal family 1040 return preparation prepare file taxes',
  'Real Estate Transactions': 'real estate rental property landlord house home sell sale buy 1031 exchange',
  'IRS Notice Resolutions': 'irs notice letter audit penalty respond response owe revenue department',
  'International Tax': 'international foreign abroad overseas fbar fatca expat',
  'Accounting Services': 'bookkeeping books bookkeeper reconciliation monthly accounting',
  Payroll: 'payroll employees employee wages paycheck paychecks direct deposit w-2 941 withholding',
  '1099 Filing': '1099 1099s contractor contractors freelancer freelancers nec misc w-9 file forms',
  Compilation: 'compilation financial statements statement lender bank loan prepare preparation',
  'New Business Formation': 'start starting new business formation form llc corporation s-corp entity register launch open',
  'Financial Planning': 'financial planning forecast budget cash flow projection projections retirement growth',
  'Outsourced CFO Services': 'cfo chief financial officer outsourced part-time fractional',
  'Accounting Software Implementation': 'quickbooks xero software setup set up implementation training migrate',
};

// Retrieval synonyms per FAQ id (core/content/faq.ts).
const faqKeywords: Record<string, string> = {
  'who-we-serve': 'clients who serve nationwide states remote area location',
  'first-meeting': 'start started begin first meeting consultation free quote book',
  'virtual-meetings': 'office visit virtual video online remote zoom come in person',
  'documents-needed': 'documents bring paperwork checklist need forms w-2 1099',
  'irs-notice': 'irs notice letter audit revenue department respond penalty',
  'multi-state': 'state states local earned income tax other moved resident',
  'entity-choice': 'llc s-corp s corporation entity structure self-employment',
  'bookkeeping-software': 'quickbooks xero software setup set up',
  payroll: 'payroll employees wages paycheck run small business',
  'tax-return-fees': 'cost price fee fees charge much expensive pricing individual business return preparation',
  'bookkeeping-fees': 'cost price fee fees charge much monthly bookkeeping pricing',
  'payment-methods': 'pay payment invoice bill card check bank transfer',
};

const hoursText = (firm: SiteContent['firm']) => `Our office hours are ${firm.hoursSummary}.`;

/** Facts about the firm itself (the document's firm, prices and booking; the schedule page's lists). */
function firmFacts({ firm, prices, booking, services }: SiteContent): KnowledgeFact[] {
  return [
    {
      id: 'price-individual-return',
      title: 'Individual tax return price',
      text: `Individual tax returns start ${prices.individualReturn}. The final fee depends on the forms and schedules your return needs, and we quote it before any work begins.`,
      keywords: 'cost price fee fees charge much pricing personal individual 1040 return preparation',
      link: '/schedule',
      source: pages.faq,
    },
    {
      id: 'price-business-return',
      title: 'Business tax return price',
      text: `Business tax returns start ${prices.businessReturn}. The final fee depends on the business and the forms involved, and we quote it before any work begins.`,
      keywords: 'cost price fee fees charge much pricing business corporate company partnership llc return preparation',
      link: '/schedule',
      source: pages.faq,
    },
    {
      id: 'price-bookkeeping',
      title: 'Monthly bookkeeping price',
      text: `Monthly bookkeeping starts ${prices.monthlyBookkeeping}, depending on the number of accounts and transactions.`,
      keywords: 'cost price fee fees charge much pricing monthly bookkeeping books',
      link: '/schedule',
      source: pages.faq,
    },
    {
      id: 'price-other-services',
      title: 'Prices of other services',
      text: `We publish starting prices for individual tax returns (${prices.individualReturn}), business tax returns (${prices.businessReturn}) and monthly bookkeeping (${prices.monthlyBookkeeping}). For other services, such as payroll, 1099 filing, consulting or software setup, we give you a written quote after the ${prices.initialConsultation} initial consultation, before any work begins.`,
      keywords:
        'cost price fee fees charge much pricing quote payroll 1099 filing compilation consulting cfo formation planning quickbooks software setup international real estate notice',
      link: '/schedule',
      source: pages.faq,
    },
    {
      id: 'free-consultation',
      title: 'Free initial consultation',
      text: `The initial consultation is ${prices.initialConsultation}: we learn about your situation, answer your questions and give you a quote before any work begins. You can request one online at /schedule.`,
      keywords: 'free initial first consultation meeting cost charge appointment book',
      link: '/schedule',
      source: pages.schedule,
    },
    {
      id: 'tax-planning',
      title: 'Tax planning consultation',
      text: `In a Tax Planning Consultation a CPA reviews your income, credits, deductions and withholding and looks for legitimate ways to lower your tax bill, such as timing income and expenses or retirement contributions, before the year ends.`,
      keywords: 'tax planning plan lower reduce save saving minimize less owe strategy strategies year deduction deductions',
      link: '/schedule',
      source: pages.schedule,
    },
    {
      id: 'office-hours',
      title: 'Office hours',
      text: `${hoursText(firm)} Outside those hours you can still request an appointment at /schedule or send a message at /contact.`,
      keywords: 'hours open opening close closed when time times weekend saturday sunday today evening',
      link: '/contact',
      source: pages.contact,
    },
    {
      id: 'contact-details',
      title: 'Contact details and address',
      text: `You can call us at ${firm.contact.phone}, e-mail ${firm.contact.email}, send a fax to ${firm.contact.fax}, or visit our office at ${firmAddressLine(firm)}.`,
      keywords: 'contact phone call number email e-mail fax address office location where located directions reach visit',
      link: '/contact',
      source: pages.contact,
    },
    {
      id: 'booking',
      title: 'Booking an appointment',
      text: `You can request an appointment at /schedule: choose the service you need (${booking.serviceTypes.join(', ')}), a weekday and a time (${bookingTimeSlots.join(', ')}). ${firm.confirmationPromise}`,
      keywords: 'book booking schedule appointment appointments meeting meet available availability time slot reserve',
      link: '/schedule',
      source: pages.schedule,
    },
    {
      id: 'why-book',
      title: 'What a consultation offers',
      text: `When you book with us you get: ${reasonsToBook.map((r) => r.replace(/^\w/, (c) => c.toLowerCase())).join(', ')}.`,
      keywords: 'virtual in-person video online meeting why choose',
      link: '/schedule',
      source: pages.schedule,
    },
    {
      id: 'about-firm',
      title: `About ${firm.name}`,
      text: `${firm.name} is a certified public accounting firm in ${firm.contact.address.city}, ${firm.contact.address.region}, with ${firm.yearsOfExperience} years of experience. We are ${trustLabels.join(', ').replace('Nationwide Service', 'serve clients nationwide')}.`,
      keywords: 'about who firm company experience cpa certified licensed insured nationwide',
      link: '/about',
      source: pages.about,
    },
    {
      id: 'services-overview',
      title: 'Services we offer',
      text: `We offer ${services.groups.map((g) => `${g.title} (${g.services.map((s) => s.title).join(', ')})`).join('; ')}.`,
      keywords: 'services offer provide do list what help',
      link: '/services',
      source: pages.services,
    },
    {
      id: 'payments-portal',
      title: 'Paying an invoice and the client portal',
      text: 'You can pay online with the Pay Now link at the top of every page, and existing clients can sign in through the Client Portal link there.',
      keywords: 'pay payment invoice bill portal login sign in client',
      link: '/contact',
    },
  ];
}

// Titles and retrieval synonyms for the Resources page's 'Did You Know' facts
// (core/content/tax-facts.ts), in the same order.
const taxFactTopics: [title: string, keywords: string][] = [
  ['Standard mileage rate', 'mileage rate car vehicle drive driving miles business use'],
  ['Additional standard deduction and senior deduction', 'senior seniors older 65 age additional blind bonus'],
  ['Standard deduction', 'standard deduction single married jointly head household new law big beautiful bill'],
  ['401(k) contribution limit', '401k 401(k) retirement contribution contribute limit catch-up'],
  ['IRA contribution limit', 'ira roth retirement contribution contribute limit'],
  ['Pennsylvania income tax', 'pennsylvania pa state income tax rate local earned'],
  ['Pennsylvania and retirement income', 'pennsylvania pa retirement social security pension ira distributions taxed'],
  ['Gift tax exclusion', 'gift gifts exclusion give money'],
  ['Extension deadline', 'extension extend deadline october april late file due'],
  ['How long refunds take', 'refund refunds how long take when direct deposit weeks days'],
];

/** The Resources page: the 'Did You Know' tax facts and the federal links. */
function resourceFacts({ resources }: SiteContent): KnowledgeFact[] {
  const facts = resources.taxFacts.facts.map<KnowledgeFact>((text, index) => ({
    id: `tax-fact:${index + 1}`,
    title: taxFactTopics[index]?.[0] ?? text,
    text,
    keywords: taxFactTopics[index]?.[1] ?? '',
    link: '/resources',
    source: pages.resources,
  }));
  const links: KnowledgeFact = {
    id: 'federal-links',
    title: 'Refund status, paying the IRS and tax transcripts',
    text: `Our /resources page links to the IRS tools: ${resources.federalLinks.map((l) => `${l.title} (${l.description.replace(/\.$/, '')})`).join('; ')}. It also has a selector that opens your state's refund-status page.`,
    keywords: "where's where my refund status check track irs pay payment bill balance online transcript copy past return state",
    link: '/resources',
    source: pages.resources,
  };
  return [...facts, links];
}

/** Every fact the assistant knows, built from the content document. */
export function knowledgeFacts(content: SiteContent): KnowledgeFact[] {
  const services = content.services.groups.flatMap((group) =>
    group.services.map<KnowledgeFact>((service) => ({
      id: `service:${service.title}`,
      title: service.title,
      text: `${service.title} (part of our ${group.title}): ${service.description}`,
      keywords: serviceKeywords[service.title] ?? '',
      link: '/services',
      source: { path: `/services#${serviceAnchor(group.title)}`, title: `Services: ${group.title}` },
    })),
  );
  const groups = content.services.groups.map<KnowledgeFact>((group) => ({
    id: `group:${group.title}`,
    title: group.title,
    text: `${group.title}: ${group.summary} This covers ${group.services.map((s) => s.title).join(', ')}.`,
    keywords: '',
    link: '/services',
    weight: 0.75,
    source: { path: `/services#${serviceAnchor(group.title)}`, title: `Services: ${group.title}` },
  }));
  const faq = content.faq.items.map<KnowledgeFact>((item) => ({
    id: `faq:${item.id}`,
    title: item.question,
    // "Yes." / "No." answer the FAQ's own wording of the question, not necessarily the visitor's.
    text: item.answer.replace(/^(Yes|No)\.\s+/, ''),
    keywords: faqKeywords[item.id] ?? '',
    link: (item.links?.find((l) => l.href.startsWith('/'))?.href as SitePath | undefined) ?? '/faq',
    source: pages.faq,
  }));
  return [...firmFacts(content), ...services, ...groups, ...faq, ...resourceFacts(content)];
}

/** The knowledge as text for a language model's system message. */
export function knowledgeAsText(content: SiteContent): string {
  const { firm, prices, booking, services, faq, resources } = content;
  const lines = [
    `Firm: ${firm.name}, ${firmAddressLine(firm)}. Phone ${firm.contact.phone}, fax ${firm.contact.fax}, e-mail ${firm.contact.email}.`,
    hoursText(firm),
    `Prices: individual tax returns ${prices.individualReturn}; business tax returns ${prices.businessReturn}; monthly bookkeeping ${prices.monthlyBookkeeping}; the initial consultation is ${prices.initialConsultation}. No other prices exist: for anything else the firm gives a quote after the free consultation.`,
    `Booking: at /schedule, weekdays only, time slots ${bookingTimeSlots.join(', ')}; services: ${booking.serviceTypes.join(', ')}. ${firm.confirmationPromise}`,
    `Schedule page summary: ${scheduleServiceSummary.map((g) => `${g.title}: ${g.items.join(', ')}`).join('; ')}.`,
    ...firmFacts(content)
      .filter((f) => ['about-firm', 'why-book', 'payments-portal', 'tax-planning'].includes(f.id))
      .map((f) => `${f.title}: ${f.text}`),
    'Services (details at /services):',
    ...services.groups.flatMap((g) => g.services.map((s) => `- ${s.title} (${g.title}): ${s.description}`)),
    'Frequently asked questions (more at /faq):',
    ...faq.items.map((item) => `- Q: ${item.question} A: ${item.answer}`),
    `Tax facts for the ${resources.taxFacts.taxYear} tax year (on /resources):`,
    ...resources.taxFacts.facts.map((fact) => `- ${fact}`),
    `The /resources page links to: ${resources.federalLinks.map((l) => `${l.title} (${l.description})`).join(' ')} It also has a state refund-status selector.`,
    'Site pages: /services, /about, /resources (refund status and IRS links), /faq, /contact (message form, map), /schedule (book a consultation).',
  ];
  return lines.join('\n');
}

export interface Knowledge {
  facts: KnowledgeFact[];
  /** knowledgeAsText: the system message's FIRM KNOWLEDGE. */
  text: string;
}

// One per published version: publishedContent hands out the same object for a version it has read.
const knowledgeByContent = new WeakMap<SiteContent, Knowledge>();

/** The assistant's knowledge of this content document, built once per document. */
export function knowledgeFor(content: SiteContent): Knowledge {
  let knowledge = knowledgeByContent.get(content);
  if (!knowledge) {
    knowledge = { facts: knowledgeFacts(content), text: knowledgeAsText(content) };
    knowledgeByContent.set(content, knowledge);
  }
  return knowledge;
}
