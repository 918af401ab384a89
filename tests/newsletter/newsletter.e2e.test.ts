import type { APIRequestContext, Page } from 'playwright-core';
import { request as playwrightRequest } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { browserPerFile, saveScreens, screenshotDir, waitUntil } from '../harness/e2e/admin-helpers';
import { latestEmail } from '../harness/e2e/admin-newsletter-helpers';
import { baseUrl, DESKTOP, expectToast, islandReady, newPage, PHONE } from '../harness/e2e/browser';

const shared = browserPerFile();
let admin: APIRequestContext;

beforeAll(async () => {
  admin = await playwrightRequest.newContext({ baseURL: baseUrl() });
  const login = await admin.post('/api/admin/login', { data: inject('admin') });
  expect(login.status()).toBe(200);
});

afterAll(async () => {
  await admin?.dispose();
});

/** The path the page is on now. */
const pathOf = (page: Page) => new URL(page.url()).pathname;

/**
 * The newest e-mail of `kind` to the address, whole, from the stack's mailbox (the e-mail log
 * keeps it without its links' tokens): waits for it, since it is delivered after the answer.
 */
async function mailTo(address: string, kind: string) {
  let mail: ReturnType<typeof latestEmail>;
  await waitUntil(async () => (mail = latestEmail(address, kind)) !== undefined, `the ${kind} e-mail`);
  return mail!;
}

/** A link from an e-mail, as a path on the server under test (SITE_URL in .dev.vars may name another port). */
function localPath(link: string): string {
  const url = new URL(link.replace(/&amp;/g, '&'));
  return `${url.pathname}${url.search}`;
}

async function subscriberStatus(address: string): Promise<string | undefined> {
  const list = (await (await admin.get('/api/admin/subscribers')).json()) as { email: string; status: string }[];
  return list.find((s) => s.email === address)?.status;
}

describe('newsletter: subscribe -> confirm -> unsubscribe through the stored e-mails', () => {
  it('a visitor signs up in the footer, confirms by e-mail, and unsubscribes from the newsletter link', async () => {
    const address = `visitor-${Date.now()}@example.com`;
    const { page, context, errors } = await newPage(shared.browser);
    await page.goto('/');
    const form = page.getByRole('form', { name: 'Newsletter sign-up' });
    await islandReady(page, 'newsletter-signup');

    // Validation message of docs/product.md §9.
    await form.getByPlaceholder('Your email').fill('not-an-email');
    await form.getByRole('button', { name: 'Subscribe' }).click();
    await expect.poll(() => form.getByText('Please enter a valid email address').isVisible()).toBe(true);

    await form.getByPlaceholder('Your email').fill(address);
    await form.getByPlaceholder('Your name (optional)').fill('Vera Visitor');
    await form.getByRole('button', { name: 'Subscribe' }).click();
    await expectToast(page, 'Almost there!', 'Please check your inbox');
    expect(await form.getByPlaceholder('Your email').inputValue()).toBe('');
    await saveScreens(page, 'newsletter-footer-desktop');
    expect(await subscriberStatus(address)).toBe('pending');

    // The confirmation e-mail's link opens a page that changes nothing (link scanners open links);
    // its button confirms.
    const confirmation = await mailTo(address, 'newsletter-confirmation');
    expect(confirmation.subject).toContain('confirm');
    const confirmLink = /(https?:\/\/\S+\/newsletter\/confirm\?token=\S+)/.exec(confirmation.text)![1];
    expect(new URL(confirmLink).pathname).toBe('/newsletter/confirm');
    await page.goto(localPath(confirmLink));
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Confirm Your Subscription');
    await page.waitForLoadState('networkidle');
    expect(await subscriberStatus(address)).toBe('pending');
    await saveScreens(page, 'newsletter-confirm-desktop');
    await page.getByRole('button', { name: 'Confirm subscription' }).click();
    await expect.poll(() => pathOf(page)).toBe('/newsletter/confirmed');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Subscription Confirmed');
    await saveScreens(page, 'newsletter-confirmed-desktop');
    expect(await subscriberStatus(address)).toBe('active');

    // The admin sends a newsletter; the visitor's copy carries a personal unsubscribe link.
    const sent = await admin.post('/api/admin/send-newsletter', { data: { subject: `E2E issue ${Date.now()}`, content: '<p>Hello <strong>subscribers</strong></p>' } });
    expect(sent.status()).toBe(200);
    const issue = await mailTo(address, 'newsletter');
    expect(issue.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    const unsubscribeLink = /href="([^"]+\/newsletter\/unsubscribe\?token=[^"]+)"/.exec(issue.html!)![1];

    // Opening the link changes nothing: it asks first.
    await page.goto(localPath(unsubscribeLink));
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Unsubscribe from Our Newsletter?');
    await expect.poll(() => page.getByText(/v\*\*\*@example\.com/).isVisible()).toBe(true);
    expect(await subscriberStatus(address)).toBe('active');
    await saveScreens(page, 'newsletter-unsubscribe-desktop');

    await page.getByRole('button', { name: 'Unsubscribe' }).click();
    await expect.poll(() => pathOf(page)).toBe('/newsletter/unsubscribed');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('You Have Been Unsubscribed');
    expect(await subscriberStatus(address)).toBe('unsubscribed');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a bad link shows the invalid-link page', async () => {
    const { page, context } = await newPage(shared.browser, PHONE);
    await page.goto('/newsletter/unsubscribe?token=not-a-real-token');
    await expect.poll(() => pathOf(page)).toBe('/newsletter/invalid-link');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('This Link Is Invalid or Has Expired');
    await saveScreens(page, 'newsletter-invalid-phone');
    // A link of the old form (/api/newsletter/confirm) leads to the page; a forged token is refused at the button.
    await page.goto('/api/newsletter/confirm?token=forged');
    // The page takes the token out of its address (no token for analytics to read) and keeps it for the button.
    await expect.poll(() => `${pathOf(page)}${new URL(page.url()).search}`).toBe('/newsletter/confirm');
    await page.getByRole('button', { name: 'Confirm subscription' }).click();
    await expect.poll(() => pathOf(page)).toBe('/newsletter/invalid-link');
    await context.close();
  });

  it('the footer form fits a phone', async () => {
    const { page, context } = await newPage(shared.browser, PHONE);
    await page.goto('/');
    const form = page.getByRole('form', { name: 'Newsletter sign-up' });
    await form.scrollIntoViewIfNeeded();
    if (screenshotDir) await form.screenshot({ path: `${screenshotDir}/newsletter-footer-phone.png` });
    const box = await form.boundingBox();
    expect(box!.width).toBeLessThanOrEqual(PHONE.width);
    await context.close();
    void DESKTOP;
  });
});
