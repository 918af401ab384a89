import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { bookableDay, pickDay } from '../harness/e2e/booking-helpers';
import { browserPerFile } from '../harness/e2e/admin-helpers';
import { baseUrl, DESKTOP, expectToast, islandReady, newPage, PHONE } from '../harness/e2e/browser';

// A visitor on a slow phone starts on a form before its island is live (web/islands.tsx): what they
// type and choose, and the button they press, must not be lost, nor their details end up in the
// address bar through the form's native submit. Here the islands runtime is held back on purpose
// until the visitor has acted, then let through.

const shared = browserPerFile();

/**
 * Holds every script but the page's entry (and what it imports statically) until `release()`: the
 * page loads and stays static HTML meanwhile.
 */
async function holdIslands(page: Page, path: string): Promise<{ release: () => void }> {
  const html = await (await fetch(`${baseUrl()}${path}`)).text();
  const entry = /<script type="module"[^>]*src="([^"]+)"/.exec(html)?.[1];
  if (!entry) throw new Error(`no entry script on ${path}`);
  const entryUrl = new URL(entry, baseUrl());
  const code = await (await fetch(entryUrl)).text();
  const allowed = new Set([entryUrl.pathname, ...[...code.matchAll(/(?:from|import)\s*"(\.{1,2}\/[^"]+\.js)"/g)].map((m) => new URL(m[1], entryUrl).pathname)]);
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  await page.route(
    (url) => url.pathname.endsWith('.js') && !allowed.has(url.pathname),
    async (route) => {
      await gate;
      await route.continue();
    },
  );
  return { release };
}

/** The bodies the page POSTs to `path`. */
function posts(page: Page, path: string): string[] {
  const bodies: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === path) bodies.push(request.postData() ?? '');
  });
  return bodies;
}

describe('a form used before its island is live', () => {
  it('contact: the message typed and sent early goes out once the page is live, and never into the address bar', async () => {
    const { page, context, errors } = await newPage(shared.browser, PHONE);
    const { release } = await holdIslands(page, '/contact');
    const sent = posts(page, '/api/contact');
    await page.goto('/contact');
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Early Visitor');
    await page.getByRole('textbox', { name: 'Email', exact: true }).fill('early@example.com');
    await page.getByRole('textbox', { name: 'Message', exact: true }).fill('I pressed send before the page had finished loading.');
    await page.getByRole('button', { name: 'Send Message' }).click();
    await page.waitForTimeout(300);
    expect(new URL(page.url()).search).toBe('');
    expect(sent).toEqual([]);
    expect(await page.locator('[data-island="contact-form"][data-hydrated]').count()).toBe(0);

    release();
    await expectToast(page, 'Message Sent', "We'll get back to you as soon as possible.");
    expect(sent).toHaveLength(1);
    expect(JSON.parse(sent[0])).toMatchObject({ name: 'Early Visitor', email: 'early@example.com', message: 'I pressed send before the page had finished loading.' });
    expect(new URL(page.url()).search).toBe('');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('contact: Enter pressed in a field before the page is live checks the form once it is', async () => {
    const { page, context } = await newPage(shared.browser, DESKTOP);
    const { release } = await holdIslands(page, '/contact');
    const sent = posts(page, '/api/contact');
    await page.goto('/contact');
    await page.getByRole('textbox', { name: 'Email', exact: true }).fill('enter@example.com');
    await page.getByRole('textbox', { name: 'Email', exact: true }).press('Enter');
    await page.waitForTimeout(300);
    expect(new URL(page.url()).search).toBe('');

    release();
    await expect.poll(() => page.getByText('Name is required').isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await page.getByText('Message must be at least 10 characters').isVisible()).toBe(true);
    expect(await page.getByText('Please enter a valid email address').count()).toBe(0);
    expect(sent).toEqual([]);
    await context.close();
  });

  it('booking: fields typed and a service chosen early are in the booking once the page is live', async () => {
    const { page, context, errors } = await newPage(shared.browser, DESKTOP);
    const { release } = await holdIslands(page, '/schedule');
    const sent = posts(page, '/api/appointments');
    const day = await bookableDay(12, { slots: ['1:00 PM'] });
    await page.goto('/schedule');
    await page.getByLabel('Full Name').fill('Early Booker');
    await page.getByLabel('Email *').fill('early.booker@example.com');
    await page.getByLabel('Phone Number').fill('(724) 555-0142');
    await page.getByLabel('Service Needed').selectOption('Payroll Services');
    await page.getByLabel('Additional Notes').fill('Chosen before the page was live.');

    release();
    await islandReady(page, 'booking-form');
    expect(await page.getByLabel('Service Needed').inputValue()).toBe('Payroll Services');
    await pickDay(page, day);
    await page.getByLabel('Preferred Time').selectOption('1:00 PM');
    await page.getByRole('button', { name: 'Schedule Appointment' }).click();
    await expectToast(page, 'Appointment Scheduled!');
    expect(JSON.parse(sent[0])).toMatchObject({
      name: 'Early Booker',
      email: 'early.booker@example.com',
      phone: '(724) 555-0142',
      serviceType: 'Payroll Services',
      date: day,
      timeSlot: '1:00 PM',
      notes: 'Chosen before the page was live.',
    });
    expect(errors).toEqual([]);
    await context.close();
  });
});
