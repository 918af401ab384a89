import { NO_PREFERRED_TIME } from '#core/content/booking';
import { firm } from '#core/content/firm';
import { timeZoneAbbreviation, zonedDateTime } from '#core/firm-time';

// Dates in the admin screens are shown in the firm's time zone, whatever the admin's laptop says,
// and a time says which zone it is in ("Dec 7, 2026, 2:05 PM ET", docs/product.md §6).

const dateOnly = new Intl.DateTimeFormat('en-US', { timeZone: firm.timeZone, dateStyle: 'medium' });

/** The firm zone's short label ("ET"). */
export const FIRM_ZONE = timeZoneAbbreviation(firm.timeZone);

/** An instant as "Dec 7, 2026, 2:05 PM ET": the firm's clock, and its zone's label. */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : zonedDateTime(date, firm.timeZone);
}

/** A booking's slot, a firm wall-clock time, with the zone's label ("10:00 AM ET"), or "No preferred time". */
export const formatSlot = (slot: string | null) => (slot === null ? NO_PREFERRED_TIME : `${slot} ${FIRM_ZONE}`);

export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateOnly.format(date);
}

/** A calendar day 'YYYY-MM-DD' (already in firm time) as 'Mon, Nov 23, 2026'. */
export function formatCalendarDay(day: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return day;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]), 12));
  return new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', weekday: 'short', month: 'short', day: 'numeric', year: 'numeric' }).format(date);
}

/** Today in the firm's time zone as 'YYYY-MM-DD'. */
export function firmToday(now = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: firm.timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}
