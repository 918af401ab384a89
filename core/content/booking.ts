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

/**
 * How far ahead a visitor may book, in days from the firm's today (docs/product.md §3): the
 * calendar offers no later day and the API refuses one. A year: long enough for any tax-season
 * plan, short enough that nobody holds a slot for a date the firm has not planned.
 */
export const BOOKING_HORIZON_DAYS = 365;

/** What the firm sees (notification, admin panel, CSV) for a request booked without a time. */
export const NO_PREFERRED_TIME = 'No preferred time';

export type BookingServiceType = (typeof bookingServiceTypes)[number];
export type BookingTimeSlot = (typeof bookingTimeSlots)[number];
