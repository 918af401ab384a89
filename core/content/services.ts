// docs/product.md §1.3: the firm's services. The Services page renders the three groups with their
// four cards; the home page shows one card per group; the chat assistant quotes the descriptions.
// Pure data (no React): `icon` names a lucide icon the pages map to a component.

export interface ServiceCard {
  title: string;
  description: string;
  icon: string;
}

export interface ServiceGroup {
  title: string;
  /** docs/product.md §1.3: anchor = the lowercased title with hyphens instead of spaces (#tax-services). */
  anchor: string;
  summary: string;
  icon: string;
  services: readonly ServiceCard[];
}

/**
 * The anchor rule of docs/product.md §1.3, exported so links to a section are built the same way
 * everywhere.
 */
export const serviceAnchor = (title: string) => title.toLowerCase().replace(/\s+/g, '-');

export const serviceGroups: readonly ServiceGroup[] = [
  {
    title: 'Tax Services',
    anchor: serviceAnchor('Tax Services'),
    icon: 'file-text',
    summary:
      'Year-round tax preparation and planning for individuals, families and business owners, with federal, Pennsylvania and local returns handled under one roof.',
    services: [
      {
        title: 'Individuals and Families',
        icon: 'users',
        description:
          'Federal, Pennsylvania and local earned income tax returns prepared and e-filed by a CPA, with a review of credits, deductions and withholding so next April holds no surprises.',
      },
      {
        title: 'Real Estate Transactions',
        icon: 'home',
        description:
          'Rental property reporting, depreciation schedules, 1031 like-kind exchanges and the tax on selling a home or investment property, planned before the closing rather than after.',
      },
      {
        title: 'IRS Notice Resolutions',
        icon: 'shield-check',
        description:
          'We read the notice, reconcile it against your return and respond to the IRS or the Pennsylvania Department of Revenue on your behalf, including payment plans and penalty relief requests.',
      },
      {
        title: 'International Tax',
        icon: 'globe',
        description:
          'Foreign income, foreign tax credits, FBAR and FATCA reporting for U.S. citizens abroad, green-card holders and families with accounts or property overseas.',
      },
    ],
  },
  {
    title: 'Accounting and Payroll',
    anchor: serviceAnchor('Accounting and Payroll'),
    icon: 'calculator',
    summary:
      'Clean books, on-time payroll and year-end filings, so you always know where your business stands and tax season is a formality.',
    services: [
      {
        title: 'Accounting Services',
        icon: 'book-open',
        description:
          'Monthly bookkeeping, bank and credit card reconciliations and financial statements you can read, delivered on a fixed schedule with a CPA reviewing every close.',
      },
      {
        title: 'Payroll',
        icon: 'wallet',
        description:
          'Payroll runs, direct deposit, federal and Pennsylvania withholding, local earned income and LST remittances, quarterly 941 and year-end W-2 filings.',
      },
      {
        title: '1099 Filing',
        icon: 'file-check',
        description:
          'We collect W-9s, track payments to contractors and file 1099-NEC and 1099-MISC forms with the IRS and the state before the January 31 deadline.',
      },
      {
        title: 'Compilation',
        icon: 'clipboard-list',
        description:
          'Compiled financial statements prepared under AICPA standards for lenders, landlords and investors who ask for statements prepared by a CPA.',
      },
    ],
  },
  {
    title: 'Consulting',
    anchor: serviceAnchor('Consulting'),
    icon: 'lightbulb',
    summary:
      'Advice for the decisions that shape a business: how to set it up, how to plan for growth and which systems to run it on.',
    services: [
      {
        title: 'New Business Formation',
        icon: 'building',
        description:
          'Choosing between a sole proprietorship, LLC, S corporation or C corporation, registering with Pennsylvania and the IRS, and setting up books and payroll from day one.',
      },
      {
        title: 'Financial Planning',
        icon: 'trending-up',
        description:
          'Cash-flow forecasts, budgets and tax projections that show the effect of a hire, a purchase or a retirement contribution before you commit to it.',
      },
      {
        title: 'Outsourced CFO Services',
        icon: 'briefcase',
        description:
          'Part-time CFO support for growing companies: monthly reporting packages, KPI dashboards, lender relationships and a seat at the table for strategic decisions.',
      },
      {
        title: 'Accounting Software Implementation',
        icon: 'monitor',
        description:
          'Selecting, setting up and migrating to QuickBooks Online or Xero, connecting bank feeds and payroll, and training your team to keep the books current.',
      },
    ],
  },
] as const;

/** Schedule page: the services summary in two groups (docs/product.md §3). */
export const scheduleServiceSummary = [
  {
    title: 'Tax Services',
    items: ['Individual tax returns', 'Business tax returns', 'Tax planning and projections', 'IRS and state notice support'],
  },
  {
    title: 'Business Services',
    items: ['Bookkeeping and accounting', 'Payroll and 1099 filing', 'Business formation', 'QuickBooks setup and training'],
  },
] as const;

/** Schedule page: the reasons to book (docs/product.md §3). */
export const reasonsToBook = [
  'Free initial consultation',
  'Expert CPA guidance',
  'Personalized service',
  'Convenient appointment times',
  'Virtual and in-person meetings',
] as const;

/** Home page 'Why Choose' points (docs/product.md §1.3). */
export const whyChoose = [
  {
    title: 'Expertise',
    icon: 'award',
    description:
      'Certified public accountants who prepare returns and keep books for Pennsylvania individuals and businesses every day, and keep current with every change in the tax code.',
  },
  {
    title: 'Personalized Service',
    icon: 'handshake',
    description:
      'You work with the same CPA all year, who knows your history and answers your questions directly, not a call center or a different preparer every spring.',
  },
  {
    title: 'Modern Approach',
    icon: 'cloud',
    description:
      'Secure client portal, e-signatures, online payments and virtual meetings, so you can send documents and get answers without leaving home or the office.',
  },
] as const;

/** Home page hero trust labels (docs/product.md §1.3). */
export const trustLabels = ['Certified Public Accountant', 'Licensed & Insured', 'Nationwide Service'] as const;
