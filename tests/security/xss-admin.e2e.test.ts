import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { api, browserPerFile, signInThroughCard, uniqueEmail } from '../harness/e2e/admin-helpers';
import { newPage, PHONE } from '../harness/e2e/browser';
import { firmDay, weekdayFrom } from '../harness/calendar-days';

// Hostile markup typed into every field a visitor can store, then viewed in every admin
// screen. Nothing may run: no dialog, no flag set by a payload, no element injected by one.
const payloads = [
  `<img src=x onerror="window.__xss='img'">`,
  `<script>window.__xss='script'</script>`,
  `<svg onload="window.__xss='svg'"></svg>`,
  `"><iframe src="javascript:window.parent.__xss='iframe'"></iframe>`,
  `<a href="javascript:window.__xss='link'">click</a>`,
];
const marker = payloads.join(' ');

/** The first weekday at least `offsetDays` of the firm's days ahead. */
const nextWeekday = (offsetDays: number) => weekdayFrom(firmDay(offsetDays));

const shared = browserPerFile();

async function assertNothingRan(page: Page, dialogs: string[]) {
  // Let lazy sections, images and iframes settle.
  await page.waitForTimeout(800);
  expect(dialogs).toEqual([]);
  expect(await page.evaluate(() => (window as unknown as { __xss?: string }).__xss)).toBeUndefined();
  const injected = await page.evaluate(() => document.querySelectorAll('img[src="x"], svg[onload], iframe[src^="javascript:"], a[href^="javascript:"]').length);
  expect(injected).toBe(0);
}

describe('stored XSS through every visitor field, viewed in every admin screen', () => {
  it('shows the payloads as text and runs none of them', { timeout: 120_000 }, async () => {
    const { page, context } = await newPage(shared.browser);
    const dialogs: string[] = [];
    page.on('dialog', async (dialog) => {
      dialogs.push(dialog.message());
      await dialog.dismiss();
    });
    await page.addInitScript(() => localStorage.setItem('cookieConsent', 'true'));

    // Every public form field that ends up in an admin screen.
    await api(context, 'POST', '/api/contact', {
      name: `Mallory ${payloads[0]}`,
      email: uniqueEmail('xss'),
      phone: '724-555-0199',
      message: `Please call me. ${marker}`,
    });
    await api(context, 'POST', '/api/appointments', {
      name: `Mallory ${payloads[1]}`,
      email: uniqueEmail('xss'),
      phone: '7245550199',
      serviceType: 'Individual Tax Return',
      date: nextWeekday(21),
      timeSlot: '2:00 PM',
      notes: `Notes ${marker}`,
    });
    await api(context, 'POST', '/api/newsletter/subscribe', { email: uniqueEmail('xss'), name: `Mallory ${payloads[2]}` });

    await signInThroughCard(page, '/admin');
    await page.locator(':text("Please call me."):visible').first().waitFor();
    // The message text is shown literally, markup and all.
    expect(await page.getByText(payloads[1], { exact: false }).count()).toBeGreaterThan(0);
    await assertNothingRan(page, dialogs);

    await page.goto('/admin/subscribers');
    await page.getByRole('heading', { name: 'Newsletter Subscribers' }).waitFor();
    await page.locator(':text("Mallory"):visible').first().waitFor();
    await assertNothingRan(page, dialogs);

    // The phone layouts render the same data through different components.
    await page.setViewportSize(PHONE);
    await page.goto('/admin');
    await page.locator(':text("Please call me."):visible').first().waitFor();
    await assertNothingRan(page, dialogs);
    await page.goto('/admin/subscribers');
    await page.locator(':text("Mallory"):visible').first().waitFor();
    await assertNothingRan(page, dialogs);
    await context.close();
  });
});
