import * as z from 'zod/v4';
import { BOOKING_HORIZON_DAYS, bookingServiceTypes, bookingTimeSlots, type BookingTimeSlot } from '#core/content/booking';
import { firm } from '#core/content/firm';
import { addCalendarDays, firmDateParts, firmToday, isCalendarDate, weekdayOf } from '#core/firm-time';
import { listQuerySchema } from './admin-list';
import { emailField, FIELD_LIMITS, nameField, requiredText, tooLongMessage, turnstileTokenField } from './fields';

// The booking rules of docs/product.md §3 and §9: the 10 service types of the dropdown,
// a real weekday that is not in the past in the firm's time zone nor past the booking horizon,
// one of the 7 slots or none (Preferred Time is optional), and a phone that is optional but holds
// at least 10 digits when given. Pure zod (no bindings): the booking
// form runs the same schema before it sends anything, and the API runs it again.

export const BOOKING_LIMITS = { ...FIELD_LIMITS, date: 40, notes: 2000 } as const;

/** A date past the booking horizon the admin set (default 365 days). */
export function tooFarMessage(horizonDays: number): string {
  return `Appointments can be booked up to ${horizonDays} days ahead. Please choose an earlier date.`;
}

/** Refusals of the booking rules the admin sets (docs/product.md §6.4), answered with 400. */
export const BOOKING_RULE_MESSAGES = {
  tooFar: tooFarMessage,
  notice: (hours: number) => `Appointments need at least ${hours} ${hours === 1 ? "hour's" : "hours'"} notice. Please choose a later time or day.`,
  holiday: 'Sorry, we are closed on that federal holiday. Please choose another day.',
} as const;

export const BOOKING_MESSAGES = {
  phone: 'Please enter a valid phone number',
  service: 'Please choose a service',
  dateMissing: 'Please choose a date',
  dateInvalid: 'Please choose a valid date',
  weekend: 'Appointments are available Monday to Friday only',
  past: 'Please choose a date that is not in the past',
  tooFar: tooFarMessage(BOOKING_HORIZON_DAYS),
  slot: 'Please choose a time',
  slotPassed: 'That time has already passed today. Please choose a later time or another day.',
  taken: 'Sorry, that time has just been booked. Please choose another time or day.',
} as const;

const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})$/i;

/**
 * The calendar day a submitted date means, as YYYY-MM-DD in the firm's zone. A plain date is taken
 * as written; an ISO timestamp (what the original site sent) is the day it falls on in the firm's
 * zone. Anything else is null.
 */
export function toFirmCalendarDate(text: string, timeZone: string): string | null {
  if (isCalendarDate(text)) return text;
  if (!ISO_TIMESTAMP.test(text)) return null;
  const at = new Date(text);
  if (Number.isNaN(at.getTime()) || !isCalendarDate(text.slice(0, 10))) return null;
  return firmToday(timeZone, at);
}

/** Minutes after midnight at which a slot starts: '1:00 PM' -> 780. */
export function slotStartMinutes(slot: BookingTimeSlot): number {
  const [, h, m, meridiem] = /^(\d{1,2}):(\d{2}) (AM|PM)$/.exec(slot)!;
  return ((Number(h) % 12) + (meridiem === 'PM' ? 12 : 0)) * 60 + Number(m);
}

/** True when the slot on that day has already started (only possible today). */
export function slotHasPassed(date: string, slot: BookingTimeSlot, timeZone: string, now: Date = new Date()): boolean {
  const today = firmToday(timeZone, now);
  if (date !== today) return date < today;
  const { hour, minute } = firmDateParts(timeZone, now);
  return slotStartMinutes(slot) <= hour * 60 + minute;
}

const phoneSchema = z
  .string()
  .trim()
  .max(BOOKING_LIMITS.phone, BOOKING_MESSAGES.phone)
  .nullish()
  .refine((value) => !value || (/^[\d\s()+.-]+$/.test(value) && value.replace(/\D/g, '').length >= 10), BOOKING_MESSAGES.phone);

/** The last day a visitor may book: the booking horizon (the admin's, else 365 days) after the firm's today. */
export const lastBookableDay = (today: string, horizonDays: number = BOOKING_HORIZON_DAYS) => addCalendarDays(today, horizonDays);

/** One of the 7 slots, required: a reschedule, or the admin confirming a request without a time. */
export const timeSlotField = () => z.enum(bookingTimeSlots, { error: BOOKING_MESSAGES.slot });

/**
 * The booking request schema for a given "now" in a given zone (the firm's unless a test says
 * otherwise). The horizon is the admin's booking rule, stored in D1: the server judges it with the
 * firm's other rules (worker/services/appointments/availability.ts), so the schema checks it only
 * when told one. The service types are the content's: the defaults unless given; null accepts any
 * one-line name up to 60 characters, for the API, which checks it against the published list.
 */
