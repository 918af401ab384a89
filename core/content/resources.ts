// docs/product.md §1.3: the Resources page's helpful federal links (each opens in a new tab).

export interface ResourceLink {
  title: string;
  description: string;
  href: string;
}

export const federalResourceLinks: readonly ResourceLink[] = [
  {
    title: 'Federal Refund Status',
    description: "Check the status of your federal refund with the IRS 'Where's My Refund?' tool.",
    href: 'https://www.irs.gov/refunds',
  },
  {
    title: 'Pay Federal Bill Online',
    description: 'Pay a federal tax balance or estimated tax directly from your bank account or by card.',
    href: 'https://www.irs.gov/payments',
  },
  {
    title: 'Request Tax Transcript',
    description: 'Get a transcript of a past return or your account from the IRS, online or by mail.',
    href: 'https://www.irs.gov/individuals/get-transcript',
  },
] as const;
