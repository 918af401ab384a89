import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { addDays, dayCell, firmDay, monthsBetween } from '../calendar-days';
import { baseUrl } from './browser';

// What the browser tests of the booking calendar share (contact-booking, availability,
// appointment-self-service, booking rules ...): the firm's days, a day the server still offers, and
// a visitor's way through the calendar. Days are found by their date, never by grid position
// (tests/harness/calendar-days.ts).

export { firmDay, isWeekday, weekdayOf } from '../calendar-days';

type DayAvailability = { closed: boolean; slots: { time: string; available: boolean }[] };

/** What the server offers on `day` (GET /api/appointments/availability, as the visitor's form asks). */
export async function availabilityOn(day: string): Promise<DayAvailability> {
  const res = await fetch(`${baseUrl()}/api/appointments/availability?date=${day}`);
  if (!res.ok) throw new Error(`availability of ${day}: ${res.status} ${await res.text()}`);
  return (await res.json()) as DayAvailability;
}

/**
 * The first day at least `from` days ahead (the firm's days; or from that YYYY-MM-DD day on) that the server offers, with each of
 * `slots` still free (any free slot when none is named): not a weekend, a blocked date, a federal
 * holiday the rules close, nor a slot another test file on this stack has taken. Asked of the API,
 * so it holds whatever today is. `except` skips days a test keeps for something else.
 */
export async function bookableDay(from: number | string, { slots = [], except = [] }: { slots?: readonly string[]; except?: readonly string[] } = {}): Promise<string> {
  const first = typeof from === 'string' ? from : firmDay(from);
  for (let i = 0; i < 60; i++) {
    const day = addDays(first, i);
    if (except.includes(day)) continue;
    const { closed, slots: offered } = await availabilityOn(day);
    const free = new Set(offered.filter((slot) => slot.available).map((slot) => slot.time));
    if (!closed && free.size > 0 && slots.every((slot) => free.has(slot))) return day;
  }
  throw new Error(`no day from ${first} in the 60 days after it offers ${slots.join(', ') || 'a free slot'}`);
}

/** Opens the page and accepts the cookie banner, as a returning visitor would have. */
export async function open(page: Page, path: string) {
  page.setDefaultTimeout(10_000);
  await page.goto(path);
  const accept = page.getByRole('button', { name: 'Accept' });
  await accept.waitFor({ timeout: 5_000 }).then(() => accept.click(), () => undefined);
}

/**
 * The booking calendar loads on first use (a same-sized placeholder holds its place): a visitor who
 * goes straight for the date asks for it with "Show available dates", then waits for it to appear.
 */
export async function showCalendar(page: Page) {
  // On the Schedule page the form is an island, live once hydrated; the Reschedule page has none.
  if (await page.locator('[data-island="booking-form"]').count()) await page.locator('[data-island="booking-form"][data-hydrated]').waitFor({ state: 'attached' });
  const show = page.getByRole('button', { name: 'Show available dates' });
  // The pointer reaching the form on its way to the button already starts the calendar, which may
  // replace the button before the click lands: that is fine, as long as the button is gone.
  if (await show.count()) {
    await show.click({ timeout: 5_000 }).catch(async (error: unknown) => {
      if (await show.count()) throw error;
    });
  }
  await calendarGrid(page).waitFor();
}

/**
 * The month grid on show. Not its first cell: in a month that does not begin on a Sunday that cell
 * is the previous month's day, which the calendar renders hidden in its first month.
 */
export const calendarGrid = (page: Page) => page.getByRole('grid').first();

/**
 * Shows the month holding `day` in the booking calendar, pressing "Next month" as a visitor would
 * (it opens on the month of the firm's today, or of the day already chosen), and returns the day's cell.
 */
export async function showMonthOf(page: Page, day: string) {
  await showCalendar(page);
  const cell = page.locator(dayCell(day));
  // At most as many presses as months lie between today and the day, plus one for a calendar that
  // opened on an earlier month than today's (never happens, but a loop here must end).
  for (let i = 0; i <= monthsBetween(firmDay(0), day) + 1 && (await cell.count()) === 0; i++) await page.getByRole('button', { name: /next month/i }).click();
  await cell.waitFor();
  return cell;
}

/** Picks a day in the booking calendar, turning its months as a visitor would. */
export async function pickDay(page: Page, day: string) {
  const cell = await showMonthOf(page, day);
  await cell.getByRole('button').click();
  await expect.poll(() => cell.getAttribute('data-selected')).toBe('true');
}
