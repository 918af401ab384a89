// docs/product.md §1.3: the ten 'Did You Know' facts on the Resources page (2025 tax year figures),
// and, beside them, where each was checked (docs/product.md §1.4: the sources and the yearly
// update). The content document stores only the texts and the year (core/content/schema.ts): the
// firm may rewrite them in the back office; these are the defaults the site ships with.

/** The tax year the facts below state (the content document edits both together). */
export const taxFactsYear = 2025;

/** The facts as the site states them, in the order the card shows them. */
export const taxFacts: readonly string[] = [
  'The IRS standard mileage rate for business use of a car is 70 cents per mile in 2025, up from 67 cents in 2024.',
  'Taxpayers aged 65 or older, or blind, get an additional standard deduction: $2,000 if single or head of household, or $1,600 for each eligible spouse if married, in 2025, rising to $2,050 and $1,650 in 2026. Through 2028, those 65 or older may also deduct up to $6,000 each, reduced above $75,000 of modified adjusted gross income ($150,000 jointly).',
  'The 2025 standard deduction is $15,750 for single filers, $31,500 for married couples filing jointly and $23,625 for heads of household, as raised by the One Big Beautiful Bill Act signed on July 4, 2025.',
  'You can contribute up to $23,500 to a 401(k) in 2025, plus a $7,500 catch-up contribution if you are 50 or older ($11,250 if you are 60 to 63).',
  'The 2025 IRA contribution limit is $7,000, or $8,000 if you are 50 or older.',
  'Pennsylvania taxes personal income at a flat 3.07%, and most Pennsylvania municipalities and school districts levy a separate local earned income tax.',
  'Pennsylvania does not tax Social Security benefits, and it generally does not tax pension, 401(k) and IRA distributions received after you retire (for an IRA, after age 59½).',
  'The annual gift tax exclusion is $19,000 per recipient in 2025: you can give up to that amount to each person without filing a gift tax return, and you and your spouse can each give that amount to the same person.',
  'Filing an extension gives you until October 15 to file your return, but not to pay: tax owed is still due by the April deadline.',
  'The IRS issues most refunds for e-filed returns with direct deposit in less than 21 days.',
] as const;

/** A publication of the agency that sets a figure. */
export interface TaxFactSource {
  /** Its name as the agency titles it ("Rev. Proc. 2024-40", "Publication 501"). */
  publication: string;
  /** Its address: https on irs.gov or a pa.gov site (tests/content/tax-facts.web.test.ts). */
  url: string;
}

/** How one default fact was checked: the figures it states, the publications that set them, and when. */
export interface TaxFactCheck {
  /** The figures the fact states, each found in its text as written: change one and check it again. */
  figures: readonly string[];
  sources: readonly TaxFactSource[];
  /** The day the figures were compared with the sources, YYYY-MM-DD. */
  checkedOn: string;
}

/**
 * One check per fact of taxFacts, in the same order. Kept apart from the texts so that only the
 * texts reach the worker and the pages (default-content.ts imports taxFacts alone; the bundler drops
 * this list): they are read by the tests and by whoever updates the facts.
 */
