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

/**
 * The booking rules the admin sets on /admin/availability (docs/product.md §6.4), and what holds
 * until they are saved: no minimum notice (a visitor may pick any weekday from today on; a slot
 * already started is never offered), the 365-day horizon, and federal holidays open.
 */
export const BOOKING_RULE_DEFAULTS = {
  minimumNoticeHours: 0,
  horizonDays: BOOKING_HORIZON_DAYS,
  closeFederalHolidays: false,
  reopenedHolidays: [] as string[],
};

/** The ranges the admin may set: up to 30 days' notice, a horizon of 1 day to 2 years. */
export const BOOKING_RULE_LIMITS = { minimumNoticeHours: { min: 0, max: 720 }, horizonDays: { min: 1, max: 730 } } as const;

export type BookingRules = typeof BOOKING_RULE_DEFAULTS;

/** What the firm sees (notification, admin panel, CSV) for a request booked without a time. */
export const NO_PREFERRED_TIME = 'No preferred time';

export type BookingServiceType = (typeof bookingServiceTypes)[number];
export type BookingTimeSlot = (typeof bookingTimeSlots)[number];
