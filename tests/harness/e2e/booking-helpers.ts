import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { firm } from '#core/content/firm';

// What the browser tests of the booking calendar share (contact-booking, availability,
// appointment-self-service): the firm's days, and a visitor's way through the calendar.

/** The firm's calendar day (New York) `offsetDays` from now, as YYYY-MM-DD. */
export const firmDay = (offsetDays: number) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: firm.timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    new Date(Date.now() + offsetDays * 86_400_000),
  );

/** The weekday (0 = Sunday) of a YYYY-MM-DD day. */
export const weekdayOf = (day: string) => new Date(`${day}T12:00:00Z`).getUTCDay();

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
  // A day of this month: the grid's leading days of the previous month are hidden cells (on
  // 1 December 2026, a Tuesday, the first cell is 29 November, never visible).
  await page.locator('td[data-day]:not([data-hidden])').first().waitFor();
}

/** Shows the month holding `day` in the booking calendar (it opens on the current month) and returns the day's cell. */
export async function showMonthOf(page: Page, day: string) {
  await showCalendar(page);
  const cell = page.locator(`td[data-day="${day}"]:not([data-outside])`);
  for (let i = 0; i < 3 && (await cell.count()) === 0; i++) await page.getByRole('button', { name: /next month/i }).click();
  return cell;
}

/** Picks a day in the booking calendar, turning its months as a visitor would. */
export async function pickDay(page: Page, day: string) {
  const cell = await showMonthOf(page, day);
  await cell.getByRole('button').click();
  await expect.poll(() => cell.getAttribute('data-selected')).toBe('true');
}
