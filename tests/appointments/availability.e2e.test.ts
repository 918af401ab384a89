import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { bookableDay, showMonthOf } from '../harness/e2e/booking-helpers';
import { seriousAxeViolations } from '../harness/e2e/a11y-sweep';
import { baseUrl, DESKTOP, newPage, PHONE, SCREEN_SIZES } from '../harness/e2e/browser';
import { adminSessionPerFile, api, expectToastSaying, saveScreens } from '../harness/e2e/admin-helpers';

// docs/product.md §6.4 and §3: the administrator closes a day on /admin/availability; the visitor's
// calendar shows it disabled and the server refuses a booking on it. Only one far-off date is
// blocked (and unblocked again), and the weekly hours are not changed here: other test files book
// on the same server at the same time.

const admin = adminSessionPerFile('/admin');

/** A day the server offers about four weeks ahead, with 10:00 AM free (no other browser test books that far out, this one asks the API). */
let day: string;
beforeAll(async () => {
  day = await bookableDay(27, { slots: ['10:00 AM'] });
});
const reason = 'Staff training day';

async function book(body: Record<string, string>) {
  return fetch(`${baseUrl()}/api/appointments`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: baseUrl(), 'cf-connecting-ip': '198.51.100.88' },
    body: JSON.stringify({ name: 'Kept Booking', email: 'kept@example.com', serviceType: 'Payroll Services', date: day, ...body }),
  });
}

/** The calendar cell of `day`, turning months until it shows (the calendar opens on this month). */
async function calendarCell(page: Page) {
  const cell = await showMonthOf(page, day);
  await cell.waitFor();
  return cell;
}

type AdminView = { blockedDates: { date: string; reason: string | null; appointments: { name: string; timeSlot: string }[] }[] };

describe('the firm’s availability', () => {
  it('the admin blocks a day with a booking on it: the booking is kept and listed; visitors cannot book that day', async () => {
    expect((await book({ timeSlot: '10:00 AM' })).status).toBe(201);
    const { page } = admin;
    await page.goto('/admin');
    await page.getByRole('link', { name: 'Availability' }).click();
    await page.getByRole('heading', { name: 'Availability', level: 1 }).waitFor();
    // The weekly grid: five weekdays by seven slots, all offered until changed.
    await page.getByRole('checkbox', { name: 'Monday 9:00 AM' }).waitFor();
    expect(await page.getByTestId('weekday-grid').getByRole('checkbox').count()).toBe(35);
    expect(await page.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);

    await page.getByLabel('Date', { exact: true }).fill(day);
    await page.getByLabel('Reason (optional)').fill(reason);
    await page.getByRole('button', { name: 'Block', exact: true }).click();
    await expectToastSaying(page, 'Date blocked', '1 existing booking is kept');
    const row = page.locator(`[data-testid="blocked-date"][data-date="${day}"]`);
    await row.waitFor();
    expect(await row.textContent()).toContain(reason);
    expect(await row.getByTestId('blocked-date-booking').textContent()).toMatch(/10:00 AM ET\s*Kept Booking\s*Requested/);
    const view = await api<AdminView>(admin.context, 'GET', '/api/admin/availability');
    expect(view.blockedDates.find((b) => b.date === day)).toMatchObject({ reason, appointments: [{ name: 'Kept Booking', timeSlot: '10:00 AM' }] });

    // The visitor, on a phone: the day is disabled in the calendar, and the server refuses it.
    const visitor = await newPage(admin.browser, PHONE);
    await visitor.page.goto('/schedule');
    const cell = await calendarCell(visitor.page);
    await expect.poll(() => cell.getAttribute('data-disabled'), { timeout: 10_000 }).toBe('true');
    expect(await cell.getByRole('button').isDisabled()).toBe(true);
    await cell.scrollIntoViewIfNeeded();
    await saveScreens(visitor.page, 'schedule-blocked-day-390');
    const refused = await book({ timeSlot: '2:00 PM', name: 'Too Late' });
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { message: string }).message).toBe('Sorry, we are closed on that day. Please choose another day.');
    const availability = (await (await fetch(`${baseUrl()}/api/appointments/availability?date=${day}`)).json()) as { closed: boolean; reason: string };
    expect(availability).toMatchObject({ closed: true, reason });
    expect(visitor.errors).toEqual([]);
    await visitor.context.close();
  });

  it.each(SCREEN_SIZES)('fits the availability screen at %s px, with no serious or critical axe violation', async (label, viewport) => {
    const { page } = admin;
    await page.setViewportSize(viewport);
    await page.goto('/admin/availability');
    await page.getByRole('checkbox', { name: 'Friday 4:00 PM' }).waitFor();
    // With a blocked day and its kept booking on screen.
    await page.getByTestId('blocked-date-booking').first().waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await saveScreens(page, `availability-${label}`);
    await page.setViewportSize(DESKTOP);
  });

  it('the admin unblocks the day: the visitor can pick it again', async () => {
    const { page } = admin;
    await page.goto('/admin/availability');
    const row = page.locator(`[data-testid="blocked-date"][data-date="${day}"]`);
    await row.getByRole('button', { name: /^Unblock / }).click();
    await expectToastSaying(page, 'Date unblocked');
    await row.waitFor({ state: 'detached' });

    const visitor = await newPage(admin.browser, PHONE);
    const closedDaysRead = visitor.page.waitForResponse((r) => r.url().includes('/api/appointments/closed-days'), { timeout: 15_000 });
    await visitor.page.goto('/schedule');
    const cell = await calendarCell(visitor.page);
    // Once the month's closed days have been read, the day is still enabled.
    await closedDaysRead;
    await visitor.page.waitForTimeout(100);
    expect(await cell.getAttribute('data-disabled')).toBeNull();
    await cell.getByRole('button').click();
    await expect.poll(() => visitor.page.locator('#booking-time option[value="10:00 AM"]').textContent()).toBe('10:00 AM (unavailable)');
    expect(await visitor.page.locator('#booking-time option[value="2:00 PM"]').isDisabled()).toBe(false);
    await visitor.context.close();
  });
});
