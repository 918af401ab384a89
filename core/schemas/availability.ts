import * as z from 'zod/v4';
import { BOOKING_RULE_LIMITS, bookingTimeSlots } from '#core/content/booking';
import { federalHolidayOn } from '#core/federal-holidays';
import { isCalendarDate } from '#core/firm-time';
import { tooLongMessage } from './fields';

// The admin's availability inputs (docs/product.md §6.4): which of the seven slot labels each
// weekday offers, and the days the firm is closed. Weekends are always closed, so only Monday to
// Friday can be set. Pure zod: the admin screen builds its payloads from the same labels.

export const AVAILABILITY_LIMITS = { reason: 200 } as const;

export const AVAILABILITY_INPUT_MESSAGES = {
  slot: 'Each slot must be one of the seven booking times',
  duplicate: 'A slot may be listed only once per day',
  weekday: 'Slots are required for every weekday, Monday to Friday',
  date: 'Please enter a valid date (YYYY-MM-DD)',
  reason: tooLongMessage('Reason', AVAILABILITY_LIMITS.reason),
} as const;

const daySlots = z
  .array(z.enum(bookingTimeSlots, { error: AVAILABILITY_INPUT_MESSAGES.slot }), { error: AVAILABILITY_INPUT_MESSAGES.weekday })
  .max(bookingTimeSlots.length, AVAILABILITY_INPUT_MESSAGES.duplicate)
  .refine((slots) => new Set(slots).size === slots.length, AVAILABILITY_INPUT_MESSAGES.duplicate);

/** PUT /api/admin/availability: every weekday's slots (an empty list closes that weekday). */
export const weekdaySlotsSchema = z.object({
  weekdays: z.strictObject(
    {
      monday: daySlots,
      tuesday: daySlots,
      wednesday: daySlots,
      thursday: daySlots,
      friday: daySlots,
    },
    { error: AVAILABILITY_INPUT_MESSAGES.weekday },
  ),
});

const calendarDate = z
  .string({ error: AVAILABILITY_INPUT_MESSAGES.date })
  .max(10, AVAILABILITY_INPUT_MESSAGES.date)
  .refine(isCalendarDate, AVAILABILITY_INPUT_MESSAGES.date);

/** POST /api/admin/blocked-dates: a day to close, with an optional reason shown to visitors. */
export const blockedDateSchema = z.object({
  date: calendarDate,
  reason: z
    .string({ error: AVAILABILITY_INPUT_MESSAGES.reason })
    .trim()
    .max(AVAILABILITY_LIMITS.reason, AVAILABILITY_INPUT_MESSAGES.reason)
    .nullish()
    .transform((reason) => reason || null),
});

/** DELETE /api/admin/blocked-dates/:date. */
export const blockedDateParamSchema = z.object({ date: calendarDate });

const { minimumNoticeHours: noticeRange, horizonDays: horizonRange } = BOOKING_RULE_LIMITS;

export const BOOKING_RULE_INPUT_MESSAGES = {
  notice: `Minimum notice must be a whole number of hours from ${noticeRange.min} to ${noticeRange.max}`,
  horizon: `Booking horizon must be a whole number of days from ${horizonRange.min} to ${horizonRange.max}`,
  switch: 'Close federal holidays must be true or false',
  reopened: 'Each reopened day must be a federal holiday (YYYY-MM-DD)',
} as const;

/** PUT /api/admin/booking-rules: minimum notice, booking horizon, the federal holidays switch and the holidays reopened. */
export const bookingRulesSchema = z.object({
  minimumNoticeHours: z
    .number({ error: BOOKING_RULE_INPUT_MESSAGES.notice })
    .int(BOOKING_RULE_INPUT_MESSAGES.notice)
    .min(noticeRange.min, BOOKING_RULE_INPUT_MESSAGES.notice)
    .max(noticeRange.max, BOOKING_RULE_INPUT_MESSAGES.notice),
  horizonDays: z
    .number({ error: BOOKING_RULE_INPUT_MESSAGES.horizon })
    .int(BOOKING_RULE_INPUT_MESSAGES.horizon)
    .min(horizonRange.min, BOOKING_RULE_INPUT_MESSAGES.horizon)
    .max(horizonRange.max, BOOKING_RULE_INPUT_MESSAGES.horizon),
  closeFederalHolidays: z.boolean({ error: BOOKING_RULE_INPUT_MESSAGES.switch }),
  // At most the holidays of a few years: the list is only ever the holidays the admin reopened.
  reopenedHolidays: z
    .array(
      z
        .string({ error: BOOKING_RULE_INPUT_MESSAGES.reopened })
        .max(10, BOOKING_RULE_INPUT_MESSAGES.reopened)
        .refine((date) => isCalendarDate(date) && federalHolidayOn(date) !== null, BOOKING_RULE_INPUT_MESSAGES.reopened),
      { error: BOOKING_RULE_INPUT_MESSAGES.reopened },
    )
    .max(60, BOOKING_RULE_INPUT_MESSAGES.reopened)
    .transform((dates) => [...new Set(dates)].sort()),
});

export type BookingRulesInput = z.input<typeof bookingRulesSchema>;

export type WeekdaySlotsInput = z.input<typeof weekdaySlotsSchema>;

/** Longest span GET /api/appointments/closed-days answers for (a month view shows at most six weeks). */
export const CLOSED_DAYS_MAX_SPAN_DAYS = 62;

const dayNumber = (date: string) => Date.UTC(+date.slice(0, 4), +date.slice(5, 7) - 1, +date.slice(8, 10)) / 86_400_000;

/** GET /api/appointments/closed-days?from=&to=: the days the booking calendar greys out. */
export const closedDaysQuerySchema = z
  .object({ from: calendarDate, to: calendarDate })
  .refine(({ from, to }) => from <= to && dayNumber(to) - dayNumber(from) <= CLOSED_DAYS_MAX_SPAN_DAYS, {
    path: ['to'],
    message: `Please choose a range of at most ${CLOSED_DAYS_MAX_SPAN_DAYS} days, from before to`,
  });
