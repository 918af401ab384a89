import * as z from 'zod/v4';
import { requiredText, tooLongMessage } from './fields';

// The admin's busy calendars (docs/product.md §6.4): a label and the secret iCal address Google
// Calendar or Outlook gives. Pure zod: the admin screen validates its form with the same messages.
// Whether plain http is allowed (only to localhost in local development) is the worker's call.

export const BUSY_CALENDAR_INPUT_LIMITS = { label: 80, url: 2000 } as const;

export const BUSY_CALENDAR_INPUT_MESSAGES = {
  labelRequired: 'Label is required',
  label: tooLongMessage('Label', BUSY_CALENDAR_INPUT_LIMITS.label),
  url: 'Please enter the calendar\u2019s iCal address (https://\u2026 or webcal://\u2026)',
  urlTooLong: tooLongMessage('Address', BUSY_CALENDAR_INPUT_LIMITS.url),
  id: 'Unknown calendar',
} as const;

const isCalendarAddress = (text: string) => {
  try {
    return ['https:', 'http:', 'webcal:'].includes(new URL(text.trim()).protocol);
  } catch {
    return false;
  }
};

/** POST /api/admin/busy-calendars. */
export const busyCalendarSchema = z.object({
  label: requiredText(BUSY_CALENDAR_INPUT_MESSAGES.labelRequired, BUSY_CALENDAR_INPUT_LIMITS.label, BUSY_CALENDAR_INPUT_MESSAGES.label),
  url: z
    .string({ error: BUSY_CALENDAR_INPUT_MESSAGES.url })
    .trim()
    .max(BUSY_CALENDAR_INPUT_LIMITS.url, BUSY_CALENDAR_INPUT_MESSAGES.urlTooLong)
    .refine(isCalendarAddress, BUSY_CALENDAR_INPUT_MESSAGES.url),
});

/** /api/admin/busy-calendars/:id. */
export const busyCalendarParamSchema = z.object({
  id: z.coerce.number({ error: BUSY_CALENDAR_INPUT_MESSAGES.id }).int(BUSY_CALENDAR_INPUT_MESSAGES.id).positive(BUSY_CALENDAR_INPUT_MESSAGES.id),
});
