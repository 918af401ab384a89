import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { focusSweep } from '../harness/e2e/a11y-sweep';
import { launchBrowser } from '../harness/e2e/browser';

// The focus sweep of tests/harness/e2e/a11y-sweep.ts, on pages built to fail it: the accessibility
// sweeps of the site (tests/site/accessibility-sweep.e2e.test.ts, tests/admin/admin-accessibility.e2e.test.ts)
// pass only if it can. The sweep sends its Tab presses in ordered batches; these pages show that it
// still reaches every stop in order, sees a stop a sticky header or a fixed banner covers once the
// browser has scrolled it into view, sees a stop placed outside the viewport (but not one the page
// moved away for a moment), and sees a stop without a focus indicator.

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

const LINKS = 40;
const links = Array.from({ length: LINKS }, (_, i) => `<p style="margin: 40px 0"><a href="#${i}" style="outline: 2px solid #1d4ed8">link ${i}</a></p>`).join('');

/** A page of `body` in its own context at a phone's size; `css` goes into its stylesheet. */
async function pageWith(body: string, css = ''): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 390, height: 700 } });
  const page = await context.newPage();
  await page.setContent(`<!doctype html><html lang="en"><head><title>Sweep check</title><style>${css}</style></head><body>${body}</body></html>`);
  return page;
}

const header = '<header style="position: sticky; top: 0; height: 120px; background: #eee">Header <a href="#top" style="outline: 2px solid #1d4ed8">home</a></header>';
const banner = '<section aria-label="Banner" style="position: fixed; bottom: 0; left: 0; right: 0; height: 150px; background: #eee">Banner <button style="outline: 2px solid #1d4ed8">OK</button></section>';

describe('the focus sweep', () => {
  it('reaches every stop in order and finds nothing on a page that keeps the focus in view', async () => {
    // Scroll padding keeps a focused link clear of the sticky header and the fixed banner, and the
    // page leaves room below its last link for the banner.
    const page = await pageWith(`${header}<main>${links}</main>${banner}`, 'html { scroll-padding: 130px 0 160px 0 } main { padding-bottom: 160px }');
    const sweep = await focusSweep(page, { backwards: true });
    expect(sweep.stops).toEqual(['a "home"', ...Array.from({ length: LINKS }, (_, i) => `a "link ${i}"`), 'button "OK"']);
    expect(sweep.problems).toEqual([]);
    await page.context().close();
  });

  it('finds the stops a sticky header covers when Shift+Tab scrolls back up', async () => {
    const page = await pageWith(`${header}<main>${links}</main>`);
    const { problems } = await focusSweep(page, { backwards: true });
    expect(problems.length).toBeGreaterThan(5);
    expect(problems.every((problem) => problem.startsWith('focus hidden (Shift+Tab) under header "Header home": a "link '))).toBe(true);
    await page.context().close();
  });

  it('finds the stops a fixed banner covers when Tab scrolls down', async () => {
    const page = await pageWith(`<main>${links}</main>${banner}`);
    const { problems } = await focusSweep(page, { backwards: false });
    expect(problems.length).toBeGreaterThan(5);
    expect(problems.every((problem) => problem.startsWith('focus hidden (Tab) under section "Banner": a "link '))).toBe(true);
    await page.context().close();
  });

  it('finds a stop placed outside the viewport, and not one the page moved away after the browser scrolled it into view', async () => {
    // A skip link that stays off screen when focused: a real problem, whatever the recheck does.
    const page = await pageWith(`<a href="#main" style="position: absolute; left: -9999px; outline: 2px solid #1d4ed8">skip</a><main>${links}</main>`);
    const { problems } = await focusSweep(page, { backwards: true });
    expect(problems).toEqual(['focus hidden (Tab) outside the viewport: a "skip"', 'focus hidden (Shift+Tab) outside the viewport: a "skip"']);
    await page.context().close();

    // A block that appears above as "link 38" takes the focus (as a polled panel grows), after the
    // browser has scrolled the link into view and before the sweep looks: the link is then below
    // the viewport for a moment, and on screen again when focused anew. Not a problem of the page.
    const shifting = await pageWith(
      `<main>${links}</main><script>
        window.addEventListener('keyup', () => {
          if (document.activeElement?.textContent === 'link 38') document.querySelector('main').insertAdjacentHTML('afterbegin', '<div style="height: 3000px"></div>');
        }, true);
      </script>`,
      'html { overflow-anchor: none }',
    );
    const sweep = await focusSweep(shifting, { backwards: true });
    expect(sweep.stops).toEqual(Array.from({ length: LINKS }, (_, i) => `a "link ${i}"`));
    expect(sweep.problems).toEqual([]);
    expect(await shifting.evaluate(() => document.querySelectorAll('main > div').length)).toBe(2);
    await shifting.context().close();
  });

  it('finds a stop that shows no focus indicator', async () => {
    const page = await pageWith(`<main>${links}<p><a href="#plain" style="outline: none">plain link</a></p></main>`);
    const { problems } = await focusSweep(page, { backwards: false });
    expect(problems).toEqual(['no visible focus indicator: a "plain link"']);
    await page.context().close();
  });
});
