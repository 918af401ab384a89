// docs/product.md §3: the 10 booking service types and the 7 time slots. The worker's appointment
// schema builds its zod enums from these lists, so the dropdowns and the API can never disagree.

export const bookingServiceTypes = [
  'Business Accounting',
  'Individual Tax Return',
  'Business Tax Return',
  'Tax Planning Consultation',
  'Bookkeeping Services',
  'Payroll Services',
  'IRS Audit Support',
  'Business Formation',
  'Financial Statement Preparation',
  'QuickBooks Setup/Training',
] as const;

export const bookingTimeSlots = ['9:00 AM', '10:00 AM', '11:00 AM', '1:00 PM', '2:00 PM', '3:00 PM', '4:00 PM'] as const;

export type BookingServiceType = (typeof bookingServiceTypes)[number];
export type BookingTimeSlot = (typeof bookingTimeSlots)[number];
