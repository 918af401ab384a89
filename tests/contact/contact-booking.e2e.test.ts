import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { addDays } from '../harness/calendar-days';
import { bookableDay, firmDay, open, pickDay, showCalendar, showMonthOf, weekdayOf } from '../harness/e2e/booking-helpers';
import { browserPerFile, saveScreens, screenshotDir } from '../harness/e2e/admin-helpers';
import { baseUrl, DESKTOP, expectToast, islandReady, newPage, PHONE } from '../harness/e2e/browser';

const shared = browserPerFile();

/** The first Saturday at least `from` days ahead (New York). */
function saturdayAhead(from: number): string {
  const first = firmDay(from);
  return addDays(first, (6 - weekdayOf(first) + 7) % 7);
}

/** Holds the browser's requests to `path` for a moment (then lets them through to the real server), so the pending state can be seen. */
async function slowDown(page: Page, path: string) {
  await page.route(`**${path}`, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 800));
    await route.continue();
  });
}

/** Clicks the form's `button` with its request to `path` held back, and checks the button reads `pendingLabel`, disabled, meanwhile. */
async function sendHeldBack(page: Page, path: string, button: string, pendingLabel: string) {
  await slowDown(page, path);
  await page.getByRole('button', { name: button }).click();
  const pending = page.getByRole('button', { name: pendingLabel });
  await pending.waitFor();
  expect(await pending.isDisabled()).toBe(true);
}

async function bookThroughApi(body: Record<string, string>) {
  const res = await fetch(`${baseUrl()}/api/appointments`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'cf-connecting-ip': '198.51.100.77' },
    body: JSON.stringify({ name: 'Someone Else', email: 'else@example.com', serviceType: 'Payroll Services', ...body }),
  });
  if (res.status !== 201) throw new Error(`booking failed: ${res.status} ${await res.text()}`);
}

