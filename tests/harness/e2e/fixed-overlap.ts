import type { Page } from 'playwright-core';

// "Nothing fixed ever covers a control" (docs/product.md "Accessibility", DECISIONS.md): the chat
// button (bottom right), the cookie banner (bottom), the toasts and a preview's bar are fixed, and
// a person who scrolls to reach a control must then be able to click it. coveredControls scrolls
// each visible control of the page into view as a person would (its centre in the middle of the
// window, then its end at the window's bottom edge, where scrolling down first shows it; at the
// page's end, as far as it goes) and asks the browser what a click at its centre and at each of its
// corners would reach (document.elementFromPoint): the control or something inside it, or at worst
// something that is not fixed. Controls inside a fixed or sticky
// element (the header, the chat button, the banner) are not checked: they move with the window.

/** Runs in the page: the controls a click at their centre misses for a fixed element, described. */
function findCovered(): string[] {
  const SELECTOR = [
    'a[href]',
    'button',
    'input:not([type="hidden"])',
    'select',
    'textarea',
    'summary',
    '[role="button"]',
    '[role="link"]',
    '[role="checkbox"]',
    '[role="switch"]',
    '[role="tab"]',
    '[tabindex]:not([tabindex="-1"])',
  ].join(',');
  const pinned = (from: Element | null): Element | null => {
    for (let el = from; el; el = el.parentElement) {
      const position = getComputedStyle(el).position;
      if (position === 'fixed' || position === 'sticky') return el;
    }
    return null;
  };
  const describe = (el: Element) => {
    const name = (el.getAttribute('aria-label') ?? (el as HTMLElement).innerText ?? el.getAttribute('title') ?? '').trim().replace(/\s+/g, ' ').slice(0, 50);
    const id = el.id ? `#${el.id}` : '';
    const testId = el.getAttribute('data-testid') ? `[data-testid=${el.getAttribute('data-testid')}]` : '';
    const label = el instanceof HTMLInputElement && el.labels?.[0] ? ` label "${el.labels[0].innerText.trim().slice(0, 40)}"` : '';
    return `<${el.tagName.toLowerCase()}${id}${testId}> "${name}"${label}`;
  };
  const problems: string[] = [];
  const controls = [...document.querySelectorAll<HTMLElement>(SELECTOR)];
  for (const control of controls) {
    if (pinned(control)) continue;
    if (!control.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue;
    const box = control.getBoundingClientRect();
    // Visually hidden (the skip link until focused, an sr-only input whose label is the target).
    if (box.width < 2 || box.height < 2) continue;
    for (const block of ['center', 'end'] as const) {
      control.scrollIntoView({ block, inline: 'nearest', behavior: 'instant' });
      const r = control.getBoundingClientRect();
      // Its centre, and its corners 3 px in: no part of it may be under a fixed element.
      const inset = Math.min(3, r.width / 4, r.height / 4);
      const points: [string, number, number][] = [
        ['centre', r.left + r.width / 2, r.top + r.height / 2],
        ['top left', r.left + inset, r.top + inset],
        ['top right', r.right - inset, r.top + inset],
        ['bottom left', r.left + inset, r.bottom - inset],
        ['bottom right', r.right - inset, r.bottom - inset],
      ];
      for (const [where, x, y] of points) {
        if (x < 0 || y < 0 || x >= window.innerWidth || y >= window.innerHeight) continue; // taller than the window
        const hit = document.elementFromPoint(x, y);
        if (!hit || control === hit || control.contains(hit)) continue;
        const cover = pinned(hit);
        if (cover && !cover.contains(control)) {
          problems.push(`${describe(control)} scrolled to the ${block}: its ${where} is under ${describe(cover)}`);
          break;
        }
      }
    }
  }
  window.scrollTo({ top: 0, behavior: 'instant' });
  return problems;
}

/** The page's controls a fixed element covers once scrolled into view (empty when none), each labelled with `where`. */
export async function coveredControls(page: Page, where: string): Promise<string[]> {
  const problems = await page.evaluate(findCovered);
  return problems.map((p) => `${where}: ${p}`);
}
