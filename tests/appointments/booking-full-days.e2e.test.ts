import { beforeAll, describe, expect, it } from 'vitest';
import { browserPerFile, screenshotDir } from '../harness/e2e/admin-helpers';
import { seriousAxeViolations } from '../harness/e2e/a11y-sweep';
import { availabilityOn, bookableDay, open, showMonthOf } from '../harness/e2e/booking-helpers';
import { baseUrl, newPage, PHONE } from '../harness/e2e/browser';

// docs/product.md §3 "Fully booked" (issue 49): a day with no time left is disabled in the
// visitor's calendar and says why. The day is one the server still offers about six weeks ahead
// (asked of the API, so it holds on any day of the year); this file takes its every free slot.

const shared = browserPerFile();
let day: string;

/** "Tuesday, December 8", as the page writes a day in a sentence. */
const inSentence = (iso: string) => new Date(`${iso}T12:00:00Z`).toLocaleDateString('en-US', { weekday: 'long', month: 'long', day: 'numeric', timeZone: 'UTC' });

beforeAll(async () => {
  day = await bookableDay(40);
  const free = (await availabilityOn(day)).slots.filter((slot) => slot.available).map((slot) => slot.time);
  for (const [i, timeSlot] of free.entries()) {
    const res = await fetch(`${baseUrl()}/api/appointments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: baseUrl(), 'cf-connecting-ip': `198.51.100.${120 + i}` },
      body: JSON.stringify({ name: 'Full Day', email: `full-day-${i}@example.com`, serviceType: 'Payroll Services', date: day, timeSlot }),
    });
    if (res.status !== 201) throw new Error(`booking ${day} ${timeSlot}: ${res.status} ${await res.text()}`);
  }
  expect((await availabilityOn(day)).slots.filter((slot) => slot.available)).toEqual([]);
}, 60_000);

describe('a day with no time left', () => {
  it('is disabled on /schedule, struck through, named "fully booked", and listed under the calendar, at 390 px', async () => {
    const { context, page, errors } = await newPage(shared.browser, PHONE);
    try {
      await open(page, '/schedule');
      const cell = await showMonthOf(page, day);
      const button = cell.getByRole('button');
      await expect.poll(() => button.isDisabled(), { timeout: 10_000 }).toBe(true);
      expect(await button.getAttribute('aria-label')).toMatch(/, fully booked$/);
      expect(await button.getAttribute('title')).toBe('Fully booked');
      const line = page.getByTestId('booking-full-days');
      await expect.poll(() => line.textContent()).toContain(inSentence(day));
      expect(await line.textContent()).toMatch(/^Fully booked: .+\.$/);
      // The visitor cannot pick it: a click leaves nothing chosen.
      await button.click({ force: true });
      expect(await cell.getAttribute('data-selected')).toBeNull();
      expect(await seriousAxeViolations(page)).toEqual([]);
      if (screenshotDir) {
        await cell.scrollIntoViewIfNeeded();
        await page.screenshot({ path: `${screenshotDir}/people-schedule-full-day-390.png` });
      }
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 90_000);
});
