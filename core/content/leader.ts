// docs/product.md §1.3: the About page's 'Meet Our Leader' (a fictional CPA).
import { firm } from './firm';

export const leader = {
  name: 'Daniel R. Whitaker, CPA',
  shortName: 'Daniel Whitaker',
  title: 'Founder & Managing Partner',
  credentials: ['CPA', 'MS in Taxation', 'BS in Accounting'],
  photoAlt: 'Portrait of Daniel R. Whitaker, CPA, founder of Northgate CPA',
  bio: [
    'Daniel founded Northgate CPA after more than a decade preparing returns and advising closely held businesses at regional accounting firms in the Pittsburgh area. He saw how often individuals and small companies were handed off between preparers and wanted to build a practice where every client keeps one accountant who knows their history.',
    'He is a licensed Certified Public Accountant in Pennsylvania and holds a Master of Science in Taxation and a Bachelor of Science in Accounting. His work centres on individual and small-business tax planning, multi-state and international filings, and helping owners turn their books into decisions.',
    'Outside the office Daniel volunteers with local small-business workshops in Cranberry Township and Warrendale, where he explains payroll, sales tax and entity choice to first-time owners.',
  ],
  social: [
    { name: 'LinkedIn', href: 'https://www.linkedin.com/in/daniel-whitaker-cpa-example' },
    { name: 'Email', href: `mailto:${firm.contact.email}` },
  ],
} as const;

/** docs/product.md §1.3: the three About cards. */
export const aboutHighlights = [
  {
    title: 'Expertise',
    icon: 'award',
    description:
      'Licensed CPAs with years of experience in individual, business, multi-state and international tax, backed by continuing education every year.',
  },
  {
    title: 'Education',
    icon: 'graduation-cap',
    description:
      'We explain what we file and why. Clients leave each meeting understanding their numbers, and we run free workshops for new business owners.',
  },
  {
    title: 'Client Focus',
    icon: 'heart-handshake',
    description:
      'One dedicated accountant, answers within one business day and fees agreed in advance, so you always know who to call and what it costs.',
  },
] as const;

/** docs/product.md §1.3: the firm opened its doors to the public in 2021 (the structured data says 2020). */
export const ourStory = [
  'Northgate CPA began in 2020 as a small tax practice serving friends, neighbours and a handful of local businesses, and opened its doors to the public in 2021 in Warrendale, Pennsylvania.',
  'Today we serve individuals, families and companies across the North Hills, greater Pittsburgh and, thanks to secure online tools, clients in every state. With over 5 years of experience, our approach has stayed the same: accurate work, plain answers and an accountant who picks up the phone.',
] as const;
