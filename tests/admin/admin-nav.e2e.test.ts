import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { adminSessionPerFile, api, expectToastSaying, screenshotDir, signInThroughCard, signedInTab, uniqueEmail, waitUntil } from '../harness/e2e/admin-helpers';
import { invited, STAFF_PASSWORD } from '../harness/e2e/admin-users-helpers';
import { DESKTOP, narrowTo, newPage, PHONE, SCREEN_SIZES, settled } from '../harness/e2e/browser';
import { coveredControls } from '../harness/e2e/fixed-overlap';

// docs/product.md §6 "Back-office navigation": every signed-in admin screen has the same
// <nav aria-label="Back office"> right after its title: the screens the account may open (the
// current one aria-current="page"), who is signed in with their role, and signing out (/admin's is
// SPEC.md's Logout; /admin/subscribers has only its own row's Sign Out). And nothing fixed (the chat
// button, the cookie banner, a toast) covers a control a person scrolled to, at 1280 and 390 px,
// with the cookie banner up and once accepted (tests/harness/e2e/fixed-overlap.ts).

const CONTENT_SECTIONS = ['firm', 'services', 'about', 'testimonials', 'faq', 'resources', 'privacy', 'booking', 'chat'].map((slug) => `/admin/content/${slug}`);

/** Each screen and the navigation entry it marks as the current one. */
const SCREENS: [string, string][] = [
  ['/admin', 'Admin Panel'],
  ['/admin/subscribers', 'Subscribers'],
  ['/admin/newsletters', 'Newsletters'],
  ['/admin/newsletters/edit', 'Newsletters'],
  ['/admin/availability', 'Availability'],
  ['/admin/chats', 'Chats'],
  ['/admin/content', 'Content'],
  ['/admin/content/history', 'Content'],
  ['/admin/users', 'Users'],
  ['/admin/audit', 'Audit Trail'],
  ['/admin/go-live', 'Go-live'],
  ...CONTENT_SECTIONS.map((path): [string, string] => [path, 'Content']),
];

const OWNER_LINKS = ['Admin Panel', 'Subscribers', 'Newsletters', 'Availability', 'Chats', 'Content', 'Users', 'Audit Trail', 'Go-live'];
const STAFF_LINKS = ['Admin Panel', 'Subscribers', 'Newsletters', 'Availability', 'Chats', 'Content'];

const admin = adminSessionPerFile('/admin');

