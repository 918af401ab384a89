import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, inject } from 'vitest';
import { baseUrl, DESKTOP, expectToast, launchBrowser, newPage } from './browser';

/** Signs in through the login card on `path`, as the administrator does. */
export async function signInThroughCard(page: Page, path = '/admin', credentials = inject('admin')): Promise<void> {
  await page.goto(path);
  await page.getByLabel('Username').fill(credentials.username);
  await page.getByLabel('Password').fill(credentials.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await expectToast(page, 'Login successful', 'Welcome to the admin panel');
}

/** This file's browser and the administrator's desktop page in it (its own context and error log). */
export interface AdminSession {
  browser: Browser;
  context: BrowserContext;
  page: Page;
  errors: string[];
}

/**
 * Registers the hooks that launch this file's browser and sign the administrator in through the card
 * on a desktop page at `path` (before the file's tests), and close the browser after them. The
 * fields are set once this `beforeAll` has run; `afterAll` hooks the file adds later run before the
 * browser closes (vitest runs them in reverse order), so they may still use the page.
 */
export function adminSessionPerFile(path = '/admin'): AdminSession {
  const session = {} as AdminSession;
  beforeAll(async () => {
    session.browser = await launchBrowser();
    Object.assign(session, await newPage(session.browser, DESKTOP));
    await signInThroughCard(session.page, path);
  });
  afterAll(async () => {
    await session.browser?.close();
  });
  return session;
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
 * Waits for an open toast with this title and description. Unlike waiting for the title alone, it
 * does not mistake the previous toast (still on screen while the next request runs) for the new one.
 */
export async function expectToastSaying(page: Page, title: string, description?: string): Promise<void> {
  let toast = page.locator('[data-variant][data-state="open"]').filter({ hasText: title });
  if (description !== undefined) toast = toast.filter({ hasText: description });
  await toast.first().waitFor({ state: 'visible', timeout: 10_000 });
}
