import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Download, type Page } from 'playwright-core';
import { expect, inject } from 'vitest';
import type { E2eStack } from './global-setup';
import { installMovedClock, MOVED_CLOCK_VAR, movedClockOffset } from '../moved-clock';

/**
 * This file's local stack: the global setup starts one per worker slot (VITEST_POOL_ID), so files
 * running at the same time never share a server or a database.
 */
export function stack(): E2eStack {
  const stacks = inject('stacks');
  const slot = Number(process.env.VITEST_POOL_ID ?? 1);
  const own = stacks[slot - 1];
  if (!own) throw new Error(`no local stack for worker slot ${slot} (the global setup started ${stacks.length})`);
  return own;
}

export const baseUrl = () => stack().baseUrl;

/**
 * The run's one Chromium (launched by the global setup from the browser scripts/lib/chromium.ts found
 * or installed, with the flags this machine needs), connected to instead of launching one per file.
 * Closing what this returns disconnects this file and closes the contexts it opened; the browser
 * itself stays up for the other files. A connected browser has no local path for a download
 * (download.path() throws): read one with downloadedFile.
 */
export async function launchBrowser(): Promise<Browser> {
  const browser = await chromium.connect(inject('browserEndpoint'));
  // Under the moved clock of scripts/test-dates.ts, every context this file opens moves its pages'
  // Date before their own scripts run (tests/harness/moved-clock.ts; libfaketime under Chromium made
  // each new page take seconds).
  const offset = movedClockOffset(process.env[MOVED_CLOCK_VAR]);
  if (offset) {
    const newContext = browser.newContext.bind(browser);
    browser.newContext = async (options?: BrowserContextOptions) => {
      const context = await newContext(options);
      await context.addInitScript(installMovedClock, offset);
      return context;
    };
  }
  return browser;
}

/** A download's bytes, copied from the shared browser (download.saveAs) into a temporary file and read. */
export async function downloadedFile(download: Download): Promise<Buffer> {
  const dir = mkdtempSync(join(tmpdir(), 'cpa-e2e-download-'));
  try {
    const file = join(dir, 'download');
    await download.saveAs(file);
    return readFileSync(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 900 };
/** The two widths every screen is checked at, labelled by their width in pixels. */
export const SCREEN_SIZES = [
  ['1280', DESKTOP],
  ['390', PHONE],
] as const;

/** The page's error log from now on: uncaught errors and console errors, as their text. */
export function errorLog(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  return errors;
}

/**
 * A fresh context (own cookies and storage, empty or a copy of `storageState`) with the base URL and
 * an error log.
 */
export async function newPage(
  browser: Browser,
  viewport = DESKTOP,
  storageState?: BrowserContextOptions['storageState'],
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({ baseURL: baseUrl(), viewport, storageState });
  const page = await context.newPage();
  return { context, page, errors: errorLog(page) };
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

/**
 * Waits until a prerendered page's island is live (web/islands.tsx marks it data-hydrated): before
 * that its markup is static HTML that answers no clicks. Islands below the fold hydrate once near
 * the viewport, so this scrolls to the island first.
 */
export async function islandReady(page: Page, name: string): Promise<void> {
  const shown = page.locator(`[data-island="${name}"] > *:visible`).first();
  if (await shown.count()) await shown.scrollIntoViewIfNeeded();
  await page.locator(`[data-island="${name}"][data-hydrated]`).waitFor({ state: 'attached' });
}

/**
 * Fetches `path` without a browser and expects the prerendered 404 page as the first response:
 * status 404, titled, noindex. Returns its HTML for further checks.
 */
export async function fetchNotFoundPage(path: string): Promise<string> {
  const res = await fetch(`${baseUrl()}${path}`);
  expect(res.status, path).toBe(404);
  const html = await res.text();
  expect(html, path).toContain('data-prerendered="*"');
  expect(html, path).toContain('<title>404 Page Not Found | Northgate CPA</title>');
  expect(html, path).toContain('<meta name="robots" content="noindex" />');
  return html;
}

/** Waits until the page has stopped growing (its data loaded and rendered) for half a second. */
export async function settled(page: Page): Promise<void> {
  await page.waitForFunction(
    () => {
      const seen = window as unknown as { stableHeight?: number; stableHeightSince?: number };
      const height = document.documentElement.scrollHeight;
      if (seen.stableHeight !== height) Object.assign(seen, { stableHeight: height, stableHeightSince: performance.now() });
      return performance.now() - (seen.stableHeightSince ?? 0) >= 500;
    },
    undefined,
    { polling: 100, timeout: 30_000 },
  );
}

/**
 * The back-office screen on the page, narrowed to `viewport` (a phone's width) as a freshly opened
 * one would stand: at the top, nothing focused, its pending renders settled. The back office is laid
 * out by CSS alone (no script reads the width), so the same screen narrowed is the screen a phone
 * opens; narrowing rather than opening it again spares a load of the whole back office per screen
 * (docs/operations.md "The test suite's time").
 */
export async function narrowTo(page: Page, viewport: { width: number; height: number }): Promise<void> {
  await page.setViewportSize(viewport);
  await page.evaluate(() => {
    (document.activeElement as HTMLElement | null)?.blur?.();
    window.scrollTo(0, 0);
  });
  await page.waitForTimeout(300);
  await settled(page);
}
