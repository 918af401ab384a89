// docs/product.md §1.3: six fixed client reviews for the home page carousel (fictional clients).

export interface Testimonial {
  id: number;
  author: string;
  /** 1 to 5 */
  rating: number;
  text: string;
  /** Month and year, as shown on the card. */
  date: string;
}

export const testimonials: readonly Testimonial[] = [
  {
    id: 1,
    author: 'Jennifer M.',
    rating: 5,
    text: 'After years of doing our own taxes we finally handed them to Northgate. They found education credits we had missed and explained every line of the return in plain English.',
    date: 'March 2025',
  },
  {
    id: 2,
    author: 'Robert K.',
    rating: 5,
    text: 'I received an IRS notice about a mismatch on my 1099s and panicked. They handled the whole response, the IRS accepted it, and I never had to make a single call myself.',
    date: 'January 2025',
  },
  {
    id: 3,
    author: 'Angela D.',
    rating: 5,
    text: 'They set up my LLC, my payroll and my QuickBooks in the same month I opened my bakery. Having one firm do all of it saved me weeks of paperwork.',
    date: 'November 2024',
  },
  {
    id: 4,
    author: 'Mark and Lisa T.',
    rating: 5,
    text: 'We sold a rental property and were worried about the tax bill. They walked us through the numbers before the closing and the final result was better than we expected.',
    date: 'September 2024',
  },
  {
    id: 5,
    author: 'Priya S.',
    rating: 5,
    text: 'Responsive, organized and never condescending. Monthly bookkeeping arrives on time and the year-end meeting actually helps me plan the next year of my practice.',
    date: 'June 2024',
  },
  {
    id: 6,
    author: 'David W.',
    rating: 5,
    text: 'I work abroad part of the year and my returns were a mess of foreign income and FBAR forms. Northgate sorted out three years of filings calmly and completely.',
    date: 'April 2024',
  },
] as const;
