import type { BookingServiceType } from './booking';

// Texts of the Schedule page (docs/product.md §3): the reasons to book and the services summary.

export const reasonsToBook = [
  { title: 'Free initial consultation', text: 'Your first meeting costs nothing and commits you to nothing.' },
  { title: 'Expert CPA guidance', text: 'Advice from a certified public accountant, not a call centre.' },
  { title: 'Personalized service', text: 'We start from your situation and your goals.' },
  { title: 'Convenient times', text: 'Weekday appointments from 9:00 AM to 4:00 PM.' },
  { title: 'Virtual and in-person meetings', text: 'Meet us at our Warrendale office or online.' },
] as const;

/** The services summary beside the booking form, in two groups. */
export const scheduleServiceGroups: { title: string; services: BookingServiceType[] }[] = [
  {
    title: 'Tax Services',
    services: ['Individual Tax Return', 'Business Tax Return', 'Tax Planning Consultation', 'IRS Audit Support'],
  },
  {
    title: 'Business Services',
    services: ['Business Accounting', 'Bookkeeping Services', 'Payroll Services', 'Business Formation', 'Financial Statement Preparation', 'QuickBooks Setup/Training'],
  },
];
