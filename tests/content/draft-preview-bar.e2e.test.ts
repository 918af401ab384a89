import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { adminSessionPerFile, api, screenshotDir, signedInTab } from '../harness/e2e/admin-helpers';
import { SCREEN_SIZES, settled } from '../harness/e2e/browser';
import { coveredControls } from '../harness/e2e/fixed-overlap';

// docs/product.md §6.6 "Preview" and §5.6: a preview cannot be taken for the live site. A content
// preview (the public page with the draft, worker/services/content/preview-bar.ts) has a fixed bar
// reading "Draft preview: not live" at 1280 and 390 px, a named landmark, the tab's title led by it;
// the page keeps room for it (the header sticks below it, nothing is under it at the top or once
// scrolled, no control is covered). The admin's newsletter previews (/admin's Newsletter Preview,
// the editor's Preview) carry the same bar above their frame.

const admin = adminSessionPerFile('/admin');

interface ContentState {
  published: { version: number; content: unknown };
}

/** Where the bar, the header and the page's title are, read in the page. */
async function layout(page: Page) {
  return page.evaluate(() => {
    const bar = document.querySelector('[data-testid="draft-preview-bar"]')!.getBoundingClientRect();
    const header = document.querySelector('header')!.getBoundingClientRect();
    const h1 = document.querySelector('main h1')?.getBoundingClientRect();
    return {
      position: getComputedStyle(document.querySelector('[data-testid="draft-preview-bar"]')!).position,
      barTop: bar.top,
      barBottom: bar.bottom,
      barWidth: bar.width,
      headerTop: header.top,
      h1Top: h1?.top ?? null,
      overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    };
  });
}

describe('a draft preview', () => {
  it('has a fixed "Draft preview: not live" bar that covers nothing, at 1280 and 390 px', async () => {
    // A draft (the published text, saved as one): the preview shows it.
    const state = await api<ContentState>(admin.context, 'GET', '/api/admin/content');
    await api(admin.context, 'PUT', '/api/admin/content/draft', { basedOn: state.published.version, content: state.published.content });
    const { page } = await signedInTab(admin, '/admin');
    const problems: string[] = [];
    try {
      for (const path of ['/', '/faq']) {
        for (const [width, viewport] of SCREEN_SIZES) {
          await page.setViewportSize(viewport);
          await page.goto(`/api/admin/content/preview?path=${encodeURIComponent(path)}`);
          const bar = page.getByRole('region', { name: 'Draft preview' });
          await bar.waitFor();
          expect(await bar.innerText(), `${path} at ${width}`).toContain('Draft preview: not live');
          expect(await page.title(), path).toMatch(/^Draft preview: not live · /);
          await settled(page);
          const top = await layout(page);
          expect(top, `${path} at ${width}px, top`).toMatchObject({ position: 'fixed', barTop: 0, overflow: 0, barWidth: viewport.width });
          expect(top.headerTop, `${path} at ${width}px: the header starts below the bar`).toBeGreaterThanOrEqual(top.barBottom);
          // Scrolled down: the bar stays, the sticky header sticks below it.
          await page.evaluate(() => window.scrollTo({ top: document.documentElement.scrollHeight / 2, behavior: 'instant' }));
          const scrolled = await layout(page);
          expect(scrolled.barTop, `${path} at ${width}px, scrolled`).toBe(0);
          expect(scrolled.headerTop, `${path} at ${width}px, scrolled`).toBeGreaterThanOrEqual(scrolled.barBottom - 0.5);
          problems.push(...(await coveredControls(page, `preview of ${path} at ${width}px`)));
          if (screenshotDir && path === '/') {
            await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
            await page.screenshot({ path: `${screenshotDir}/nav-draft-preview-${width}.png` });
          }
        }
      }
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  }, 180_000);
});

describe('a newsletter preview', () => {
  it('carries the same bar above its frame on /admin and in the editor', async () => {
    const { page } = await signedInTab(admin, '/admin');
    try {
      await page.getByRole('button', { name: 'Quick Preview' }).click();
      const block = page.locator('section[aria-labelledby="preview-heading"]');
      const bar = block.getByRole('region', { name: 'Draft preview' });
      await bar.waitFor();
      expect(await bar.innerText()).toContain('Draft preview: not live');
      const above = async (scope: typeof block) =>
        scope.evaluate((el) => {
          const barBox = el.querySelector('[data-testid="newsletter-preview-bar"]')!.getBoundingClientRect();
          const frameBox = el.querySelector('iframe[title="Newsletter preview"]')!.getBoundingClientRect();
          return barBox.bottom <= frameBox.top + 0.5 && barBox.width >= frameBox.width - 0.5;
        });
      expect(await above(block)).toBe(true);
      if (screenshotDir) await block.screenshot({ path: `${screenshotDir}/nav-newsletter-preview-1280.png` });

      await page.goto('/admin/newsletters/edit');
      const preview = page.locator('[aria-labelledby="draft-preview-title"]');
      await preview.getByRole('region', { name: 'Draft preview' }).waitFor();
      expect(await preview.getByRole('region', { name: 'Draft preview' }).innerText()).toContain('Draft preview: not live');
      expect(await above(preview)).toBe(true);
    } finally {
      await page.close();
    }
  });
});
