import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api, browserPerFile } from '../harness/e2e/admin-helpers';
import { confirmedSubscriber } from '../harness/e2e/admin-newsletter-helpers';
import { firmDay } from '../harness/e2e/booking-helpers';
import { baseUrl, fetchNotFoundPage, newPage, PHONE } from '../harness/e2e/browser';

// The public newsletter archive (docs/product.md §5.7): /newsletter lists the issues that went out,
// /newsletter/:id shows one (served by the worker: a real 404 for an unknown id), the footer links
// to it and the sitemap lists it. Screenshots go to /tmp/a-archive/.

const SHOTS = '/tmp/a-archive';

const shared = browserPerFile();
let admin: BrowserContext;
let issue: { id: number; subject: string };

beforeAll(async () => {
  admin = await shared.browser.newContext({ baseURL: baseUrl() });
  await api(admin, 'POST', '/api/admin/login', inject('admin'));
  // A newsletter sent the way the admin sends one, to a subscriber who confirmed by e-mail.
  await confirmedSubscriber(admin, 'Archive Reader');
  const subject = `Archive issue ${Date.now()} & "friends"`;
  const sent = await api<{ newsletterId: number; status: string }>(admin, 'POST', '/api/admin/send-newsletter', {
    subject,
    content: '<h2>Year-end moves</h2><p>Harvest losses before December 31.</p><p><a href="https://www.irs.gov/">IRS</a></p>',
  });
  expect(sent.status).toBe('sent');
  issue = { id: sent.newsletterId, subject };
});

afterAll(async () => {
  await admin?.close();
});

describe('the newsletter archive', () => {
  it('lists the sent issue newest first, linked to its page, at desktop and phone width', async () => {
    const firmToday = firmDay(0);
    for (const [label, viewport] of [['1280', undefined], ['390', PHONE]] as const) {
      const { page, context, errors } = await newPage(shared.browser, viewport);
      const res = await page.goto('/newsletter');
      expect(res!.status()).toBe(200);
      expect(await page.title()).toBe('Newsletter Archive | Northgate CPA');
      const link = page.getByRole('link', { name: new RegExp(issue.subject.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) });
      await link.waitFor();
      // Newest first: the issue just sent heads the list.
      expect(await page.getByRole('region', { name: 'Past issues' }).getByRole('link').first().getAttribute('href')).toBe(`/newsletter/${issue.id}`);
      // Dated by the firm's day (sent just now), written out in full.
      const sent = link.locator('time');
      expect(await sent.getAttribute('datetime')).toBe(firmToday);
      const [year, month, day] = firmToday.split('-').map(Number);
      expect(await sent.textContent()).toBe(new Date(Date.UTC(year, month - 1, day)).toLocaleDateString('en-US', { dateStyle: 'long', timeZone: 'UTC' }));
      await page.screenshot({ path: `${SHOTS}/newsletter-archive-${label}.png`, fullPage: true });
      expect(errors).toEqual([]);
      await context.close();
    }
  });

  it('shows the issue on its own page: titled in the first response, sanitised, no personal links', async () => {
    const first = await fetch(`${baseUrl()}/newsletter/${issue.id}`);
    expect(first.status).toBe(200);
    const html = await first.text();
    expect(html).toContain(`<title>${issue.subject.replace(/&/g, '&amp;')} | Northgate CPA</title>`);
    expect(html).toContain(`data-prerendered="/newsletter/${issue.id}"`);
    expect(html).toContain('<meta name="description" content="Year-end moves Harvest losses before December 31. IRS" />');
    expect(html).toMatch(new RegExp(`<link rel="canonical" href="https?://[^"]+/newsletter/${issue.id}" />`));

    for (const [label, viewport] of [['1280', undefined], ['390', PHONE]] as const) {
      const { page, context, errors } = await newPage(shared.browser, viewport);
      await page.goto('/newsletter');
      await page.getByRole('link', { name: /Archive issue/ }).first().click();
      await page.waitForURL(`**/newsletter/${issue.id}`);
      await page.getByRole('heading', { level: 1, name: issue.subject }).waitFor();
      expect(await page.title()).toBe(`${issue.subject} | Northgate CPA`);
      const frame = page.locator('iframe');
      expect(await frame.getAttribute('sandbox')).toBe('allow-top-navigation-by-user-activation allow-popups allow-popups-to-escape-sandbox');
      const srcdoc = (await frame.getAttribute('srcdoc'))!;
      expect(srcdoc).toContain('<h2>Year-end moves</h2>');
      expect(srcdoc).not.toMatch(/unsubscribe|token=|@example\.com/i);
      await page.frameLocator('iframe').getByText('Harvest losses before December 31.').waitFor();
      await page.screenshot({ path: `${SHOTS}/newsletter-issue-${label}.png`, fullPage: true });

      // Loaded directly, the prerendered shell hydrates in place (no mismatch on the console).
      await page.goto(`/newsletter/${issue.id}`);
      await page.getByRole('heading', { level: 1, name: issue.subject }).waitFor();
      expect(errors).toEqual([]);
      await context.close();
    }
  });

  it('answers an unknown issue with status 404 and the 404 page, and keeps the e-mail link pages', async () => {
    for (const path of ['/newsletter/987654321', '/newsletter/issue-shell']) {
      await fetchNotFoundPage(path);
    }
    const { page, context, errors } = await newPage(shared.browser);
    const res = await page.goto('/newsletter/987654321');
    expect(res!.status()).toBe(404);
    await page.getByRole('heading', { level: 1, name: '404 Page Not Found' }).waitFor();
    await page.screenshot({ path: `${SHOTS}/newsletter-issue-404-1280.png` });
    // The browser reports the document's own 404 on the console; nothing else may appear.
    expect(errors.filter((e) => !e.includes('status of 404'))).toEqual([]);

    // Static pages under /newsletter/ still win over :id.
    const confirmed = await page.goto('/newsletter/confirmed');
    expect(confirmed!.status()).toBe(200);
    await page.getByRole('heading', { level: 1, name: 'Subscription Confirmed' }).waitFor();
    await context.close();
  });

  it('is linked from the footer ("Past issues") and listed in the sitemap', async () => {
    const { page, context, errors } = await newPage(shared.browser, PHONE);
    await page.goto('/');
    const footerLink = page.locator('footer').getByRole('link', { name: 'Past issues' });
    await footerLink.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/footer-past-issues-390.png` });
    await footerLink.click();
    await page.waitForURL('**/newsletter');
    await page.getByRole('heading', { level: 1, name: 'Newsletter Archive' }).waitFor();
    expect(errors).toEqual([]);
    await context.close();

    const sitemap = await fetch(`${baseUrl()}/sitemap.xml`);
    expect(sitemap.status).toBe(200);
    expect(sitemap.headers.get('content-type')).toContain('application/xml');
    const xml = await sitemap.text();
    expect(xml).toMatch(/<loc>https?:\/\/[^<]+\/newsletter<\/loc>/);
    expect(xml).toMatch(new RegExp(`<loc>https?://[^<]+/newsletter/${issue.id}</loc>`));
    expect(xml).toMatch(/<loc>https?:\/\/[^<]+\/services<\/loc>/);
  });
});
