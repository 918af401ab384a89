import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { inject } from 'vitest';

// Debian's chromium, with the flags this machine needs (no sandbox as root, no background network).
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const baseUrl = () => inject('baseUrl');

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: CHROMIUM_ARGS,
  });
}

export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 900 };

/** A fresh context (own cookies and storage) with the base URL and an error log. */
export async function newPage(browser: Browser, viewport = DESKTOP): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({ baseURL: baseUrl(), viewport });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  return { context, page, errors };
}

/** Waits until the toast on screen shows this title (and description, when given). */
export async function expectToast(page: Page, title: string, description?: string): Promise<void> {
  const toast = page.locator('[data-variant]').filter({ hasText: title });
  await toast.first().waitFor({ state: 'visible', timeout: 10_000 });
  if (description !== undefined) {
    const text = await toast.first().textContent();
    if (!text?.includes(description)) throw new Error(`toast "${title}" reads "${text}", expected "${description}"`);
  }
}