/** What the navigation on the page shows, read in one go. */
async function readNav(page: Page) {
  const nav = page.getByRole('navigation', { name: 'Back office' });
  await nav.waitFor();
  return page.evaluate(() => {
    const navs = [...document.querySelectorAll('nav[aria-label="Back office"]')];
    const nav = navs[0];
    const h1 = document.querySelector('main h1');
    const firstH2 = document.querySelector('main h2');
    return {
      count: navs.length,
      links: [...nav.querySelectorAll('a')].map((a) => a.textContent?.trim() ?? ''),
      current: [...nav.querySelectorAll('a[aria-current="page"]')].map((a) => a.textContent?.trim() ?? ''),
      buttons: [...nav.querySelectorAll('button')].map((b) => b.textContent?.trim() ?? ''),
      signedIn: nav.querySelector('[data-testid="signed-in-as"]')?.textContent?.replace(/\s+/g, ' ').trim() ?? '',
      // Right after the title: the h1 comes before it, every section heading after it.
      afterTitle: !!h1 && (h1.compareDocumentPosition(nav) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0,
      beforeSections: !firstH2 || (nav.compareDocumentPosition(firstH2) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0,
      // The old "← Admin Panel" link above the title is gone.
      backLinkAboveTitle: [...document.querySelectorAll('main a')].some((a) => a.textContent?.includes('Admin Panel') && !nav.contains(a) && !!h1 && (a.compareDocumentPosition(h1) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0),
      signOutButtons: [...document.querySelectorAll('main button')].filter((b) => /^(sign ?out|logout)$/i.test(b.textContent?.trim() ?? '')).length,
    };
  });
}

/** Who the session says is signed in, as the navigation names them. */
async function signedInName(): Promise<string> {
  const session = await api<{ username: string; name: string }>(admin.context, 'GET', '/api/admin/session');
  return session.name.trim() || session.username;
}

describe('the back-office navigation', () => {
  it('is on every screen right after its title, marks the current screen, names who is signed in, and signs out once', async () => {
    const who = await signedInName();
    const { page } = await signedInTab(admin, '/admin');
    try {
      for (const [path, current] of SCREENS) {
        await page.goto(path);
        await page.getByRole('heading', { level: 1 }).waitFor();
        const nav = await readNav(page);
        expect(nav.count, path).toBe(1);
        expect(nav.links, path).toEqual(OWNER_LINKS);
        expect(nav.current, path).toEqual([current]);
        expect(nav.signedIn, path).toBe(`Signed in as ${who} (Owner)`);
        expect(nav.afterTitle && nav.beforeSections, `${path}: the navigation follows the title`).toBe(true);
        expect(nav.backLinkAboveTitle, `${path}: no "← Admin Panel" link`).toBe(false);
        // /admin: SPEC.md's Logout; /admin/subscribers: its own row's Sign Out, none in the navigation.
        expect(nav.buttons, path).toEqual(path === '/admin' ? ['Logout'] : path === '/admin/subscribers' ? [] : ['Sign out']);
        expect(nav.signOutButtons, `${path}: one way to sign out`).toBe(1);
      }
      // The links go where they say.
      await page.goto('/admin/availability');
      await page.getByRole('navigation', { name: 'Back office' }).getByRole('link', { name: 'Audit Trail' }).click();
      await page.getByRole('heading', { name: 'Audit Trail', level: 1 }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/admin/audit');
    } finally {
      await page.close();
    }
  }, 240_000);

  it('wraps at 390 px without sideways scrolling, with targets of at least 24 px', async () => {
    const { page } = await signedInTab(admin, '/admin/users', PHONE);
    try {
      for (const path of ['/admin/users', '/admin/content/faq', '/admin/subscribers']) {
        await page.goto(path);
        await page.getByRole('navigation', { name: 'Back office' }).waitFor();
        await settled(page);
        const layout = await page.evaluate(() => {
          const nav = document.querySelector('nav[aria-label="Back office"]')!;
          const targets = [...nav.querySelectorAll('a, button')].map((el) => el.getBoundingClientRect());
          return {
            pageOverflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
            navOverflow: nav.scrollWidth - nav.clientWidth,
            small: targets.filter((r) => r.width < 24 || r.height < 24).length,
            outside: targets.filter((r) => r.left < 0 || r.right > document.documentElement.clientWidth).length,
            rows: new Set(targets.map((r) => Math.round(r.top))).size,
          };
        });
        expect(layout, path).toMatchObject({ pageOverflow: 0, navOverflow: 0, small: 0, outside: 0 });
        expect(layout.rows, `${path}: the links wrap onto rows`).toBeGreaterThan(1);
      }
    } finally {
      await page.close();
    }
  });

  it('offers a staff member only the screens staff may open, and says Staff', async () => {
    const email = uniqueEmail('nav-staff');
    const path = await invited(admin.context, email, 'Nav Staff');
    const token = new URL(path, 'http://x').searchParams.get('token')!;
    const username = `nav-${Date.now().toString(36)}`;
    await api(admin.context, 'POST', '/api/admin/invitations/accept', { token, username, password: STAFF_PASSWORD });
    const staff = await newPage(admin.browser, DESKTOP);
    try {
      await signInThroughCard(staff.page, '/admin/chats', { username, password: STAFF_PASSWORD });
      const nav = await readNav(staff.page);
      expect(nav.links).toEqual(STAFF_LINKS);
      expect(nav.current).toEqual(['Chats']);
      expect(nav.signedIn).toBe('Signed in as Nav Staff (Staff)');
    } finally {
      await staff.context.close();
    }
  });

  it('signs out from any screen: the toast, then /admin/login; a failure says so and stays signed in', async () => {
    const { context, page } = await newPage(admin.browser, DESKTOP);
    try {
      await signInThroughCard(page, '/admin/availability');
      const signOut = page.getByRole('navigation', { name: 'Back office' }).getByRole('button', { name: 'Sign out' });
      await page.route('**/api/admin/logout', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"down"}' }));
      await signOut.click();
      await expectToastSaying(page, 'Error', 'Failed to sign out. Please try again');
      expect(new URL(page.url()).pathname).toBe('/admin/availability');
      await page.unroute('**/api/admin/logout');
      await signOut.click();
      await expectToastSaying(page, 'Signed out successfully');
      await waitUntil(async () => new URL(page.url()).pathname === '/admin/login', 'the move to /admin/login');
      await page.getByRole('button', { name: 'Login' }).waitFor();
      // The session is gone on the server too.
      expect(await api<{ authenticated: boolean }>(context, 'GET', '/api/admin/session')).toEqual({ authenticated: false });
    } finally {
      await context.close();
    }
  });
});

describe('nothing fixed covers a control', () => {
  it('on every screen at 1280 and 390 px, with the cookie banner up and once accepted, each control scrolled to is the one a click reaches', async () => {
    // A message, so /admin's inbox has a card with its actions at the right edge.
    await api(admin.context, 'POST', '/api/contact', { name: 'Nav Visitor', email: uniqueEmail('nav-visitor'), phone: '412-555-0102', message: 'A message so the inbox has a card.' });
    const { context, page } = await newPage(admin.browser, DESKTOP, await admin.context.storageState());
    const problems: string[] = [];
    try {
      for (const banner of ['banner up', 'banner accepted'] as const) {
        for (const [path] of SCREENS) {
          // Opened at 1280 px, then narrowed to 390 px in place (narrowTo: laid out as a phone opens it).
          await page.setViewportSize(DESKTOP);
          await page.goto(path);
          await page.getByRole('heading', { level: 1 }).waitFor();
          if (banner === 'banner up') await page.getByRole('region', { name: 'Cookie consent' }).waitFor();
          await settled(page);
          problems.push(...(await coveredControls(page, `${path} at 1280px, ${banner}`)));
          await narrowTo(page, PHONE);
          problems.push(...(await coveredControls(page, `${path} at 390px, ${banner}`)));
        }
        if (banner === 'banner up') {
          await page.getByRole('region', { name: 'Cookie consent' }).getByRole('button', { name: 'Accept' }).click();
          await page.getByRole('region', { name: 'Cookie consent' }).waitFor({ state: 'detached' });
        }
      }
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 600_000);
});

// ADMIN_SCREENSHOTS=<dir>: /admin/users with the navigation at 1280 and 390 px, /admin and
// /admin/subscribers at 1280 px, /admin/availability at 390 px scrolled to its end (the chat button and the banner clear of every control).
describe.runIf(screenshotDir)('screenshots', () => {
  it('saves the navigation and the end of a long screen', async () => {
    const { page } = await signedInTab(admin, '/admin/users');
    try {
      for (const [width, viewport] of SCREEN_SIZES) {
        await page.setViewportSize(viewport);
        await page.goto('/admin/users');
        await page.getByTestId('user-row').first().waitFor();
        await settled(page);
        await page.screenshot({ path: `${screenshotDir}/nav-users-${width}.png` });
      }
      // /admin (SPEC.md's Logout in the navigation) and /admin/subscribers (SPEC.md's row, then the navigation).
      await page.setViewportSize(DESKTOP);
      for (const [path, name] of [['/admin', 'panel'], ['/admin/subscribers', 'subscribers']] as const) {
        await page.goto(path);
        await page.getByRole('navigation', { name: 'Back office' }).waitFor();
        await settled(page);
        await page.screenshot({ path: `${screenshotDir}/nav-${name}-1280.png` });
      }
      await page.setViewportSize(PHONE);
      await page.goto('/admin/availability');
      await page.getByTestId('weekday-grid').waitFor();
      await settled(page);
      await page.evaluate(() => window.scrollTo({ top: document.documentElement.scrollHeight, behavior: 'instant' }));
      await page.screenshot({ path: `${screenshotDir}/nav-availability-390-bottom.png` });
      // The weekly hours' last row at the window's bottom edge, where the chat button is.
      await page.getByTestId('weekday-grid').locator('input[type="checkbox"]').last().evaluate((el) => el.scrollIntoView({ block: 'end', behavior: 'instant' }));
      await page.screenshot({ path: `${screenshotDir}/nav-availability-390-weekly-hours.png` });
    } finally {
      await page.close();
    }
  });
});
