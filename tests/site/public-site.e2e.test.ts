import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faqItems } from '#core/content/faq';
import { stateRefundLinks, statesWithoutRefundLink } from '#core/content/states';
import { taxFacts } from '#core/content/tax-facts';
import { testimonials } from '#core/content/testimonials';
import { publicContentSecurityPolicy } from '../../worker/middleware/security-headers';
import { baseUrl, DESKTOP, expectToast, fetchNotFoundPage, islandReady, launchBrowser, newPage, PHONE } from '../harness/e2e/browser';

// Every visitor-facing route (contact and schedule are built by the booking issue, but their
// prerendering, headings and accessibility are checked here with the rest of the public site).
const PUBLIC_ROUTES: Array<{ path: string; h1: string; title: string }> = [
  { path: '/', h1: 'Tax and accounting expertise you can count on', title: 'CPA Firm in Warrendale, PA' },
  { path: '/services', h1: 'Our Services', title: 'Services' },
  { path: '/about', h1: 'About Northgate CPA', title: 'About Us' },
  { path: '/resources', h1: 'Tax Resources', title: 'Tax Resources' },
  { path: '/faq', h1: 'Frequently Asked Questions', title: 'Frequently Asked Questions' },
  { path: '/contact', h1: '', title: 'Contact' },
  { path: '/schedule', h1: '', title: '' },
  { path: '/privacy-policy', h1: 'Privacy Policy', title: 'Privacy Policy' },
  { path: '/payment-success', h1: 'Payment Successful', title: 'Payment Successful' },
  { path: '/payment-cancelled', h1: 'Payment Cancelled', title: 'Payment Cancelled' },
];

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

/** A page whose external links (IRS, state sites, Google) answer locally: tests never reach the internet. */
async function offlinePage(viewport = DESKTOP) {
  const opened = await newPage(browser, viewport);
  await blockExternal(opened.context);
  return opened;
}

/** A fresh offline page at `path`, its islands hydrated. */
async function openHydrated(path: string, viewport = DESKTOP) {
  const opened = await offlinePage(viewport);
  await opened.page.goto(path);
  await hydrated(opened.page);
  return opened;
}

async function blockExternal(context: BrowserContext) {
  const local = new URL(baseUrl());
  await context.route(
    (url) => url.host !== local.host,
    (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<title>external</title>' }),
  );
}

async function acceptCookies(page: Page) {
  await page.getByRole('button', { name: 'Accept' }).click();
}

const dataLayer = (page: Page) => page.evaluate(() => (window.dataLayer ?? []) as Array<Record<string, unknown>>);

/** Waits until the page is hydrated: the prerendered markup answers clicks only after that. */
async function hydrated(page: Page) {
  // Generous: on a busy machine hydration can take seconds (expect.poll's default is 1 s).
  await expect.poll(() => page.evaluate(() => (window.dataLayer ?? []).some((e) => e.event === 'pageview')), { timeout: 20_000 }).toBe(true);
}

describe('prerendered HTML (fetched without JavaScript)', () => {
  it('carries each public route its own title, description, canonical, Open Graph tags and h1', async () => {
    for (const route of PUBLIC_ROUTES) {
      const res = await fetch(`${baseUrl()}${route.path}`);
      expect(res.status, route.path).toBe(200);
      const html = await res.text();
      const title = /<title>([^<]*)<\/title>/.exec(html)?.[1] ?? '';
      expect(title, route.path).toMatch(/\| Northgate CPA$/);
      if (route.title) expect(title, route.path).toContain(route.title.replace('&', '&amp;'));
      expect(html, route.path).toMatch(/<meta name="description" content="[^"]{30,}"/);
      expect(html, route.path).toContain(`<link rel="canonical" href="https://www.northgatecpa.example${route.path}"`);
      expect(html, route.path).toMatch(/<meta property="og:title" content="[^"]+"/);
      expect(html, route.path).toContain(`data-prerendered="${route.path}"`);
      const h1s = [...html.matchAll(/<h1[^>]*>([\s\S]*?)<\/h1>/g)].map((m) => m[1].replace(/<[^>]+>/g, '').replace(/&amp;/g, '&'));
      expect(h1s.length, `${route.path} has one h1`).toBe(1);
      if (route.h1) expect(h1s[0], route.path).toBe(route.h1);
      // Only one <title> and one description: the default ones were replaced, not duplicated.
      expect(html.match(/<title>/g)?.length, route.path).toBe(1);
      expect(html.match(/<meta name="description"/g)?.length, route.path).toBe(1);
      // The W3C Nu checker's one error: aria-label is not allowed on a span with no role.
      expect(html.match(/<span\b(?![^>]*\brole=)[^>]*\baria-label=[^>]*>/g) ?? [], route.path).toEqual([]);
    }
  });

  it('embeds AccountingService/LocalBusiness data (founded 2020) on the home page and FAQPage data on the FAQ', async () => {
    const jsonLd = async (path: string) => {
      const html = await (await fetch(`${baseUrl()}${path}`)).text();
      const block = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html)?.[1];
      expect(block, path).toBeTruthy();
      return JSON.parse(block!) as Record<string, unknown>;
    };
    const business = await jsonLd('/');
    expect(business['@type']).toEqual(['AccountingService', 'LocalBusiness']);
    expect(business.foundingDate).toBe('2020');
    expect((business.address as Record<string, string>).addressLocality).toBe('Warrendale');
    const faq = await jsonLd('/faq');
    expect(faq['@type']).toBe('FAQPage');
    expect((faq.mainEntity as unknown[]).length).toBe(12);
  });

  it('serves sitemap.xml with the public pages and robots.txt that keeps crawlers out of admin', async () => {
    const sitemap = await (await fetch(`${baseUrl()}/sitemap.xml`)).text();
    for (const path of ['/', '/services', '/about', '/resources', '/faq', '/contact', '/schedule', '/privacy-policy']) {
      expect(sitemap).toContain(`<loc>https://www.northgatecpa.example${path}</loc>`);
    }
    expect(sitemap).not.toContain('/admin');
    const robots = await (await fetch(`${baseUrl()}/robots.txt`)).text();
    expect(robots).toMatch(/^Disallow: \/admin$/m);
    expect(robots).toContain('Sitemap: https://www.northgatecpa.example/sitemap.xml');
  });

  it('serves admin screens as an empty, noindex shell rather than the home page', async () => {
    const html = await (await fetch(`${baseUrl()}/admin`)).text();
    expect(html).toContain('<meta name="robots" content="noindex" />');
    expect(html).toContain('<div id="root"></div>');
  });
});