export const taxFactChecks: readonly TaxFactCheck[] = [
  {
    figures: ['70 cents', '67 cents'],
    sources: [
      { publication: 'IRS Notice 2025-5 (standard mileage rates for 2025)', url: 'https://www.irs.gov/pub/irs-drop/n-25-05.pdf' },
      { publication: 'IRS: Standard mileage rates', url: 'https://www.irs.gov/tax-professionals/standard-mileage-rates' },
    ],
    checkedOn: '2026-12-07',
  },
  {
    // SPEC.md names $2,050 / $1,650 (the 2026 amounts); the fact states them as 2026's, beside 2025's own.
    figures: ['$2,000', '$1,600', '$2,050', '$1,650', '$6,000', '$75,000', '$150,000'],
    sources: [
      { publication: 'Rev. Proc. 2024-40 (2025 inflation adjustments): additional standard deduction for the aged or blind', url: 'https://www.irs.gov/pub/irs-drop/rp-24-40.pdf' },
      { publication: 'Rev. Proc. 2025-32 (2026 inflation adjustments): additional standard deduction for the aged or blind', url: 'https://www.irs.gov/pub/irs-drop/rp-25-32.pdf' },
      { publication: 'IRS: One, Big, Beautiful Bill Act: tax deductions for working Americans and seniors', url: 'https://www.irs.gov/newsroom/one-big-beautiful-bill-act-tax-deductions-for-working-americans-and-seniors' },
    ],
    checkedOn: '2026-12-07',
  },
  {
    figures: ['$15,750', '$31,500', '$23,625', 'July 4, 2025'],
    sources: [
      { publication: 'IRS: One, Big, Beautiful Bill Act: tax deductions for working Americans and seniors', url: 'https://www.irs.gov/newsroom/one-big-beautiful-bill-act-tax-deductions-for-working-americans-and-seniors' },
      { publication: 'IRS Publication 501 (2025), Dependents, Standard Deduction, and Filing Information', url: 'https://www.irs.gov/publications/p501' },
    ],
    checkedOn: '2026-12-07',
  },
  {
    figures: ['$23,500', '$7,500', '$11,250'],
    sources: [
      { publication: 'IRS Notice 2024-80 (2025 retirement plan limitations)', url: 'https://www.irs.gov/pub/irs-drop/n-24-80.pdf' },
      { publication: 'IRS: Retirement topics - 401(k) and profit-sharing plan contribution limits', url: 'https://www.irs.gov/retirement-plans/plan-participant-employee/retirement-topics-401k-and-profit-sharing-plan-contribution-limits' },
    ],
    checkedOn: '2026-12-07',
  },
  {
    figures: ['$7,000', '$8,000'],
    sources: [
      { publication: 'IRS Notice 2024-80 (2025 retirement plan limitations)', url: 'https://www.irs.gov/pub/irs-drop/n-24-80.pdf' },
      { publication: 'IRS: Retirement topics - IRA contribution limits', url: 'https://www.irs.gov/retirement-plans/plan-participant-employee/retirement-topics-ira-contribution-limits' },
    ],
    checkedOn: '2026-12-07',
  },
  {
    figures: ['3.07%'],
    sources: [
      { publication: 'Pennsylvania Department of Revenue: Personal Income Tax', url: 'https://www.revenue.pa.gov/TaxTypes/PIT/Pages/default.aspx' },
      { publication: 'Pennsylvania DCED: Local income tax information', url: 'https://dced.pa.gov/local-government/local-income-tax-information/' },
    ],
    checkedOn: '2026-12-07',
  },
  {
    figures: ['59½'],
    sources: [
      { publication: 'Pennsylvania Department of Revenue: PA Personal Income Tax Guide, Gross Compensation (retirement income)', url: 'https://www.revenue.pa.gov/FormsandPublications/PAPersonalIncomeTaxGuide/Pages/Gross-Compensation.aspx' },
    ],
    checkedOn: '2026-12-07',
  },
  {
    figures: ['$19,000'],
    sources: [
      { publication: 'Rev. Proc. 2024-40 (2025 inflation adjustments): annual exclusion for gifts', url: 'https://www.irs.gov/pub/irs-drop/rp-24-40.pdf' },
      { publication: 'IRS: Frequently asked questions on gift taxes', url: 'https://www.irs.gov/businesses/small-businesses-self-employed/frequently-asked-questions-on-gift-taxes' },
    ],
    checkedOn: '2026-12-07',
  },
  {
    figures: ['October 15'],
    sources: [
      { publication: 'IRS: Get an extension to file your tax return', url: 'https://www.irs.gov/filing/get-an-extension-to-file-your-tax-return' },
      { publication: 'IRS: About Form 4868', url: 'https://www.irs.gov/forms-pubs/about-form-4868' },
    ],
    checkedOn: '2026-12-07',
  },
  {
    figures: ['21 days'],
    sources: [
      { publication: 'IRS: Refunds', url: 'https://www.irs.gov/refunds' },
      { publication: 'IRS Tax Topic 152, Refund information', url: 'https://www.irs.gov/taxtopics/tc152' },
    ],
    checkedOn: '2026-12-07',
  },
];
