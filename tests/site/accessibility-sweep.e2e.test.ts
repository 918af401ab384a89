import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publicRoutes } from '#core/public-routes';
import { reflowProblems, sweepScreen } from '../harness/e2e/a11y-sweep';
import { showCalendar } from '../harness/e2e/booking-helpers';
import { DESKTOP, islandReady, launchBrowser, newPage, PHONE } from '../harness/e2e/browser';

// docs/product.md "Accessibility": every public screen, with the cookie banner shown (a visitor who
// has not accepted it: the worst case for hidden focus), swept at 1280 px (Tab and Shift+Tab, axe
// with every best practice whatever its impact, required fields, target size), at 390 px (Tab, axe,
// required fields, target size) and at 320 px (reflow). A new public page is covered by adding it to core/public-routes.ts, or, for a
// page outside the sitemap, to OTHER_SCREENS below. The back office: tests/admin/admin-accessibility.e2e.test.ts.

const OTHER_SCREENS = [
  '/no-such-page', // the not-found page
  '/newsletter/confirm',
  '/newsletter/confirmed',
  '/newsletter/unsubscribe',
  '/newsletter/unsubscribed',
  '/newsletter/invalid-link',
  // The e-mailed appointment links, opened without a valid token (their error state).
  '/appointment/cancel',
  '/appointment/reschedule',
];
const SCREENS = [...publicRoutes.map((r) => r.path), ...OTHER_SCREENS];

const BANNER = 'section[aria-label="Cookie consent"]';

let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  browser = await launchBrowser();
  // One context for every screen, never accepting cookies: the banner stays up throughout.
  ({ context, page } = await newPage(browser));
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
});

/** Opens a screen at this size and waits until it is live: banner up, requests done, no toast left. */
async function open(path: string, viewport: { width: number; height: number }) {
  await page.setViewportSize(viewport);
  await page.goto(path);
  await page.locator(BANNER).waitFor({ timeout: 30_000 });
  await page.waitForLoadState('networkidle', { timeout: 30_000 });
  // A status toast (the payment pages announce theirs on arrival) goes after 5 s; the screen is
  // swept at rest (on a phone the toasts sit over the header while shown). That toasts reach a live
  // region is checked below.
  if (await page.locator('[data-island="payment-announcement"]').count()) {
    await page.locator('[data-island="payment-announcement"][data-hydrated]').waitFor({ state: 'attached', timeout: 30_000 });
    // Closed with its button rather than waited out.
    await page.locator('[data-variant][data-state="open"] button[aria-label="Close"]').first().click({ timeout: 30_000 });
  }
  await page.locator('[data-variant][data-state="open"]').first().waitFor({ state: 'detached', timeout: 30_000 });
}

describe('accessibility sweep of the public screens', () => {
  it.each(SCREENS)('%s meets the standard at 1280, 390 and 320 px with the cookie banner shown', async (path) => {
    await open(path, DESKTOP);
    const problems = await sweepScreen(page, `${path} at 1280px`, { backwards: true, everyBestPractice: true });
    await open(path, PHONE);
    problems.push(...(await sweepScreen(page, `${path} at 390px`, { backwards: false, everyBestPractice: true })));
    expect(await page.locator(BANNER).isVisible(), 'the cookie banner stayed up').toBe(true);
    problems.push(...(await reflowProblems(page)));
    expect(problems).toEqual([]);
  }, 180_000);
});

// Four defects an accessibility review found. Focus hidden under the cookie banner or the chat button (WCAG 2.4.11):
// the sweep above of / and /schedule at 1280 and 390 px; the admin dialogs' focus return:
// tests/admin/admin-accessibility.e2e.test.ts.
describe('required fields and reflow', () => {
  it('exposes the required fields of /contact, /schedule and the footer sign-up, with the mark hidden from screen readers (WCAG 1.3.1, 3.3.2)', async () => {
    const required = async (role: 'textbox' | 'combobox', name: string) => {
      const field = page.getByRole(role, { name, exact: true });
      return field.evaluate((el) => (el as HTMLInputElement).required || el.getAttribute('aria-required') === 'true');
    };
    await open('/contact', DESKTOP);
    await islandReady(page, 'contact-form');
    // Named without the mark ("Name", not "Name *"): the asterisk is not read as "star".
    for (const name of ['Name', 'Email', 'Message']) expect(await required('textbox', name), name).toBe(true);
    expect(await required('textbox', 'Phone (Optional)')).toBe(false);
    expect(await required('textbox', 'Email address'), 'footer newsletter e-mail').toBe(true);
    // The mark is shown on /contact, and explained.
    const form = page.locator('form').filter({ has: page.getByRole('button', { name: 'Send Message' }) });
    expect(await form.locator('label [data-required-mark]').count()).toBe(3);
    expect(await page.getByText('Required fields').first().isVisible()).toBe(true);

    await open('/schedule', DESKTOP);
    await islandReady(page, 'booking-form');
    for (const name of ['Full Name', 'Email']) expect(await required('textbox', name), name).toBe(true);
    expect(await required('combobox', 'Service Needed'), 'Service Needed').toBe(true);
    expect(await required('textbox', 'Phone Number')).toBe(false);
    expect(await page.getByRole('group', { name: 'Preferred Date (required)' }).count()).toBe(1);
  }, 90_000);

  it('nothing scrolls sideways at 320 px on /contact and /schedule, calendar open (WCAG 1.4.10)', async () => {
    await open('/contact', PHONE);
    expect(await reflowProblems(page)).toEqual([]);
    await open('/schedule', PHONE);
    await showCalendar(page);
    await page.getByRole('grid').waitFor();
    expect(await reflowProblems(page)).toEqual([]);
  }, 90_000);
});

describe('focus returns and status messages', () => {
  it('returns focus to the menu button when the phone menu closes, and to the chat button when the chat closes', async () => {
    await open('/', PHONE);
    await islandReady(page, 'header');
    const toggle = page.getByRole('button', { name: 'Toggle menu' });
    await toggle.focus();
    await page.keyboard.press('Enter');
    await page.locator('#mobile-menu').waitFor();
    await page.keyboard.press('Tab'); // into the menu
    await page.keyboard.press('Escape');
    await page.locator('#mobile-menu').waitFor({ state: 'detached' });
    await expect.poll(() => toggle.evaluate((el) => el === document.activeElement)).toBe(true);

    await islandReady(page, 'chat');
    const chat = page.getByRole('button', { name: 'Chat with us' });
    await chat.focus();
    await page.keyboard.press('Enter');
    await page.locator('#chat-panel').waitFor();
    await page.keyboard.press('Escape');
    await page.locator('#chat-panel').waitFor({ state: 'detached' });
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Chat with us');
  }, 90_000);

  it('announces a toast through a live region', async () => {
    // Records every text that appears inside a live region, from the first byte of the page.
    await page.addInitScript(() => {
      const heard: string[] = [];
      (window as unknown as { heard: string[] }).heard = heard;
      new MutationObserver((records) => {
        for (const record of records) {
          const region = (record.target as Element).closest?.('[aria-live]:not([aria-live="off"]), [role="status"], [role="alert"]');
          if (region) heard.push(region.textContent ?? '');
        }
      }).observe(document, { subtree: true, childList: true, characterData: true });
    });
    await page.setViewportSize(DESKTOP);
    await page.goto('/payment-success');
    await page.locator('[data-variant]').filter({ hasText: 'Payment Successful' }).first().waitFor();
    await page.waitForFunction(() => (window as unknown as { heard: string[] }).heard.some((text) => text.includes('Thank you for your payment!')), undefined, { timeout: 10_000 });
  }, 60_000);
});
