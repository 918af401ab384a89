import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, inject } from 'vitest';
import { baseUrl, DESKTOP, errorLog, expectToast, launchBrowser, newPage, SCREEN_SIZES } from './browser';

/** Signs in through the login card on `path`, as the administrator does. */
export async function signInThroughCard(page: Page, path = '/admin', credentials = inject('admin')): Promise<void> {
  await page.goto(path);
  await page.getByLabel('Username').fill(credentials.username);
  await page.getByLabel('Password').fill(credentials.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await expectToast(page, 'Login successful', 'Welcome to the admin panel');
}

/** This file's connection to the run's one browser (set once the `beforeAll` of browserPerFile has run). */
export interface SharedBrowser {
  browser: Browser;
}

/**
 * Registers the hooks that connect this file to the run's browser before its tests and disconnect it
 * after them (closing the contexts the file opened). `afterAll` hooks the file adds later run before
 * the disconnect (vitest runs them in reverse order), so they may still use its pages.
 */
export function browserPerFile(): SharedBrowser {
  const shared = {} as SharedBrowser;
  beforeAll(async () => {
    shared.browser = await launchBrowser();
  });
  afterAll(async () => {
    await shared.browser?.close();
  });
  return shared;
}

/** This file's browser and the administrator's desktop page in it (its own context and error log). */
export interface AdminSession extends SharedBrowser {
  context: BrowserContext;
  page: Page;
  errors: string[];
}

/**
 * Registers the hooks of browserPerFile and, after connecting, signs the administrator in through the
 * card on a desktop page at `path` (before the file's tests). The fields are set once this
 * `beforeAll` has run.
 */
export function adminSessionPerFile(path = '/admin'): AdminSession {
  const session = browserPerFile() as AdminSession;
  beforeAll(async () => {
    Object.assign(session, await newPage(session.browser, DESKTOP));
    await signInThroughCard(session.page, path);
  });
  return session;
}

/**
 * A new page (a tab) in the file's signed-in context, at `path` and this size, with its own error
 * log: the administrator's session and the browser's cache are shared, the page's routes, dialogs,
 * init scripts and viewport are its own. For a test whose subject is a screen rather than signing
 * in or out: a tab costs about half of a fresh context signed in through the card, whose renderer
 * fetches and compiles the whole back office again (docs/operations.md "The test suite's time").
 * Close it with `page.close()`; the session stays signed in for the file's other tests.
 *
 * Not for a test that changes the context: Playwright's clock belongs to the context (`page.clock`
 * is the context's), so a clock installed from a tab would fake the timers of every later tab and
 * inject its script into their frames. Such a test takes signedInContext.
 */
export async function signedInTab(session: AdminSession, path = '/admin', viewport = DESKTOP): Promise<{ page: Page; errors: string[] }> {
  const page = await session.context.newPage();
  await page.setViewportSize(viewport);
  const errors = errorLog(page);
  await openScreen(page, path);
  return { page, errors };
}

/**
 * A context of its own holding the file's signed-in session (its cookies, copied: no second sign-in
 * through the card), with a page at `path`: for a test that changes something context-wide, such as
 * the clock. Close it with `context.close()`.
 */
export async function signedInContext(session: AdminSession, path = '/admin', viewport = DESKTOP): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const opened = await newPage(session.browser, viewport, await session.context.storageState());
  await openScreen(opened.page, path);
  return opened;
}

/** Goes to a back-office screen and waits until its heading is on the page. */
async function openScreen(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await page.getByRole('heading', { level: 1 }).waitFor();
}

/**
 * A same-origin JSON call with this context's cookies: used to set the scene (a visitor's
 * contact message, a booking) and to read what the screen should show.
 */
export async function api<T = unknown>(context: BrowserContext, method: string, path: string, body?: unknown): Promise<T> {
  const res = await context.request.fetch(path, {
    method,
    data: body,
    headers: { origin: baseUrl(), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
  });
  const text = await res.text();
  if (!res.ok()) throw new Error(`${method} ${path} -> ${res.status()}: ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

/** Polls until `read` returns true (playwright-core has no auto-waiting `expect`). */
export async function waitUntil(read: () => Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await read().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** A unique mailbox per call, so test files sharing one server never collide. */
export const uniqueEmail = (label: string) => `${label}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}@example.com`;

/** Where screenshots go when ADMIN_SCREENSHOTS=<dir> is set (off in normal runs). */
export const screenshotDir = process.env.ADMIN_SCREENSHOTS;

/** A full-page screenshot plus 1,400 px slices of it (a phone-width full page is too tall to read). */
export async function saveScreens(page: Page, name: string): Promise<void> {
  if (!screenshotDir) return;
  await page.screenshot({ path: `${screenshotDir}/${name}.png`, fullPage: true });
  const { width, height } = await page.evaluate(() => ({ width: document.documentElement.clientWidth, height: document.documentElement.scrollHeight }));
  for (let y = 0, i = 0; y < height; y += 1400, i++) {
    await page.screenshot({ path: `${screenshotDir}/${name}-part${i}.png`, fullPage: true, clip: { x: 0, y, width, height: Math.min(1400, height - y) } });
  }
}

/**
 * The screen as it is at 1280 and at 390 px (a phone), saved as `<name>-1280` and `<name>-390` when
 * ADMIN_SCREENSHOTS is set; the page is left at the desktop size.
 */
export async function saveScreensAtBothWidths(page: Page, name: string): Promise<void> {
  for (const [width, viewport] of SCREEN_SIZES) {
    await page.setViewportSize(viewport);
    await saveScreens(page, `${name}-${width}`);
  }
  await page.setViewportSize(DESKTOP);
}

/**
 * Waits for an open toast with this title and description. Unlike waiting for the title alone, it
 * does not mistake the previous toast (still on screen while the next request runs) for the new one.
 */
export async function expectToastSaying(page: Page, title: string, description?: string): Promise<void> {
  let toast = page.locator('[data-variant][data-state="open"]').filter({ hasText: title });
  if (description !== undefined) toast = toast.filter({ hasText: description });
  await toast.first().waitFor({ state: 'visible', timeout: 10_000 });
}
