import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { adminSessionPerFile, api, expectToastSaying, saveScreensAtBothWidths, screenshotDir, signedInTab, uniqueEmail, waitUntil } from '../harness/e2e/admin-helpers';
import { baseUrl, DESKTOP, SCREEN_SIZES } from '../harness/e2e/browser';
import { bookableDay } from '../harness/e2e/booking-helpers';

// docs/product.md §6.2 "Finding anything in the back office": the inbox and the appointments on
// /admin are searched by the server, the search and page kept in the address (inbox-q,
// inbox-page, appointments-q...); a message is archived and brought back; the in-app Reply is each
// card's main button and marks the message read.

const admin = adminSessionPerFile();
const marker = Math.random().toString(36).slice(2, 8);

const inboxSearch = (page: Page) => page.getByRole('search', { name: 'Search messages' });
const appointmentSearch = (page: Page) => page.getByRole('search', { name: 'Search appointments' });
const card = (page: Page, email: string) => page.getByTestId('message-card').filter({ hasText: email });
const param = (page: Page, name: string) => new URL(page.url()).searchParams.get(name);

async function searchFor(form: Locator, text: string) {
  await form.getByRole('searchbox').fill(text);
  await form.getByRole('button', { name: 'Search' }).click();
}

/** The page's computed background colour of an element (the look of a primary versus an outline button). */
const background = (element: Locator) => element.evaluate((el) => getComputedStyle(el).backgroundColor);

describe('the inbox search', () => {
  it('finds a message by its text, keeps the search in the address across a reload, archives and unarchives it', async () => {
    const wanted = uniqueEmail('wanted');
    const other = uniqueEmail('other');
    await api(admin.context, 'POST', '/api/contact', { name: 'Wanda Wanted', email: wanted, message: `About the quarterly filing ${marker}, please call me.` });
    await api(admin.context, 'POST', '/api/contact', { name: 'Otto Other', email: other, message: 'A question about something else entirely.' });
    const { page, errors } = await signedInTab(admin);
    await card(page, other).waitFor();

    // The message's own words, in another case: one card, and the address says what was searched.
    await searchFor(inboxSearch(page), `FILING ${marker.toUpperCase()}`);
    await waitUntil(async () => (await card(page, other).count()) === 0 && (await card(page, wanted).count()) === 1, 'only the matching message');
    expect(param(page, 'inbox-q')).toBe(`FILING ${marker.toUpperCase()}`);
    expect(await page.getByTestId('inbox-result-count').textContent()).toBe(`1 message matches “FILING ${marker.toUpperCase()}”.`);
    await page.reload();
    await card(page, wanted).waitFor();
    expect(await card(page, other).count()).toBe(0);
    expect(await inboxSearch(page).getByRole('searchbox').inputValue()).toBe(`FILING ${marker.toUpperCase()}`);

    // Reply (in the app) is the main button, Reply via Email the outline one beside it.
    const reply = card(page, wanted).getByRole('button', { name: 'Reply', exact: true });
    const viaEmail = card(page, wanted).getByRole('link', { name: 'Reply via Email' });
    expect(await background(reply)).not.toBe('rgb(255, 255, 255)');
    expect(await background(viaEmail)).toBe('rgb(255, 255, 255)');
    expect(await reply.evaluate((el, link) => Boolean(el.compareDocumentPosition(link!) & Node.DOCUMENT_POSITION_FOLLOWING), await viaEmail.elementHandle())).toBe(true);

    // Archived: out of the inbox's view, found under "Archived", brought back.
    await card(page, wanted).getByRole('button', { name: 'Archive', exact: true }).click();
    await expectToastSaying(page, 'Message archived');
    await page.getByText(`No messages match “FILING ${marker.toUpperCase()}”.`).waitFor();
    await inboxSearch(page).getByLabel('Status').selectOption({ label: 'Archived' });
    await card(page, wanted).waitFor();
    expect(param(page, 'inbox-status')).toBe('archived');
    expect(await card(page, wanted).getAttribute('data-archived')).toBe('true');
    await card(page, wanted).getByRole('button', { name: 'Unarchive' }).click();
    await expectToastSaying(page, 'Message back in the inbox');
    await page.getByText(`No messages match “FILING ${marker.toUpperCase()}”.`).waitFor();
    await inboxSearch(page).getByLabel('Status').selectOption({ label: 'All but archived' });
    await card(page, wanted).waitFor();
    expect(param(page, 'inbox-status')).toBeNull();
    expect(await card(page, wanted).getAttribute('data-archived')).toBe('false');

    // Nothing found says so, not "No messages yet".
    await searchFor(inboxSearch(page), `nothing-like-${marker}`);
    await page.getByText(`No messages match “nothing-like-${marker}”.`).waitFor();
    expect(await page.getByText('No messages yet').count()).toBe(0);
    await page.getByRole('button', { name: 'Clear search and filters' }).click();
    await card(page, other).waitFor();
    expect(param(page, 'inbox-q')).toBeNull();
    expect(errors).toEqual([]);
    await page.close();
  });

  it('pages through the server, the page kept in the address', async () => {
    const { page } = await signedInTab(admin);
    const asked: string[] = [];
    // The server pages for real (tests/contact/inbox-search.worker.test.ts); here the answer claims
    // 120 matches so the pager shows without sending 120 messages through the form's daily cap.
    await page.route('**/api/admin/contact-messages/search*', async (route) => {
      asked.push(new URL(route.request().url()).searchParams.get('page') ?? '1');
      const res = await route.fetch();
      await route.fulfill({ response: res, json: { ...((await res.json()) as object), total: 120 } });
    });
    await page.goto('/admin');
    const pager = page.getByRole('navigation', { name: 'Message pages' });
    await pager.getByText('Showing 1–50 of 120').waitFor();
    await pager.getByRole('button', { name: 'Next' }).click();
    await pager.getByText('Showing 51–100 of 120').waitFor();
    expect(param(page, 'inbox-page')).toBe('2');
    await page.reload();
    await pager.getByText('Showing 51–100 of 120').waitFor();
    expect(asked.at(-1)).toBe('2');
    await pager.getByRole('button', { name: 'Previous' }).click();
    await pager.getByText('Showing 1–50 of 120').waitFor();
    expect(param(page, 'inbox-page')).toBeNull();
    await page.close();
  });

  it('marks a message read when the in-app reply is sent', async () => {
    const email = uniqueEmail('answer-me');
    await api(admin.context, 'POST', '/api/contact', { name: 'Rhea Reply', email, message: `Please answer me, ${marker}.` });
    const { page } = await signedInTab(admin, `/admin?inbox-q=${encodeURIComponent(email)}`);
    const c = card(page, email);
    await c.waitFor();
    expect(await c.getAttribute('data-unread')).toBe('true');
    await c.getByRole('button', { name: 'Reply', exact: true }).click();
    await c.getByLabel('Your reply to Rhea Reply').fill('Thank you, we will call you this afternoon.');
    await c.getByRole('button', { name: 'Send reply' }).click();
    await expectToastSaying(page, 'Reply sent', `Reply sent to ${email}`);
    await waitUntil(async () => (await c.getAttribute('data-unread')) === 'false', 'the message marked read', 15_000);
    await c.getByTestId('replied-badge').waitFor();
    await page.close();
  });

  it('looks right searched on a desktop and a phone (screenshots when ADMIN_SCREENSHOTS is set)', async () => {
    const email = uniqueEmail('shot');
    await api(admin.context, 'POST', '/api/contact', { name: 'Sasha Screenshot', email, phone: '(412) 555-0188', message: `Can you look at my estimated taxes for ${marker}?` });
    const { page } = await signedInTab(admin, `/admin?inbox-q=${marker}`);
    await card(page, email).waitFor();
    await page.getByRole('heading', { name: 'Contact Messages' }).scrollIntoViewIfNeeded();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    // No word broken inside: the Search button is one line at both widths.
    for (const [, viewport] of SCREEN_SIZES) {
      await page.setViewportSize(viewport);
      const button = inboxSearch(page).getByRole('button', { name: 'Search' });
      expect(await button.evaluate((el) => el.getBoundingClientRect().height)).toBeLessThanOrEqual(40);
      if (screenshotDir) await page.locator('section[aria-labelledby="messages-heading"]').screenshot({ path: `${screenshotDir}/inbox-search-section-${viewport.width}.png` });
    }
    await page.setViewportSize(DESKTOP);
    await saveScreensAtBothWidths(page, 'inbox-search');
    await page.close();
  });
});

