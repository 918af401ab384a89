import * as z from 'zod/v4';
import { requiredText } from './fields';
import { firm } from '#core/content/firm';
import { slotHasPassed, BOOKING_MESSAGES, createAppointmentSchema, timeSlotField } from './appointments';

// The visitor's self-service requests (worker/routes/appointment-links.ts). A token is a compact
// JWT: three base64url parts, well under 1 KB; anything else is refused before any crypto runs.

export const LINK_MESSAGES = {
  invalid: 'This link is not valid. Please use the link in your most recent e-mail from us, or call us.',
  expired: 'This link has expired: the appointment time has passed.',
  used: 'This link is no longer valid: your appointment has changed since that e-mail was sent. Please use the link in your most recent e-mail from us.',
  cancelled: 'This appointment has already been cancelled.',
  sameSlot: 'Your appointment is already at that time. Please choose another time or day.',
} as const;

const tokenField = requiredText(LINK_MESSAGES.invalid, 1024, LINK_MESSAGES.invalid).regex(/^[\w-]+\.[\w-]+\.[\w-]+$/, LINK_MESSAGES.invalid);

export const manageQuerySchema = z.object({ token: tokenField });
export const cancelRequestSchema = z.object({ token: tokenField });

/**
 * A new date and slot: exactly the booking form's rules (core/schemas/appointments.ts: a real
 * weekday, not in the past in the firm's zone nor past the horizon, one of the 7 slots (required
 * here: a move is to a time), not already started), judged by
 * each request's own clock. The firm's availability and taken slots are checked by the route.
 */
export function createRescheduleSchema(timeZone: string = firm.timeZone, now: () => Date = () => new Date()) {
  const booking = createAppointmentSchema(timeZone, now).shape;
  return z
    .object({ token: tokenField, date: booking.date, timeSlot: timeSlotField() })
    .superRefine((value, ctx) => {
      if (slotHasPassed(value.date, value.timeSlot, timeZone, now())) {
        ctx.addIssue({ code: 'custom', path: ['timeSlot'], message: BOOKING_MESSAGES.slotPassed });
      }
    });
}

export const rescheduleRequestSchema = createRescheduleSchema();
