import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { publicContentSecurityPolicy } from '../../worker/middleware/security-headers';
import { browserPerFile, uniqueEmail, waitUntil } from '../harness/e2e/admin-helpers';
import { latestEmailBody } from '../harness/e2e/admin-newsletter-helpers';
import { bookableDay } from '../harness/e2e/booking-helpers';
import { baseUrl, DESKTOP, newPage } from '../harness/e2e/browser';

// With Tag Manager configured and consent given, gtm.js once ran on the pages whose address
// carries a live token (the e-mail links), so analytics stored bearer tokens. The page takes the
// token out of its address before anything can load analytics, and still works with it.

const shared = browserPerFile();

/** The link labelled so in the newest e-mail of this kind to the address, as a path with its query. */
async function linkFromEmail(to: string, kind: string, pattern: RegExp): Promise<{ path: string; token: string }> {
  let body: string | undefined;
  await waitUntil(async () => (body = latestEmailBody(to, kind)) !== undefined, `the ${kind} e-mail`);
  const url = new URL(pattern.exec(body!)?.[1] ?? '');
  return { path: url.pathname + url.search, token: url.searchParams.get('token')! };
}

async function post(path: string, body: unknown) {
  const res = await fetch(`${baseUrl()}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'cf-connecting-ip': '198.51.100.97', origin: baseUrl() },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
}

/** What Tag Manager could have seen: its request, and the page's address and data layer when its script tag went in and when it ran. */
type Seen = { requests: { url: string; referer: string }[] };

/**
 * A visitor who has accepted cookies, on a site with a container configured: the site-config
 * answer names one and the pages carry the CSP a configured build writes. gtm.js is answered
 * with a stand-in that records what it sees; a MutationObserver records the address and the data
 * layer at the moment the script tag is inserted.
 */
async function consentedVisitor(): Promise<{ page: Page; context: BrowserContext; seen: Seen }> {
  const { page, context } = await newPage(shared.browser, DESKTOP);
  const seen: Seen = { requests: [] };
  await context.addInitScript(() => {
    localStorage.setItem('cookieConsent', 'true');
    const w = window as unknown as { __atInsert?: { href: string; dataLayer: string } };
    new MutationObserver((records) => {
      for (const record of records)
        for (const node of record.addedNodes)
          if (node instanceof HTMLScriptElement && node.src.includes('googletagmanager.com') && !w.__atInsert)
            w.__atInsert = { href: location.href, dataLayer: JSON.stringify(window.dataLayer ?? []) };
    }).observe(document, { childList: true, subtree: true });
  });
  await context.route('**/api/site-config', (route) => route.fulfill({ json: { gtmId: 'GTM-TEST123', turnstileSiteKey: null } }));
  const local = new URL(baseUrl());
  await context.route(
    (url) => url.host === local.host && !url.pathname.startsWith('/api/') && !url.pathname.startsWith('/assets/'),
    async (route) => {
      const response = await route.fetch();
      await route.fulfill({ response, headers: { ...response.headers(), 'content-security-policy': publicContentSecurityPolicy({ tagManager: true }) } });
    },
  );
  await context.route(
    (url) => url.host !== local.host,
    async (route) => {
      const request = route.request();
      seen.requests.push({ url: request.url(), referer: (await request.allHeaders()).referer ?? '' });
      if (!request.url().startsWith('https://www.googletagmanager.com/gtm.js')) return route.fulfill({ status: 204 });
      // The stand-in container: what a real one reads first, the address and the data layer.
      await route.fulfill({
        contentType: 'text/javascript',
        body: 'window.__gtmSaw = { href: location.href, referrer: document.referrer, dataLayer: JSON.stringify(window.dataLayer || []) };',
      });
    },
  );
  return { page, context, seen };
}

/** Everything Tag Manager saw on this page, as text, once it has run. */
async function whatTagManagerSaw(page: Page, seen: Seen): Promise<string> {
  await page.waitForFunction(() => 'dataLayer' in window && (window as unknown as { __gtmSaw?: unknown }).__gtmSaw !== undefined, undefined, { timeout: 30_000 });
  const inPage = await page.evaluate(() => {
    const w = window as unknown as { __gtmSaw: unknown; __atInsert: unknown; dataLayer: unknown };
    return { ran: w.__gtmSaw, inserted: w.__atInsert, dataLayer: JSON.stringify(w.dataLayer) };
  });
  expect(inPage.inserted).toBeTruthy();
  expect(seen.requests.map((r) => r.url)).toContain('https://www.googletagmanager.com/gtm.js?id=GTM-TEST123');
  return JSON.stringify({ inPage, requests: seen.requests });
}

describe('the e-mail links keep their tokens from analytics', () => {
  it('the Cancel page: no token in the address once loaded, none seen by Tag Manager, and the page still cancels', async () => {
    const email = uniqueEmail('token-analytics');
    const date = await bookableDay(43, { slots: ['11:00 AM'] });
    await post('/api/appointments', { name: 'Robin Visitor', email, serviceType: 'Tax Planning Consultation', date, timeSlot: '11:00 AM' });
    const link = await linkFromEmail(email, 'appointment-confirmation', /^Cancel: (\S+)$/m);
    expect(link.path).toMatch(/^\/appointment\/cancel\?token=/);

    const { page, context, seen } = await consentedVisitor();
    await page.goto(link.path);
    await page.getByRole('heading', { name: 'Cancel Your Appointment?' }).waitFor({ timeout: 30_000 });
    expect(await page.evaluate(() => location.search)).toBe('');
    expect(page.url()).toBe(`${baseUrl()}/appointment/cancel`);
    const saw = await whatTagManagerSaw(page, seen);
    expect(saw).toContain('/appointment/cancel');
    expect(saw).not.toContain(link.token);
    expect(saw).not.toContain('token=');

    // The token was kept in memory: the button still works.
    await page.getByRole('button', { name: 'Cancel appointment' }).click();
    await page.getByRole('heading', { name: 'Your appointment is cancelled' }).waitFor({ timeout: 30_000 });
    await context.close();
  });

  it('the newsletter confirmation page: the same, and the button still confirms', async () => {
    const email = uniqueEmail('token-analytics-news');
    await post('/api/newsletter/subscribe', { email });
    const link = await linkFromEmail(email, 'newsletter-confirmation', /(https?:\/\/\S+\/newsletter\/confirm\?token=\S+)/);

    const { page, context, seen } = await consentedVisitor();
    await page.goto(link.path);
    await page.getByRole('button', { name: 'Confirm subscription' }).waitFor({ timeout: 30_000 });
    expect(await page.evaluate(() => location.search)).toBe('');
    const saw = await whatTagManagerSaw(page, seen);
    expect(saw).toContain('/newsletter/confirm');
    expect(saw).not.toContain(link.token);
    expect(saw).not.toContain('token=');

    await page.getByRole('button', { name: 'Confirm subscription' }).click();
    await page.waitForURL('**/newsletter/confirmed', { timeout: 30_000 });
    await context.close();
  });
});