describe('hydration and loading', () => {
  it('hydrates every public route without a warning or error, at phone and desktop width', async () => {
    for (const viewport of [DESKTOP, PHONE]) {
      const { page, errors, context } = await offlinePage(viewport);
      // Counts nodes removed from #root: the page outside its islands is never re-rendered (and a
      // failed island hydration is reported on the console, checked below).
      await page.addInitScript(() => {
        const w = window as unknown as { rootRemovals: number };
        w.rootRemovals = 0;
        new MutationObserver((records) => {
          for (const record of records) if ((record.target as Element).id === 'root') w.rootRemovals += record.removedNodes.length;
        }).observe(document, { childList: true, subtree: true });
      });
      for (const route of PUBLIC_ROUTES) {
        await page.goto(route.path);
        await hydrated(page);
        await page.waitForLoadState('networkidle');
        expect(await page.evaluate(() => (window as unknown as { rootRemovals: number }).rootRemovals), route.path).toBe(0);
        expect(await page.locator('h1').count(), route.path).toBe(1);
      }
      // The prerendered 404 page hydrates in place too, on any unknown path.
      await page.goto('/unknown-path');
      await hydrated(page);
      await page.waitForLoadState('networkidle');
      expect(await page.evaluate(() => (window as unknown as { rootRemovals: number }).rootRemovals), '/unknown-path').toBe(0);
      // The check can fail: an island whose HTML is not what its component renders (here the
      // header's "Get Started" altered in the served page) is reported and rendered afresh.
      const homeHtml = (await (await fetch(`${baseUrl()}/`)).text()).replace('>Get Started</a>', '>Get Going</a>');
      await page.route('**/about', (route) => route.fulfill({ status: 200, contentType: 'text/html', body: homeHtml }));
      await page.goto('/about');
      await expect.poll(() => errors.some((e) => e.includes('Island "header" could not be hydrated'))).toBe(true);
      await expect.poll(() => page.locator('header').textContent()).toContain('Get Started');
      expect(await page.locator('header').textContent()).not.toContain('Get Going');
      await page.unroute('**/about');
      errors.splice(0, errors.length, ...errors.filter((e) => !e.includes('could not be hydrated')));
      // The browser reports the unknown path's own 404 status on the console; nothing else may.
      expect(errors.filter((e) => !e.includes('status of 404'))).toEqual([]);
      await context.close();
    }
  }, 180_000);

  it('never downloads admin code, nor any third-party script before cookie consent, on a public page', async () => {
    const { page, context } = await offlinePage();
    const scripts: string[] = [];
    const external: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.host !== new URL(baseUrl()).host) external.push(request.url());
      else if (request.resourceType() === 'script') scripts.push(url.pathname);
    });
    for (const route of PUBLIC_ROUTES) {
      await page.goto(route.path);
      await hydrated(page);
      await page.waitForLoadState('networkidle');
    }
    expect(external.filter((url) => !url.startsWith('https://www.google.com/maps'))).toEqual([]);
    // Client-side navigation through the menu must not pull admin code either.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Services' }).click();
    await page.waitForLoadState('networkidle');
    expect(scripts.length).toBeGreaterThan(5);
    expect(scripts.filter((path) => /admin/i.test(path))).toEqual([]);

    // ...while the admin screen does load its own chunk (so the check above can fail).
    await page.goto('/admin');
    await page.waitForLoadState('networkidle');
    expect(scripts.some((path) => /admin/i.test(path))).toBe(true);
    await context.close();
  }, 120_000);

  it('answers unknown paths with status 404 and the prerendered 404 page, never the home page first', async () => {
    for (const path of ['/no-such-page', '/this/page/does-not-exist', '/services/extra', '/admin/no-such-screen']) {
      // The first response already is the 404 page: header, footer, a way home, noindex.
      const html = await fetchNotFoundPage(path);
      expect(html, path).toContain('>404 Page Not Found</h1>');
      expect(html, path).toContain('Return to Home');
      expect(html, path).toContain('<header');
      expect(html, path).toContain('<footer');
      expect(html, path).not.toContain(PUBLIC_ROUTES[0].h1);
      expect(html, path).not.toContain('rel="canonical"');
    }
    const api = await fetch(`${baseUrl()}/api/no-such-endpoint`);
    expect(api.status).toBe(404);
    expect(api.headers.get('content-type')).toContain('application/json');
  });

  it('shows the 404 page for unknown paths, hydrated in place, titled and with a way home', async () => {
    const { page, context, errors } = await offlinePage();
    const response = await page.goto('/this/page/does-not-exist');
    expect(response?.status()).toBe(404);
    await hydrated(page);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('404 Page Not Found');
    await expect.poll(() => page.title()).toBe('404 Page Not Found | Northgate CPA');
    // Hydrated, not replaced: the prerendered container keeps its marker.
    expect(await page.locator('#root').getAttribute('data-prerendered')).toBe('*');
    expect(await page.locator('h1').count()).toBe(1);
    await page.getByRole('link', { name: 'Return to Home' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(PUBLIC_ROUTES[0].h1);
    // The browser reports the document's own 404 status on the console; nothing else may.
    expect(errors.filter((e) => !e.includes('status of 404'))).toEqual([]);
    await context.close();
  });

  it('loads every client-only screen on a direct visit and on reload', async () => {
    const { page, context, errors } = await offlinePage();
    // [path, title on a direct visit, title on reload when it differs]. A token page takes the token
    // out of its address as it opens (web/lib/link-token.ts, docs/product.md §12), so its reload
    // has no token: the confirm page then says the link is invalid. Its prerendered title is the
    // confirm page's until the script has read the address, so the reload waits for the final one.
    const screens: Array<[string, string | RegExp, (string | RegExp)?]> = [
      ['/admin', 'Admin Panel | Northgate CPA'],
      ['/admin/login', /\| Northgate CPA$/],
      ['/admin/subscribers', 'Newsletter Subscribers | Northgate CPA'],
      ['/newsletter/confirm?token=not-checked-until-pressed', 'Confirm Subscription | Northgate CPA', 'Link Invalid or Expired | Northgate CPA'],
      ['/newsletter/confirmed', 'Subscription Confirmed | Northgate CPA'],
      ['/newsletter/unsubscribe?token=not-a-real-token', 'Link Invalid or Expired | Northgate CPA'],
      ['/newsletter/unsubscribed', /\| Northgate CPA$/],
      ['/newsletter/invalid-link', 'Link Invalid or Expired | Northgate CPA'],
    ];
    for (const [path, directTitle, reloadTitle = directTitle] of screens) {
      for (const visit of ['direct', 'reload'] as const) {
        const response = visit === 'direct' ? await page.goto(path) : await page.reload();
        expect(response?.status(), `${visit} ${path}`).toBe(200);
        const title = visit === 'direct' ? directTitle : reloadTitle;
        await expect.poll(() => page.title(), { message: `${visit} ${path}`, timeout: 20_000 }).toMatch(typeof title === 'string' ? new RegExp(`^${title.replace(/[|]/g, '\\|')}$`) : title);
        expect(await page.getByRole('heading', { name: '404 Page Not Found' }).count(), `${visit} ${path}`).toBe(0);
      }
    }
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('home page', () => {
  const visibleReview = (page: Page) => page.locator('[data-testid="testimonial-slide"][aria-hidden="false"] blockquote').textContent();
  const reviewText = (index: number) => testimonials[index].text;

  it('shows the hero trust labels, three service cards and the Connect With Us links', async () => {
    const { page, context } = await offlinePage();
    await page.goto('/');
    for (const label of ['Certified Public Accountant', 'Licensed & Insured', 'Nationwide Service']) {
      expect(await page.getByText(label, { exact: true }).isVisible()).toBe(true);
    }
    const services = page.getByRole('region', { name: 'Our Services' }).getByRole('link');
    expect(await services.count()).toBe(3);
    for (const href of await services.evaluateAll((links) => links.map((a) => a.getAttribute('href')))) expect(href).toBe('/services');
    for (const point of ['Expertise', 'Personalized Service', 'Modern Approach']) {
      expect(await page.getByRole('heading', { name: point, exact: true }).count()).toBe(1);
    }
    const social = page.getByRole('region', { name: 'Connect With Us' }).getByRole('link');
    expect(await social.count()).toBe(4);
    expect(await page.getByRole('link', { name: /Read more reviews on Google/ }).getAttribute('target')).toBe('_blank');
    await context.close();
  });

  it('orders the sections as docs/product.md §1.3 lists them: Connect With Us before the testimonials', async () => {
    const { page, context } = await offlinePage();
    await page.goto('/');
    const sections = (await page.locator('main h2').allTextContents()).map((t) => t.trim());
    const order = ['Our Services', 'Why Choose', 'Connect With Us', 'What Our Clients Say'].map((title) => sections.findIndex((h) => h.startsWith(title)));
    expect(order.every((i) => i >= 0)).toBe(true);
    expect(order).toEqual([...order].sort((x, y) => x - y));
    await context.close();
  });

  it('moves the testimonials carousel with wrap-around previous/next and dots', async () => {
    const { page, context } = await openHydrated('/');
    await islandReady(page, 'testimonials');
    expect(await page.locator('[data-testid="testimonial-slide"]').count()).toBe(6);
    expect(await visibleReview(page)).toContain(reviewText(0));

    await page.getByRole('button', { name: 'Previous testimonial' }).click();
    await expect.poll(() => visibleReview(page)).toContain(reviewText(5));
    await page.getByRole('button', { name: 'Next testimonial' }).click();
    await expect.poll(() => visibleReview(page)).toContain(reviewText(0));
    for (let i = 1; i <= 5; i++) await page.getByRole('button', { name: 'Next testimonial' }).click();
    await expect.poll(() => visibleReview(page)).toContain(reviewText(5));
    await page.getByRole('button', { name: 'Next testimonial' }).click();
    await expect.poll(() => visibleReview(page)).toContain(reviewText(0));

    await page.getByRole('button', { name: 'Go to testimonial 4' }).click();
    await expect.poll(() => visibleReview(page)).toContain(reviewText(3));
    expect(await page.getByRole('button', { name: 'Go to testimonial 4' }).getAttribute('aria-current')).toBe('true');
    expect(await page.getByRole('button', { name: 'Go to testimonial 1' }).getAttribute('aria-current')).toBeNull();

    // Keyboard: arrow keys move the carousel once focus is inside it.
    await page.getByRole('button', { name: 'Go to testimonial 4' }).focus();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => visibleReview(page)).toContain(reviewText(4));

    // The slide animation takes 500 ms (docs/product.md §1.3).
    const duration = await page.locator('[data-testid="testimonial-slide"]').first().evaluate((el) => getComputedStyle(el.parentElement!).transitionDuration);
    expect(duration).toBe('0.5s');
    await context.close();
  });

  it('hides previous/next on a phone, keeps the dots, and drops the animation for reduced motion', async () => {
    const { page, context } = await offlinePage(PHONE);
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.goto('/');
    await hydrated(page);
    await islandReady(page, 'testimonials');
    expect(await page.getByRole('button', { name: 'Next testimonial' }).isVisible()).toBe(false);
    expect(await page.getByRole('button', { name: 'Previous testimonial' }).isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Go to testimonial 6' }).click();
    await expect.poll(() => visibleReview(page)).toContain(reviewText(5));
    const transition = await page.locator('[data-testid="testimonial-slide"]').first().evaluate((el) => getComputedStyle(el.parentElement!).transitionProperty);
    expect(transition).toBe('none');
    await context.close();
  });
});

describe('services page', () => {
  it('has the breadcrumb, three anchored sections of four cards, each Learn more going to /contact', async () => {
    const { page, context } = await offlinePage();
    await page.goto('/services#accounting-and-payroll');
    const breadcrumb = page.getByRole('navigation', { name: 'Breadcrumb' });
    expect((await breadcrumb.textContent())?.replace(/\s+/g, '')).toBe('HomeServices');
    for (const anchor of ['tax-services', 'accounting-and-payroll', 'consulting']) {
      const section = page.locator(`section#${anchor}`);
      expect(await section.locator('li').count(), anchor).toBe(4);
      const hrefs = await section.getByRole('link', { name: /Learn more/ }).evaluateAll((links) => links.map((a) => a.getAttribute('href')));
      expect(hrefs).toEqual(['/contact', '/contact', '/contact', '/contact']);
    }
    await context.close();
  });
});

describe('resources page', () => {
  it('opens the federal links in new tabs', async () => {
    const { page, context } = await offlinePage();
    await page.goto('/resources');
    for (const name of ['Federal Refund Status', 'Pay Federal Bill Online', 'Request Tax Transcript']) {
      const link = page.getByRole('link', { name: new RegExp(name) });
      expect(await link.getAttribute('target'), name).toBe('_blank');
      expect(await link.getAttribute('href'), name).toMatch(/^https:\/\/www\.irs\.gov\//);
    }
    await context.close();
  });

  it('opens the chosen state refund page in a new tab, and nothing for the nine states without one', async () => {
    const { page, context } = await openHydrated('/resources');
    await islandReady(page, 'state-refund');
    const select = page.getByLabel('Select your state');
    expect(await select.locator('option').count()).toBe(51); // placeholder + 50 states
    expect(statesWithoutRefundLink).toEqual(['AK', 'FL', 'NV', 'NH', 'SD', 'TN', 'TX', 'WA', 'WY']);
    expect(stateRefundLinks.filter((s) => s.refundUrl).length).toBe(41);

    for (const code of ['PA', 'CA', 'NY']) {
      const state = stateRefundLinks.find((s) => s.code === code)!;
      const [popup] = await Promise.all([context.waitForEvent('page'), select.selectOption(code)]);
      await popup.waitForLoadState();
      expect(popup.url(), code).toBe(state.refundUrl);
      await popup.close();
    }

    let opened = 0;
    context.on('page', () => opened++);
    for (const code of statesWithoutRefundLink) {
      await select.selectOption(code);
      const name = stateRefundLinks.find((s) => s.code === code)!.name;
      await expect.poll(() => page.getByRole('status').filter({ hasText: name }).count()).toBe(1);
    }
    await page.waitForTimeout(500);
    expect(opened).toBe(0);
    // The link targets are not printed on the page (docs/product.md §1.3); the island's props carry
    // them (the published state list, docs/decisions/0016-published-content-serving.md), no text does.
    expect(await page.locator('body').innerText()).not.toContain('mypath.pa.gov');
    await context.close();
  });

  it("cycles the 'Did You Know' facts with an n/10 counter, wrapping from the last to the first", async () => {
    const { page, context } = await openHydrated('/resources', PHONE);
    await islandReady(page, 'did-you-know');
    const counter = page.getByTestId('fact-counter');
    const fact = page.getByTestId('tax-fact');
    // The exact heading (docs/product.md §1.3): no question mark.
    expect((await page.locator('#did-you-know-heading').textContent())?.trim()).toBe('Did You Know');
    expect(await page.getByRole('heading', { name: 'Did You Know', exact: true }).count()).toBe(1);
    expect(await counter.textContent()).toBe('1/10');
    // The counter is read as words, with valid HTML (no aria-label on a span: W3C Nu checker).
    expect(await page.getByText('Fact 1 of 10', { exact: true }).count()).toBe(1);
    expect(await page.locator('main span[aria-label]:not([role])').count()).toBe(0);
    expect(await fact.textContent()).toBe(taxFacts[0]);
    const next = page.getByRole('button', { name: 'Next fact' });
    for (let n = 2; n <= 10; n++) {
      await next.click();
      expect(await counter.textContent()).toBe(`${n}/10`);
    }
    expect(await fact.textContent()).toBe(taxFacts[9]);
    await next.click();
    expect(await counter.textContent()).toBe('1/10');
    expect(await fact.textContent()).toBe(taxFacts[0]);
    expect(taxFacts.some((f) => f.includes('70 cents per mile'))).toBe(true);
    expect(taxFacts.some((f) => f.includes('$2,000') && f.includes('$1,600'))).toBe(true);
    // SPEC.md: the facts mention the additional senior deduction of $2,050 single / $1,650 married (2026's amounts).
    expect(taxFacts.some((f) => f.includes('$2,050') && f.includes('$1,650'))).toBe(true);
    expect(taxFacts.some((f) => f.includes('$15,750') && f.includes('$31,500'))).toBe(true);
    expect(await page.getByRole('img', { name: /refund/i }).getAttribute('loading')).toBe('lazy');
    await context.close();
  });
});

describe('FAQ page', () => {
  it('filters by category and keeps a single answer open', async () => {
    const { page, context } = await openHydrated('/faq');
    const items = page.getByTestId('faq-item');
    expect(await items.count()).toBe(12);
    for (const category of ['General Services', 'Tax Services', 'Business Services', 'Pricing & Billing']) {
      await page.getByRole('button', { name: category, exact: true }).click();
      expect(await page.getByRole('button', { name: category, exact: true }).getAttribute('aria-pressed')).toBe('true');
      expect(await items.count(), category).toBe(3);
      const expected = faqItems.filter((item) => item.category === category).map((item) => item.question);
      expect(await items.getByRole('button').allTextContents()).toEqual(expected);
    }

    // Pricing answers state the prices of docs/product.md §1.3.
    const questions = items.getByRole('button');
    expect(await page.getByTestId('faq-list').innerText()).not.toContain('$100'); // answers start collapsed
    await questions.nth(0).click();
    await questions.nth(1).click();
    expect(await questions.nth(0).getAttribute('aria-expanded')).toBe('false');
    expect(await questions.nth(1).getAttribute('aria-expanded')).toBe('true');
    expect(await page.locator('[role="region"][id^="faq-a-"]:visible').count()).toBe(1);
    expect(await page.locator('[id^="faq-a-"]:visible').textContent()).toContain('from $100');
    await questions.nth(1).click();
    expect(await page.locator('[id^="faq-a-"]:visible').count()).toBe(0);

    await page.getByRole('button', { name: 'All Questions' }).click();
    expect(await items.count()).toBe(12);
    // Keyboard: Enter on a focused question opens it.
    await questions.nth(9).focus();
    await page.keyboard.press('Enter');
    const answer = await page.locator('[id^="faq-a-"]:visible').textContent();
    expect(answer).toContain('from $500');
    expect(answer).toContain('from $1,000');
    await context.close();
  });

  it('links to /contact, /services, /schedule, /resources and the phone number', async () => {
    const { page, context } = await offlinePage();
    await page.goto('/faq');
    const hrefs = await page.locator('main a').evaluateAll((links) => links.map((a) => a.getAttribute('href')));
    for (const href of ['/contact', '/services', '/schedule', '/resources', 'tel:+17245550142']) expect(hrefs).toContain(href);
    const text = faqItems.map((item) => item.answer).join(' ');
    for (const price of ['from $500', 'from $1,000', 'from $100', 'free']) expect(text).toContain(price);
    await context.close();
  });
});

describe('privacy and payment pages', () => {
  it('shows the privacy policy sections and date', async () => {
    const { page, context } = await offlinePage();
    await page.goto('/privacy-policy');
    expect(await page.getByText('Last Updated: March 9, 2025').isVisible()).toBe(true);
    const headings = await page.locator('main h2').allTextContents();
    for (const section of ['Introduction', 'Information We Collect', 'How We Use Your Information', 'Cookies', 'Contact Us', 'Updates']) {
      expect(headings).toContain(section);
    }
    await context.close();
  });

  it('announces a successful payment with a toast and a payment_attempt event carrying the amount', async () => {
    const { page, context } = await offlinePage();
    await page.goto('/payment-success?amount=125.50');
    await expectToast(page, 'Payment Successful', 'Thank you for your payment!');
    expect(await page.locator('[data-variant]').first().getAttribute('data-variant')).toBe('default');
    expect(await page.getByRole('link', { name: 'Return to Home' }).getAttribute('href')).toBe('/');
    expect((await dataLayer(page)).filter((e) => e.event === 'payment_attempt')).toStrictEqual([
      { event: 'payment_attempt', category: 'Payments', action: 'success', value: 125.5 },
    ]);
    await context.close();
  });

  it('announces a cancelled payment with a destructive toast and an error payment_attempt of value 0 without an amount', async () => {
    const { page, context } = await offlinePage(PHONE);
    await page.goto('/payment-cancelled');
    await expectToast(page, 'Payment Cancelled', 'Your payment was cancelled. Please try again if you wish to complete the payment.');
    expect(await page.locator('[data-variant]').first().getAttribute('data-variant')).toBe('destructive');
    const events = (await dataLayer(page)).filter((e) => e.event === 'payment_attempt');
    expect(events).toStrictEqual([{ event: 'payment_attempt', category: 'Payments', action: 'error', value: 0 }]);
    await page.getByRole('link', { name: 'Return to Home' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/');
    await context.close();
  });
});

describe('header, analytics and cookie banner', () => {
  it('highlights the current route, pushes pageview and button_click events', async () => {
    const { page, context, errors } = await openHydrated('/');
    const nav = page.getByRole('navigation', { name: 'Main' });
    expect(await nav.getByRole('link', { name: 'Home' }).getAttribute('aria-current')).toBe('page');
    expect((await dataLayer(page)).filter((e) => e.event === 'pageview').map((e) => e.page)).toEqual(['/']);
    // Each public page is its own prerendered document (docs/decisions/0009-islands-on-prerendered-pages.md):
    // a menu link loads it, and it reports its own pageview.
    await nav.getByRole('link', { name: 'About' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/about');
    await hydrated(page);
    expect(await nav.getByRole('link', { name: 'About' }).getAttribute('aria-current')).toBe('page');
    expect(await nav.getByRole('link', { name: 'Home' }).getAttribute('aria-current')).toBeNull();
    expect(await page.title()).toBe('About Us | Our Story and Our CPA | Northgate CPA');
    expect((await dataLayer(page)).filter((e) => e.event === 'pageview').map((e) => e.page)).toEqual(['/about']);
    // A tracked link reports its click (the page stays put here so the event can be read: a
    // listener on window, which runs after the document's, cancels the navigation).
    await page.evaluate(() => window.addEventListener('click', (event) => event.preventDefault()));
    await page.getByRole('link', { name: 'Get Started' }).click();
    expect(await dataLayer(page)).toContainEqual({ event: 'button_click', category: 'Button Clicks', label: 'Get Started' });
    await page.goto('/contact');
    await hydrated(page);
    expect((await dataLayer(page)).filter((e) => e.event === 'pageview').map((e) => e.page)).toEqual(['/contact']);
    expect(await page.locator('link[rel="canonical"]').getAttribute('href')).toBe('https://www.northgatecpa.example/contact');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('closes the mobile menu with a link or with Escape', async () => {
    const { page, context } = await openHydrated('/', PHONE);
    const toggle = page.getByRole('button', { name: 'Toggle menu' });
    await toggle.click();
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    await page.keyboard.press('Escape');
    expect(await page.getByRole('navigation', { name: 'Mobile' }).count()).toBe(0);
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Toggle menu');
    await page.keyboard.press('Enter');
    const mobile = page.getByRole('navigation', { name: 'Mobile' });
    await mobile.getByRole('link', { name: 'Resources' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/resources');
    expect(await mobile.count()).toBe(0);
    await context.close();
  });

  it('styles what islands render later exactly as the whole stylesheet would (the late stylesheet)', async () => {
    // The page carries the CSS its markup uses; the islands runtime links the rest (scripts/lib/late-css.ts).
    // An open menu, the chat panel, a toast and a form's errors are styled by both: appending the
    // whole stylesheet, which decides every conflict the way the site was designed, must change no
    // computed style.
    const { page, context } = await offlinePage(PHONE);
    const wholeHref = async () => /href="([^"]+)"/.exec((await page.locator('noscript').last().textContent()) ?? '')?.[1];
    // Styles at rest: no transition half-way (a hovered button fading to its hover colour).
    const settled = async () => {
      await page.mouse.move(1, 1);
      await page.addStyleTag({ content: '*,::before,::after{transition:none!important;animation:none!important}' });
    };
    const styles = () =>
      page.evaluate(() => {
        const props = ['display', 'position', 'padding', 'margin', 'color', 'background-color', 'font-size', 'font-weight', 'line-height', 'gap', 'border-width', 'border-color', 'border-radius', 'width', 'height', 'box-shadow', 'opacity'];
        return [...document.body.querySelectorAll('*')].map((el) => {
          const computed = getComputedStyle(el);
          return `${el.tagName}.${el.getAttribute('class') ?? ''}: ${props.map((p) => computed.getPropertyValue(p)).join(' | ')}`;
        });
      });
    const appendWhole = (href: string) =>
      page.evaluate(
        (url) =>
          new Promise<void>((resolve, reject) => {
            const link = Object.assign(document.createElement('link'), { rel: 'stylesheet', href: url });
            link.onload = () => resolve();
            link.onerror = () => reject(new Error(`${url} did not load`));
            document.head.appendChild(link);
          }),
        href,
      );

    /** The page's computed styles at rest, then again with the whole stylesheet appended: the same. */
    const expectAsWholeSheet = async () => {
      await settled();
      const before = await styles();
      await appendWhole((await wholeHref())!);
      expect(await styles()).toEqual(before);
    };

    await page.goto('/');
    await hydrated(page);
    expect(await page.locator('link[rel="stylesheet"][href^="/assets/late-"]').count()).toBe(1);
    await page.getByRole('button', { name: 'Toggle menu' }).click();
    await page.getByRole('navigation', { name: 'Mobile' }).waitFor();
    // What an island may render: a class the page's markup does not use (p-4, padding) with one it
    // does (px-6, padding-inline), which the whole sheet orders after it so that it wins.
    expect(await page.evaluate(() => [document.querySelector('.p-4') === null, document.querySelector('.px-6') !== null])).toEqual([true, true]);
    await page.evaluate(() => document.body.appendChild(Object.assign(document.createElement('div'), { className: 'p-4 px-6', id: 'cascade-probe' })));
    await settled();
    expect(await page.evaluate(() => getComputedStyle(document.getElementById('cascade-probe')!).paddingLeft)).toBe('24px');
    await expectAsWholeSheet();

    // The chat panel, opened over the page: its own markup, none of it in the page's HTML.
    await page.goto('/');
    await hydrated(page);
    await page.getByRole('button', { name: 'Chat with us' }).click();
    await page.getByRole('dialog', { name: 'Chat with us' }).waitFor();
    await expectAsWholeSheet();

    // A toast (the payment page announces the payment).
    await page.goto('/payment-success');
    await hydrated(page);
    await expectToast(page, 'Payment Successful');
    await expectAsWholeSheet();

    await page.goto('/contact');
    await hydrated(page);
    await page.getByRole('button', { name: 'Send Message' }).click();
    await page.getByText('Name is required').first().waitFor();
    await expectAsWholeSheet();
    await context.close();
  });

  it('shows the cookie banner until accepted, then never again', async () => {
    const { page, context } = await openHydrated('/', PHONE);
    const banner = page.getByRole('region', { name: 'Cookie consent' });
    await banner.waitFor();
    expect(await page.evaluate(() => localStorage.getItem('cookieConsent'))).toBeNull();
    // Keyboard: reach Accept and press Enter.
    await banner.getByRole('button', { name: 'Accept' }).focus();
    await page.keyboard.press('Enter');
    expect(await banner.count()).toBe(0);
    expect(await page.evaluate(() => localStorage.getItem('cookieConsent'))).toBe('true');
    await page.reload();
    await hydrated(page);
    await page.goto('/faq');
    await hydrated(page);
    await page.waitForTimeout(300);
    expect(await banner.count()).toBe(0);
    await context.close();
  });

  it('loads Tag Manager only after consent, and only when a container id is configured', async () => {
    // Not configured (this server has no GTM_ID): accepting loads nothing from Google.
    {
      const { page, context } = await offlinePage();
      const gtm: string[] = [];
      page.on('request', (r) => r.url().includes('googletagmanager.com') && gtm.push(r.url()));
      const response = await page.goto('/');
      // Nor does the page's CSP allow Tag Manager's host.
      expect(response?.headers()['content-security-policy']).not.toContain('googletagmanager.com');
      await hydrated(page);
      await acceptCookies(page);
      await page.waitForLoadState('networkidle');
      expect(gtm).toEqual([]);
      expect(await (await fetch(`${baseUrl()}/api/site-config`)).json()).toEqual({ gtmId: null, turnstileSiteKey: null });
      await context.close();
    }
    // Configured (the site-config answer says so, and the pages carry the CSP a configured build
    // writes): nothing before Accept, the container after; never on an admin page.
    {
      const { page, context } = await offlinePage();
      await context.route('**/api/site-config', (route) => route.fulfill({ json: { gtmId: 'GTM-TEST123' } }));
      await context.route(
        (url) => url.origin === new URL(baseUrl()).origin && !url.pathname.startsWith('/admin') && !url.pathname.startsWith('/api/') && !url.pathname.startsWith('/assets/'),
        async (route) => {
          const response = await route.fetch();
          route.fulfill({ response, headers: { ...response.headers(), 'content-security-policy': publicContentSecurityPolicy({ tagManager: true }) } });
        },
      );
      const gtm: string[] = [];
      page.on('request', (r) => r.url().includes('googletagmanager.com') && gtm.push(r.url()));
      await page.goto('/');
      await hydrated(page);
      await page.waitForLoadState('networkidle');
      expect(gtm).toEqual([]);
      await acceptCookies(page);
      await expect.poll(() => gtm).toEqual(['https://www.googletagmanager.com/gtm.js?id=GTM-TEST123']);
      // The admin pages: consent given, container configured, still nothing from Google.
      gtm.length = 0;
      const admin = await page.goto('/admin/login');
      expect(admin?.headers()['content-security-policy']).toContain("script-src 'self';");
      await page.getByRole('button', { name: 'Login' }).waitFor();
      await page.waitForLoadState('networkidle');
      expect(gtm).toEqual([]);
      await context.close();
    }
  });
});

// Axe on every public screen at both widths: tests/site/accessibility-sweep.e2e.test.ts.
describe('accessibility', () => {
  it('shows a visible focus indicator on links and buttons', async () => {
    const { page, context } = await openHydrated('/');
    await page.keyboard.press('Tab');
    const skip = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement;
      return { text: el.textContent, outline: getComputedStyle(el).outlineStyle };
    });
    expect(skip).toEqual({ text: 'Skip to content', outline: 'solid' });
    await context.close();
  });
});
