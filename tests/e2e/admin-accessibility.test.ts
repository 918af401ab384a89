import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, signInThroughCard, uniqueEmail, waitUntil } from './admin-helpers';
import { confirmedSubscriber } from './admin-newsletter-helpers';
import { baseUrl, DESKTOP, launchBrowser, newPage, PHONE } from './browser';

// Every admin screen, signed in and with data on it (messages, appointments, subscribers, e-mails
// with an attached invite), checked with axe at desktop and phone width: no serious or critical
// violation of WCAG 2.1 A/AA or axe's best practices.

const ADMIN_ROUTES = ['/admin', '/admin/subscribers', '/admin/availability', '/admin/chats'];
const IMPACTS_THAT_FAIL = new Set(['serious', 'critical']);

let browser: Browser;
let seed: BrowserContext;
let blocked: string | undefined;

/** A weekday booking far ahead at a random offset, retried when the slot is taken or closed. */
async function bookSomething(context: BrowserContext, email: string) {
  const slots = ['9:00 AM', '10:00 AM', '11:00 AM', '1:00 PM', '2:00 PM', '3:00 PM', '4:00 PM'];
  for (let attempt = 0; attempt < 30; attempt++) {
    const day = new Date(Date.now() + (60 + Math.floor(Math.random() * 300)) * 86_400_000);
    if (day.getUTCDay() === 0 || day.getUTCDay() === 6) continue;
    const res = await context.request.post('/api/appointments', {
      data: { name: 'Axe Booker', email, phone: '724-555-0100', serviceType: 'Payroll Services', date: day.toISOString().slice(0, 10), timeSlot: slots[attempt % slots.length], notes: 'Accessibility run' },
      headers: { origin: baseUrl() },
    });
    if (res.status() === 409) continue;
    if (!res.ok()) throw new Error(`booking failed: ${res.status()} ${await res.text()}`);
    return { id: ((await res.json()) as { id: number }).id, date: day.toISOString().slice(0, 10) };
  }
  throw new Error('no free slot found');
}

beforeAll(async () => {
  browser = await launchBrowser();
  const { context, page } = await newPage(browser);
  seed = context;
  await signInThroughCard(page);
  await api(context, 'POST', '/api/contact', { name: 'Axe Visitor', email: uniqueEmail('axe-visitor'), phone: '412-555-0101', message: 'A message so the inbox has a card to check.' });
  const requested = await bookSomething(context, uniqueEmail('axe-requested'));
  const confirmed = await bookSomething(context, uniqueEmail('axe-confirmed'));
  await api(context, 'PATCH', `/api/admin/appointments/${confirmed.id}`, { status: 'confirmed' });
  const cancelled = await bookSomething(context, uniqueEmail('axe-cancelled'));
  await api(context, 'PATCH', `/api/admin/appointments/${cancelled.id}`, { status: 'cancelled' });
  // A closed day that still has a booking: the availability screen lists both.
  blocked = requested.date;
  await api(context, 'POST', '/api/admin/blocked-dates', { date: blocked, reason: 'Staff training' });
  await confirmedSubscriber(context, 'Axe Reader');
  await api(context, 'POST', '/api/newsletter/subscribe', { email: uniqueEmail('axe-pending'), name: 'Pending Reader' });
  // A chat conversation, so the transcripts screen has a row to check.
  await api(context, 'POST', '/api/chat', { message: 'What are your office hours?', sessionId: crypto.randomUUID() });
}, 120_000);

afterAll(async () => {
  if (blocked) await api(seed, 'DELETE', `/api/admin/blocked-dates/${blocked}`);
  await seed?.close();
  await browser?.close();
});

/** What each screen must show before it is checked: its data, loaded. */
async function waitForData(page: Page, route: string) {
  await page.getByRole('heading', { level: 1 }).waitFor();
  if (route === '/admin') {
    // A message card, an appointment card, an e-mail with its attachment; past appointments open.
    await page.getByTestId('message-card').first().waitFor();
    await page.getByTestId('appointment-card').first().waitFor();
    await page.getByTestId('email-attachment').first().waitFor({ state: 'attached' });
    await page.getByRole('button', { name: /^Show past appointments/ }).click();
  } else if (route === '/admin/subscribers') {
    await waitUntil(async () => (await page.getByTestId('subscriber-row').count()) > 0, 'subscriber rows');
  } else if (route === '/admin/chats') {
    // The table on wide screens, the list on phones: whichever is shown has a row.
    await waitUntil(async () => (await page.locator('[data-testid="chat-session-row"]:visible, [data-testid="chat-session-item"]:visible').count()) > 0, 'chat rows');
  } else {
    await page.getByTestId('weekday-grid').waitFor();
    await page.locator(`[data-testid="blocked-date"][data-date="${blocked}"]`).waitFor();
  }
}

describe('admin accessibility', () => {
  const cases = [DESKTOP, PHONE].flatMap((viewport) => ADMIN_ROUTES.map((route) => [`${viewport.width}px`, route, viewport] as const));

  it.each(cases)('has no serious or critical axe violations at %s on %s, signed in with data', async (_label, route, viewport) => {
    const { context, page } = await newPage(browser, viewport);
    try {
      await signInThroughCard(page, route);
      await waitForData(page, route);
      // Not 'networkidle': /admin/subscribers keeps polling while an earlier test's newsletter is
      // still going out to its 10,000 subscribers, so the network never goes quiet. The screen's
      // data is on screen (waitForData); let pending renders settle.
      await page.waitForTimeout(300);
      // The newsletter previews are sandboxed iframes of e-mail HTML (not admin UI; their content
      // is the sanitizer's business, tests/worker/newsletter-sanitize.test.ts), and older history
      // entries load lazily: axe would wait forever to enter a frame that never loads once earlier
      // suites have sent several newsletters. The iframe elements keep their titles.
      const results = await new AxeBuilder({ page }).exclude('iframe[sandbox]').withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
      const failures = results.violations
        .filter((v) => IMPACTS_THAT_FAIL.has(v.impact ?? ''))
        .map((v) => `${v.id} [${v.impact}] (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
      expect(failures).toEqual([]);
    } finally {
      await context.close();
    }
  }, 90_000);
});