describe('contact page', () => {
  it('sends a message as a visitor: Sending..., the success toast, a cleared form and the analytics event', async () => {
    const { page, context, errors } = await newPage(shared.browser, DESKTOP);
    await open(page, '/contact');
    await expect.poll(() => page.getByRole('heading', { name: 'Send us a Message' }).isVisible()).toBe(true);
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Pat Visitor');
    await page.getByRole('textbox', { name: 'Email', exact: true }).fill('pat@example.com');
    await page.getByLabel('Phone (Optional)').fill('(724) 555-0100');
    await page.getByRole('textbox', { name: 'Message', exact: true }).fill('Could you help me with a 2025 amended return?');
    await sendHeldBack(page, '/api/contact', 'Send Message', 'Sending...');
    await expectToast(page, 'Message Sent', "We'll get back to you as soon as possible.");
    expect(await page.getByRole('textbox', { name: 'Name', exact: true }).inputValue()).toBe('');
    expect(await page.getByRole('textbox', { name: 'Message', exact: true }).inputValue()).toBe('');
    const events = await page.evaluate(() => (window.dataLayer ?? []).filter((e) => e.event === 'form_submission'));
    expect(events).toEqual([{ event: 'form_submission', category: 'Forms', action: 'success', label: 'Contact Form' }]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows the validation messages and sends nothing while the form is invalid', async () => {
    const { page, context } = await newPage(shared.browser, PHONE);
    let posted = false;
    page.on('request', (r) => {
      if (r.url().endsWith('/api/contact')) posted = true;
    });
    await page.goto('/contact');
    await page.getByRole('textbox', { name: 'Email', exact: true }).fill('not-an-email');
    await page.getByRole('textbox', { name: 'Message', exact: true }).fill('Too short');
    await page.getByRole('button', { name: 'Send Message' }).click();
    // The schema loads with the first submit, which may also wait for the form to be live.
    await expect.poll(() => page.getByText('Please enter a valid email address').isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await page.getByText('Message must be at least 10 characters').isVisible()).toBe(true);
    expect(await page.getByText('Name is required').isVisible()).toBe(true);
    expect(posted).toBe(false);
    await context.close();
  });

  it('reserves the map space and shows the contact details and hours', async () => {
    const { page, context } = await newPage(shared.browser, DESKTOP);
    await page.goto('/contact');
    const map = page.getByTestId('map-embed');
    const box = await map.boundingBox();
    expect(box!.height).toBeGreaterThan(150);
    expect(Math.round((box!.width / box!.height) * 3)).toBe(4);
    expect(await page.getByText('Monday - Friday').first().isVisible()).toBe(true);
    expect(await page.getByText('9:00 AM - 5:00 PM').first().isVisible()).toBe(true);
    // Without cookie consent nothing from Google loads until the visitor asks for the map.
    expect(await page.locator('iframe').count()).toBe(0);
    await islandReady(page, 'map-embed');
    await page.getByRole('button', { name: 'Show map' }).click();
    expect(await page.locator('iframe[src^="https://www.google.com/maps"]').count()).toBe(1);
    expect((await map.boundingBox())!.height).toBe(box!.height);
    await context.close();
  });
});

describe('schedule page', () => {
  it("answers a submit with missing fields with 'Missing Information'", async () => {
    const { page, context } = await newPage(shared.browser, DESKTOP);
    await open(page, '/schedule');
    await islandReady(page, 'booking-form');
    await page.getByLabel('Full Name').fill('Only A Name');
    await page.getByRole('button', { name: 'Schedule Appointment' }).click();
    await expectToast(page, 'Missing Information', 'Please fill in all required fields');
    await context.close();
  });

  it('books an appointment as a visitor and resets the form', async () => {
    const { page, context, errors } = await newPage(shared.browser, DESKTOP);
    const day = await bookableDay(8, { slots: ['10:00 AM'] });
    await open(page, '/schedule');
    await page.getByLabel('Full Name').fill('Robin Client');
    await page.getByLabel('Email *').fill('robin@example.com');
    await page.getByLabel('Phone Number').fill('(412) 555-0123');
    await page.getByLabel('Service Needed').selectOption('Business Tax Return');
    await pickDay(page, day);
    await page.getByLabel('Preferred Time').selectOption('10:00 AM');
    await page.getByLabel('Additional Notes').fill('S-corp, first year.');
    await sendHeldBack(page, '/api/appointments', 'Schedule Appointment', 'Scheduling...');
    await expectToast(page, 'Appointment Scheduled!', "We'll contact you shortly to confirm your appointment.");
    await expect.poll(() => page.getByLabel('Full Name').inputValue()).toBe('');
    expect(await page.getByLabel('Service Needed').inputValue()).toBe('');
    expect(await page.getByLabel('Preferred Time').inputValue()).toBe('');
    expect(await page.locator('td[data-selected]').count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows a taken slot as unavailable and refuses to pick it', async () => {
    const { page, context } = await newPage(shared.browser, PHONE);
    const day = await bookableDay(9, { slots: ['2:00 PM', '3:00 PM'] });
    await bookThroughApi({ date: day, timeSlot: '2:00 PM' });
    await open(page, '/schedule');
    await pickDay(page, day);
    const taken = page.locator('#booking-time option[value="2:00 PM"]');
    await expect.poll(() => taken.textContent()).toBe('2:00 PM (unavailable)');
    expect(await taken.isDisabled()).toBe(true);
    expect(await page.locator('#booking-time option[value="3:00 PM"]').isDisabled()).toBe(false);
    await context.close();
  });

  it('disables weekends and past days in the calendar', async () => {
    const { page, context } = await newPage(shared.browser, DESKTOP);
    await open(page, '/schedule');
    const saturday = saturdayAhead(1);
    const cell = await showMonthOf(page, saturday);
    expect(await cell.getAttribute('data-disabled')).toBe('true');
    expect(await cell.getByRole('button').isDisabled()).toBe(true);
    // Week starts on Sunday.
    expect((await page.locator('th').first().textContent())?.trim()).toMatch(/^Su/);
    await open(page, '/schedule');
    await showCalendar(page);
    const yesterday = page.locator(`td[data-day="${firmDay(-1)}"]`).first();
    if ((await yesterday.count()) > 0) expect(await yesterday.getAttribute('data-disabled')).toBe('true');
    await context.close();
  });

  it('tells the visitor when the slot was booked by someone else meanwhile', async () => {
    const { page, context } = await newPage(shared.browser, DESKTOP);
    const day = await bookableDay(10, { slots: ['11:00 AM'] });
    await open(page, '/schedule');
    await page.getByLabel('Full Name').fill('Late Visitor');
    await page.getByLabel('Email *').fill('late@example.com');
    await page.getByLabel('Service Needed').selectOption('Payroll Services');
    await pickDay(page, day);
    await page.getByLabel('Preferred Time').selectOption('11:00 AM');
    await bookThroughApi({ date: day, timeSlot: '11:00 AM' });
    await page.getByRole('button', { name: 'Schedule Appointment' }).click();
    await expectToast(page, 'Error', 'Sorry, that time has just been booked');
    await expect.poll(() => page.locator('#booking-time option[value="11:00 AM"]').isDisabled()).toBe(true);
    await context.close();
  });

  it('rejects a short phone number with the shared message before sending', async () => {
    const { page, context } = await newPage(shared.browser, DESKTOP);
    await open(page, '/schedule');
    await page.getByLabel('Full Name').fill('Short Phone');
    await page.getByLabel('Email *').fill('short@example.com');
    await page.getByLabel('Phone Number').fill('555-0100');
    await page.getByLabel('Service Needed').selectOption('Payroll Services');
    await pickDay(page, await bookableDay(11, { slots: ['9:00 AM'] }));
    await page.getByLabel('Preferred Time').selectOption('9:00 AM');
    await page.getByRole('button', { name: 'Schedule Appointment' }).click();
    await expectToast(page, 'Error', 'Please enter a valid phone number');
    await context.close();
  });
});

describe('screenshots', () => {
  it.each([
    ['contact', DESKTOP],
    ['contact', PHONE],
    ['schedule', DESKTOP],
    ['schedule', PHONE],
  ] as const)('/%s at %o has no horizontal overflow', async (path, viewport) => {
    const { page, context } = await newPage(shared.browser, viewport);
    if (path === 'schedule') await open(page, `/${path}`);
    else await page.goto(`/${path}`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    if (path === 'schedule') await showCalendar(page);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await saveScreens(page, `contact-booking-${path}-${viewport.width}`);
    if (screenshotDir) await page.locator('form').first().screenshot({ path: `${screenshotDir}/contact-booking-${path}-${viewport.width}-form.png` });
    await context.close();
  });
});
