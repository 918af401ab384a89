// docs/product.md §1.3: the FAQ page's 12 questions, 3 per category, with the prices stated there.
// Pure data: the FAQ page renders it (and its FAQPage JSON-LD); the chat assistant quotes it.
import { firm, prices } from './firm';

export const faqCategories = ['General Services', 'Tax Services', 'Business Services', 'Pricing & Billing'] as const;
export type FaqCategory = (typeof faqCategories)[number];

/** The filter buttons, 'All Questions' first (docs/product.md §1.3). */
export const faqFilters = ['All Questions', ...faqCategories] as const;
export type FaqFilter = (typeof faqFilters)[number];

export interface FaqLink {
  label: string;
  /** An internal route ('/contact') or a tel: link. */
  href: string;
}

export interface FaqItem {
  id: string;
  category: FaqCategory;
  question: string;
  answer: string;
  links?: readonly FaqLink[];
}

const contactLink: FaqLink = { label: 'Contact us', href: '/contact' };
const scheduleLink: FaqLink = { label: 'Schedule a consultation', href: '/schedule' };
const phoneLink: FaqLink = { label: `Call ${firm.contact.phone}`, href: firm.contact.phoneHref };

export const faqItems: readonly FaqItem[] = [
  // General Services
  {
    id: 'who-we-serve',
    category: 'General Services',
    question: 'Who do you work with?',
    answer:
      'We work with individuals and families, self-employed professionals, landlords and small to mid-sized businesses. Most of our clients live or operate in Warrendale, Cranberry Township and the greater Pittsburgh area, but because we work securely online we serve clients in every state.',
    links: [{ label: 'See all our services', href: '/services' }],
  },
  {
    id: 'first-meeting',
    category: 'General Services',
    question: 'How do I get started, and what happens at the first meeting?',
    answer: `Book a time online or give us a call. The initial consultation is ${prices.initialConsultation}: we learn about your situation, review last year's return or your books, answer your questions and give you a written quote before any work begins.`,
    links: [scheduleLink, phoneLink],
  },
  {
    id: 'virtual-meetings',
    category: 'General Services',
    question: 'Do I need to come to your office?',
    answer: `No. You are welcome at our Warrendale office (${firm.hoursSummary}), but you can also meet us by video call, upload documents through our secure client portal and sign your return electronically.`,
    links: [contactLink],
  },
  // Tax Services
  {
    id: 'documents-needed',
    category: 'Tax Services',
    question: 'What documents should I bring for my tax return?',
    answer:
      "Bring last year's federal and Pennsylvania returns, all W-2, 1099 and 1098 forms, records of estimated tax payments, childcare and education expenses, charitable receipts and, if you own a business or rental, a summary of income and expenses. We send every client a personalised checklist after the first meeting.",
    links: [{ label: 'Tax resources and refund status links', href: '/resources' }],
  },
  {
    id: 'irs-notice',
    category: 'Tax Services',
    question: 'I received a letter from the IRS or the Pennsylvania Department of Revenue. What should I do?',
    answer:
      'Do not ignore it and do not pay before it is checked: many notices are wrong or can be resolved with documentation. Send us a copy as soon as possible, because most notices have a 30- or 60-day response window. We compare it to your return, explain what it means and respond on your behalf.',
    links: [contactLink, phoneLink],
  },
  {
    id: 'multi-state',
    category: 'Tax Services',
    question: 'Can you prepare returns for other states and for local earned income tax?',
    answer:
      'Yes. We prepare federal returns, Pennsylvania returns, local earned income tax returns and returns for every other state that has an income tax, including part-year and non-resident returns when you moved or worked across state lines during the year.',
    links: [{ label: 'Tax Services', href: '/services' }],
  },
  // Business Services
  {
    id: 'entity-choice',
    category: 'Business Services',
    question: 'Should my business be an LLC or an S corporation?',
    answer:
      'It depends on your profit, how you pay yourself and your plans for the business. An S corporation election can reduce self-employment tax once profits are high enough to justify a reasonable salary and payroll costs. We run the numbers for your situation and handle the registration and IRS election.',
    links: [scheduleLink],
  },
  {
    id: 'bookkeeping-software',
    category: 'Business Services',
    question: 'Which accounting software do you support?',
    answer:
      'We work with QuickBooks Online, QuickBooks Desktop and Xero. We can set up a new file, clean up an existing one, connect your bank feeds and payroll, and train you or your staff to keep it current between our monthly reviews.',
    links: [{ label: 'Accounting and Payroll services', href: '/services' }],
  },
  {
    id: 'payroll',
    category: 'Business Services',
    question: 'Can you run payroll for my small business?',
    answer:
      'Yes. We run payroll weekly, bi-weekly or monthly with direct deposit, calculate and remit federal, Pennsylvania and local withholding, file quarterly and annual payroll returns and issue W-2s and 1099s at year end.',
    links: [contactLink],
  },
  // Pricing & Billing
  {
    id: 'tax-return-fees',
    category: 'Pricing & Billing',
    question: 'How much does tax preparation cost?',
    answer: `Individual returns start ${prices.individualReturn} and business returns start ${prices.businessReturn}. The final fee depends on the forms and schedules involved, and we always quote it before we begin, so there are no surprises on the invoice.`,
    links: [contactLink],
  },
  {
    id: 'bookkeeping-fees',
    category: 'Pricing & Billing',
    question: 'What does monthly bookkeeping cost?',
    answer: `Monthly bookkeeping starts ${prices.monthlyBookkeeping}, depending on the number of accounts and transactions. The initial consultation is ${prices.initialConsultation}, and we agree a fixed monthly fee with you in writing.`,
    links: [scheduleLink],
  },
  {
    id: 'payment-methods',
    category: 'Pricing & Billing',
    question: 'How can I pay my invoice?',
    answer:
      'You can pay online by card or bank transfer using the Pay Now link at the top of every page, by check at our office, or through the client portal. Monthly clients can set up automatic payments.',
    links: [phoneLink],
  },
] as const;
