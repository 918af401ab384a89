import * as z from 'zod/v4';
import { isCalendarDate } from '#core/firm-time';

// The back office's long lists (inbox, appointments, chats, subscribers) are searched and paged by
// the server (docs/product.md "Finding anything in the back office"): one query shape, one answer
// shape, so every list's search box, filters and pager work the same way and the URL keeps them.

/** Rows per page of every searched admin list. */
export const LIST_PAGE_SIZE = 50;
/** The longest search text accepted: a name, an address, a phone number or a phrase. */
export const LIST_QUERY_MAX = 200;
/** No list is that long; a larger page number is a typo or an attack, not a page. */
export const LIST_PAGE_MAX = 100_000;

const day = z.string().max(10, 'Please enter a valid date (YYYY-MM-DD)').refine(isCalendarDate, 'Please enter a valid date (YYYY-MM-DD)');

/**
 * The query of a searched list: `q` (matched, case-insensitively, against the list's text columns),
 * `page` (1-based), an optional `status` the list narrows to (each list names its own, see
 * `listQuerySchema`'s `statuses`), and an optional range of the firm's calendar days `from`..`to`
 * (inclusive, in the firm's time zone).
 */
export function listQuerySchema<const S extends readonly [string, ...string[]]>(statuses: S) {
  return z
    .object({
      q: z.string().trim().max(LIST_QUERY_MAX, `Search must be at most ${LIST_QUERY_MAX} characters`).optional().default(''),
      page: z.coerce
        .number({ error: 'Page must be a whole number' })
        .int('Page must be a whole number')
        .min(1, 'Page must be at least 1')
        .max(LIST_PAGE_MAX, `Page must be at most ${LIST_PAGE_MAX}`)
        .optional()
        .default(1),
      status: z.enum(statuses, { error: `Status must be one of: ${statuses.join(', ')}` }).optional(),
      from: day.optional(),
      to: day.optional(),
    })
    .refine((value) => !value.from || !value.to || value.from <= value.to, { message: 'The start date must be on or before the end date', path: ['to'] });
}

/** One page of a searched list: its rows, how many rows match in all, and which page this is. */
export interface ListPage<T> {
  items: T[];
  total: number;
  page: number;
  pageSize: number;
}