describe('the appointments search', () => {
  it('finds an appointment by its notes and narrows it by status, the search in the address', async () => {
    const day = await bookableDay(30);
    const email = uniqueEmail('booker');
    const res = await admin.context.request.post('/api/appointments', {
      data: { name: 'Bea Booker', email, serviceType: 'Bookkeeping Services', date: day, notes: `Bring the ledger ${marker}` },
      headers: { origin: baseUrl() },
    });
    expect(res.ok()).toBe(true);
    const { page } = await signedInTab(admin);
    await searchFor(appointmentSearch(page), `ledger ${marker}`);
    const upcoming = page.getByRole('list', { name: 'Upcoming appointments' });
    await upcoming.getByTestId('appointment-card').filter({ hasText: email }).waitFor();
    // The previous page stays on screen until the search's answer replaces it: wait for the answer.
    await expect.poll(() => upcoming.getByTestId('appointment-card').count()).toBe(1);
    expect(param(page, 'appointments-q')).toBe(`ledger ${marker}`);
    // The inbox keeps its own search: none.
    expect(param(page, 'inbox-q')).toBeNull();

    await appointmentSearch(page).getByLabel('Status').selectOption({ label: 'Cancelled' });
    await page.getByText(`No upcoming cancelled appointments matching “ledger ${marker}”.`).waitFor();
    expect(param(page, 'appointments-status')).toBe('cancelled');
    await page.reload();
    await page.getByText(`No upcoming cancelled appointments matching “ledger ${marker}”.`).waitFor();
    await appointmentSearch(page).getByLabel('Status').selectOption({ label: 'Requested' });
    await upcoming.getByTestId('appointment-card').filter({ hasText: email }).waitFor();

    // A range of days that leaves it out, then one that holds it.
    await appointmentSearch(page).getByLabel('To').fill(await page.evaluate((d) => {
      const before = new Date(`${d}T12:00:00Z`);
      before.setUTCDate(before.getUTCDate() - 1);
      return before.toISOString().slice(0, 10);
    }, day));
    await page.getByText(`No upcoming requested appointments matching “ledger ${marker}” in these dates.`).waitFor();
    await appointmentSearch(page).getByLabel('To').fill(day);
    await upcoming.getByTestId('appointment-card').filter({ hasText: email }).waitFor();
    expect(param(page, 'appointments-to')).toBe(day);
    await page.close();
  });
});
