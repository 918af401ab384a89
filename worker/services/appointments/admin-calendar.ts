import type { BookingRules, BookingTimeSlot } from '#core/content/booking';
import type { Db } from '../../db/client';
import type { Bindings } from '../../env';
import { recordAudit } from '../audit/audit-log';
import type { FirmWeekday } from './availability';
import { addBusyCalendar, type BusyCalendarRow, findBusyCalendar, refreshBusyCalendar, removeBusyCalendar } from './busy-calendars';
import { adminAvailabilityView, blockDate, bookingsOnBlockedDates, replaceWeeklyOffer, saveBookingRules, unblockDate } from './calendar';
import { feedUrls, rotateFeedSecret } from './calendar-feed';
import { calendarUrlProblem, isLocalDevelopment, normalizeCalendarUrl } from './calendar-fetch';
import type { AdminActor } from './confirm-or-cancel';

// The admin's changes to the firm's calendar (docs/product.md §6.4): the weekly offer, the booking
// rules, the blocked dates, the private feed's secret and the busy calendars. Each is recorded in
// the audit trail (docs/product.md §6.9) by the admin who made it, right after it succeeded.

/** Replaces the whole weekly offer in one batch (one transaction): a reader never sees it half-written. */
export async function changeWeeklyOffer(db: Db, weekdays: Record<FirmWeekday, readonly BookingTimeSlot[]>, by: AdminActor) {
  await replaceWeeklyOffer(db, weekdays);
  await recordAudit(db, { ...by, action: 'availability.weekly-offer' });
  return adminAvailabilityView(db);
}

/** The booking rules: one row, replaced whole. */
export async function changeBookingRules(db: Db, rules: BookingRules, by: AdminActor) {
  await saveBookingRules(db, rules);
  await recordAudit(db, { ...by, action: 'availability.booking-rules' });
  return adminAvailabilityView(db);
}

/** Blocks a day (again: a new reason replaces the old one, none keeps it); the bookings already on it are kept, and listed. */
export async function blockDay(db: Db, day: { date: string; reason: string | null }, by: AdminActor) {
  const row = await blockDate(db, day.date, day.reason);
  await recordAudit(db, { ...by, action: 'availability.block-date', record: `date:${day.date}` });
  const bookings = await bookingsOnBlockedDates(db, day.date);
  return { ...row, appointments: bookings.get(day.date) ?? [] };
}

/** Unblocks a day; one that is not blocked is no error. */
export async function unblockDay(db: Db, date: string, by: AdminActor): Promise<void> {
  await unblockDate(db, date);
  await recordAudit(db, { ...by, action: 'availability.unblock-date', record: `date:${date}` });
}

/** A new secret for the private feed, replacing the old one at once (docs/decisions/0014): its address, shown this once. */
export async function rotateFeed(env: Pick<Bindings, 'SITE_URL'>, db: Db, by: AdminActor) {
  const { secret, createdAt } = await rotateFeedSecret(db);
  await recordAudit(db, { ...by, action: 'calendar.feed-rotate' });
  return { active: true, createdAt, ...feedUrls(env, secret) };
}

/**
 * Adds a busy calendar: the typed address (webcal:// is https) checked, stored, then fetched at
 * once; a failed first fetch keeps the address, with its error shown. `requestUrl` tells local
 * development (isLocalDevelopment).
 */
export async function addBusyCalendarNow(
  env: Bindings,
  db: Db,
  calendar: { label: string; url: string; requestUrl: string },
  by: AdminActor,
): Promise<{ ok: true; calendar: BusyCalendarRow } | { ok: false; problem: string }> {
  const url = normalizeCalendarUrl(calendar.url);
  const localDevelopment = isLocalDevelopment(env, calendar.requestUrl);
  const problem = calendarUrlProblem(new URL(url), localDevelopment);
  if (problem) return { ok: false, problem };
  const id = await addBusyCalendar(db, { label: calendar.label, url });
  await recordAudit(db, { ...by, action: 'calendar.busy-add', record: `busy-calendar:${id}` });
  await refreshBusyCalendar(env, db, { id, url }, { localDevelopment });
  return { ok: true, calendar: await findBusyCalendar(db, id) };
}

/** Reads a busy calendar again now; undefined when there is none with that id. */
export async function refreshBusyCalendarNow(env: Bindings, db: Db, calendar: { id: number; requestUrl: string }, by: AdminActor): Promise<BusyCalendarRow | undefined> {
  const row = await findBusyCalendar(db, calendar.id);
  if (!row) return undefined;
  await refreshBusyCalendar(env, db, row, { localDevelopment: isLocalDevelopment(env, calendar.requestUrl) });
  await recordAudit(db, { ...by, action: 'calendar.busy-refresh', record: `busy-calendar:${row.id}` });
  return findBusyCalendar(db, row.id);
}

/** Removes a busy calendar (a removed one is no error): its busy times stop closing slots at once. */
export async function removeBusyCalendarNow(db: Db, id: number, by: AdminActor): Promise<void> {
  await removeBusyCalendar(db, id);
  await recordAudit(db, { ...by, action: 'calendar.busy-remove', record: `busy-calendar:${id}` });
}