export function createAppointmentSchema(
  timeZone: string = firm.timeZone,
  now: () => Date = () => new Date(),
  horizonDays?: number,
  serviceTypes: readonly string[] | null = bookingServiceTypes,
) {
  return z
    .object({
      name: nameField(),
      email: emailField(),
      phone: phoneSchema,
      serviceType: z
        .string({ error: BOOKING_MESSAGES.service })
        .refine((type) => (serviceTypes ? serviceTypes.includes(type) : /^[^\r\n]{1,60}$/.test(type) && type.trim() === type), BOOKING_MESSAGES.service),
      date: requiredText(BOOKING_MESSAGES.dateMissing, BOOKING_LIMITS.date, BOOKING_MESSAGES.dateInvalid).transform((text, ctx) => {
        const day = toFirmCalendarDate(text, timeZone);
        if (!day) {
          ctx.addIssue({ code: 'custom', message: BOOKING_MESSAGES.dateInvalid });
          return z.NEVER;
        }
        const weekday = weekdayOf(day);
        if (weekday === 0 || weekday === 6) {
          ctx.addIssue({ code: 'custom', message: BOOKING_MESSAGES.weekend });
          return z.NEVER;
        }
        const today = firmToday(timeZone, now());
        if (day < today) {
          ctx.addIssue({ code: 'custom', message: BOOKING_MESSAGES.past });
          return z.NEVER;
        }
        if (horizonDays !== undefined && day > lastBookableDay(today, horizonDays)) {
          ctx.addIssue({ code: 'custom', message: tooFarMessage(horizonDays) });
          return z.NEVER;
        }
        return day;
      }),
      // Optional (docs/product.md §3): absent, null or '' is a request without a time, stored as
      // null; it holds no slot until the admin picks one when confirming it.
      timeSlot: z
        .union([timeSlotField(), z.literal('')], { error: BOOKING_MESSAGES.slot })
        .nullish()
        .transform((slot) => slot || null),
      notes: z.string().trim().max(BOOKING_LIMITS.notes, tooLongMessage('Notes', BOOKING_LIMITS.notes)).nullish(),
      turnstileToken: turnstileTokenField(),
    })
    .superRefine((value, ctx) => {
      if (value.timeSlot && slotHasPassed(value.date, value.timeSlot, timeZone, now())) {
        ctx.addIssue({ code: 'custom', path: ['timeSlot'], message: BOOKING_MESSAGES.slotPassed });
      }
    });
}

export const appointmentSchema = createAppointmentSchema();

export type AppointmentInput = z.input<typeof appointmentSchema>;
export type AppointmentRequest = z.output<typeof appointmentSchema>;

export const availabilityQuerySchema = z.object({
  date: z.string().max(10, BOOKING_MESSAGES.dateInvalid).refine(isCalendarDate, BOOKING_MESSAGES.dateInvalid),
});

/** The admin's confirm of a request without a time: the slot must be named, offered and free. */
export const CONFIRM_MESSAGES = {
  slotNeeded: 'This request has no preferred time. Please choose a free time to confirm it.',
  slotTaken: 'That time is already booked. Please choose another free time.',
  hasTime: 'This appointment already has a time. The visitor can move it with the reschedule link in their e-mail.',
} as const;

/**
 * PATCH /api/admin/appointments/:id: the admin confirms or cancels a request. Confirming a request
 * without a time names the free slot the admin picked (the route refuses it without one).
 */
export const appointmentStatusSchema = z.object({
  status: z.enum(['confirmed', 'cancelled'], { error: "Status must be 'confirmed' or 'cancelled'" }),
  timeSlot: timeSlotField().optional(),
});

/** The :id of an admin PATCH route. */
export const idParamSchema = z.object({ id: z.coerce.number({ error: 'Invalid id' }).int('Invalid id').positive('Invalid id').max(Number.MAX_SAFE_INTEGER, 'Invalid id') });

/** An appointment's statuses, as the admin list filters by them (worker/db/schema.ts appointments.status). */
export const APPOINTMENT_STATUSES = ['requested', 'confirmed', 'cancelled'] as const;

/**
 * GET /api/admin/appointments/search (docs/product.md §6.2): text (name, e-mail, phone, notes,
 * service), status, the appointment's day between `from` and `to`, page, and `when`: upcoming (from
 * the firm's today, soonest first) or past (most recent first); without it, both, upcoming first.
 */
export const appointmentListQuerySchema = listQuerySchema(APPOINTMENT_STATUSES).safeExtend({
  when: z.enum(['upcoming', 'past'], { error: "When must be 'upcoming' or 'past'" }).optional(),
});
export type AppointmentListQuery = z.output<typeof appointmentListQuerySchema>;
