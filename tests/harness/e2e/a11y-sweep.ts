import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AxeResults, ContextObject, RunOptions } from 'axe-core';
import type { Page } from 'playwright-core';

// The accessibility standard every screen meets (docs/product.md "Accessibility"), as browser checks
// that each return a list of problems (empty when the screen passes):
// - focusSweep: Tab (and Shift+Tab) through every focus stop; each shows a focus indicator and is
//   not entirely hidden behind a fixed or sticky element (WCAG 2.4.7, 2.4.11);
// - reflowProblems: no sideways scrolling at 320 CSS px (WCAG 1.4.10);
// - requiredFieldProblems: a field whose label shows the required mark (*) is exposed as required,
//   and the mark itself is hidden from screen readers (WCAG 1.3.1, 3.3.2);
// - targetSizeProblems: interactive targets at least 24 x 24 px, or spaced as WCAG 2.5.8 allows,
//   inline links in text excepted;
// - axeProblems: axe-core, WCAG 2.0-2.2 A and AA, plus its serious or critical best practices (on the
//   public pages, every best practice).
// sweepScreen runs them all on the page as it is now; tests/site/accessibility-sweep.e2e.test.ts (public
// pages) and tests/admin/admin-accessibility.e2e.test.ts (back office) list the screens.

/** What one focus stop looked like. */
interface FocusStop {
  key: string;
  label: string;
  indicator: boolean;
  /** Not one point of it on screen: outside the viewport, or under a fixed or sticky element. */
  hiddenBy: string | null;
}

/** A stop found outside the viewport, looked at again (recheckOutside): the recorder's direction, its index there, what hides it now. */
interface Rechecked {
  direction: 'forward' | 'backward';
  index: number;
  hiddenBy: string | null;
}

/** The in-page recorder's state (window.__focusRecorder). */
interface RecorderState {
  /** The stops recorded, in the order the key reached them. */
  stops: FocusStop[];
  /** The sweep in this direction is over: the focus came back round or left the document. */
  done: boolean;
  /** The first stop of the forward sweep (where a sweep ends). */
  first: string | null;
}

/**
 * Installs the focus recorder in the page (runs in the page) and returns the focused element now.
 * On every keyup of Tab (the browser has moved the focus and scrolled it into view by then) it
 * inspects the focused element: its focus indicator, and whether any point of it is on screen rather
 * than outside the viewport or under a fixed or sticky element. It records the stops in the page, so
 * the sweep costs one round trip per key press instead of two; once the sweep is over it swallows
 * further Tabs, so the presses sent before the end was read move nothing. A stop found outside the
 * viewport is kept aside for recheckOutside, which looks at it again once the sweep is over.
 * Forward: ends when the focus leaves the document or comes back to its first stop (the focused
 * element now, with `fromFocus`; a stop whose key repeats is the focus moving inside a frame: the
 * outer document's focus stays on it). Backward (`first` given): records the focused element now,
 * then each stop, and ends on `first` or when the focus leaves the document.
 */
function installFocusRecorder([direction, first, fromFocus]: ['forward' | 'backward', string | null, boolean]): FocusStop | null {
  const describe = (el: Element) => {
    const name = (el.getAttribute('aria-label') ?? (el as HTMLElement).innerText ?? '').trim().replace(/\s+/g, ' ').slice(0, 40);
    const id = el.id ? `#${el.id}` : '';
    return `${el.tagName.toLowerCase()}${id}${name ? ` "${name}"` : ''}`;
  };
  const focused = () => {
    let el: Element | null = document.activeElement;
    while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
    return !el || el === document.body || el === document.documentElement ? null : el;
  };
  const inspect = (): FocusStop | null => {
    const el = focused();
    if (!el) return null;
    const path: number[] = [];
    for (let node: Element | null = el; node?.parentElement; node = node.parentElement) path.push([...node.parentElement.children].indexOf(node));
    const key = path.join('.');

    // A focus indicator: an outline or a ring (box-shadow) drawn while focused.
    const style = getComputedStyle(el);
    const transparent = (color: string) => color === 'transparent' || /rgba\(.*,\s*0\)$/.test(color);
    const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 1 && !transparent(style.outlineColor);
    const ring = style.boxShadow !== 'none' && !/^(rgba\([^)]*,\s*0\)\s*0px\s*0px\s*0px\s*0px,?\s*)+$/.test(style.boxShadow);
    // A focused frame (the map, a newsletter preview) is drawn by its own document.
    const indicator = outline || ring || el.tagName === 'IFRAME';

    // Sample points over the part of it inside the viewport: visible when one of them hits it.
    const rect = el.getBoundingClientRect();
    const left = Math.max(rect.left, 0);
    const right = Math.min(rect.right, window.innerWidth);
    const top = Math.max(rect.top, 0);
    const bottom = Math.min(rect.bottom, window.innerHeight);
    let hiddenBy: string | null = null;
    if (right - left < 1 || bottom - top < 1) {
      hiddenBy = 'outside the viewport';
    } else {
      const fixedAncestor = (node: Element | null) => {
        for (let n = node; n; n = n.parentElement) {
          const position = getComputedStyle(n).position;
          if (position === 'fixed' || position === 'sticky') return n;
        }
        return null;
      };
      let visible = false;
      let cover: Element | null = null;
      for (let i = 0; i < 5 && !visible; i++) {
        for (let j = 0; j < 5 && !visible; j++) {
          const x = left + ((right - left) * (i + 0.5)) / 5;
          const y = top + ((bottom - top) * (j + 0.5)) / 5;
          const hit = document.elementFromPoint(x, y);
          if (!hit || hit === el || el.contains(hit) || hit.contains(el)) {
            visible = true;
          } else {
            // A label over its own control, or any other in-flow content: not a fixed cover.
            const fixed = fixedAncestor(hit);
            if (fixed && !fixed.contains(el)) cover = fixed;
            else visible = true;
          }
        }
      }
      if (!visible) hiddenBy = cover ? describe(cover) : 'something';
    }
    return { key, label: describe(el), indicator, hiddenBy };
  };

  type Recorder = RecorderState & { remove: () => void };
  type Suspect = { direction: 'forward' | 'backward'; index: number; el: Element };
  const host = window as unknown as { __focusRecorder?: Recorder; __focusSuspects?: Suspect[]; __focusRecheck?: () => Promise<Rechecked[]> };
  host.__focusRecorder?.remove();
  // The stops found outside the viewport, both ways, looked at again once the sweep is over (recheckOutside).
  if (direction === 'forward') host.__focusSuspects = [];
  const suspects = (host.__focusSuspects ??= []);
  host.__focusRecheck = async () => {
    const before = focused();
    const found: Rechecked[] = [];
    for (const { direction, index, el } of suspects) {
      (el as HTMLElement).focus();
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      found.push({ direction, index, hiddenBy: el.isConnected && focused() === el ? (inspect()?.hiddenBy ?? null) : 'outside the viewport' });
    }
    if (before) (before as HTMLElement).focus({ preventScroll: true });
    else (document.activeElement as HTMLElement | null)?.blur?.();
    return found;
  };
  const now = inspect();
  const start = direction === 'forward' && fromFocus && now ? now.key : first;
  const state: Recorder = { stops: [], done: false, first: start, remove: () => {} };
  let last = start;
  const push = (stop: FocusStop) => {
    state.stops.push(stop);
    const el = focused();
    if (stop.hiddenBy === 'outside the viewport' && el) suspects.push({ direction, index: state.stops.length - 1, el });
  };
  const record = (stop: FocusStop | null) => {
    if (direction === 'forward') {
      if (!stop || stop.key === state.first) state.done = true;
      else if (stop.key !== last) {
        state.first ??= stop.key;
        last = stop.key;
        push(stop);
      }
    } else if (!stop) {
      state.done = true;
    } else {
      push(stop);
      if (stop.key === state.first) state.done = true;
    }
  };
  const onKeydown = (event: KeyboardEvent) => {
    if (event.key === 'Tab' && state.done) {
      event.preventDefault();
      event.stopImmediatePropagation();
    }
  };
  const onKeyup = (event: KeyboardEvent) => {
    if (event.key === 'Tab' && !state.done) record(inspect());
  };
  window.addEventListener('keydown', onKeydown, true);
  window.addEventListener('keyup', onKeyup, true);
  state.remove = () => {
    window.removeEventListener('keydown', onKeydown, true);
    window.removeEventListener('keyup', onKeyup, true);
  };
  host.__focusRecorder = state;
  if (direction === 'backward' && now) record(now);
  return now;
}

/** The recorder's state, read from the page. */
const recorded = (page: Page) =>
  page.evaluate(() => {
    const state = (window as unknown as { __focusRecorder: RecorderState }).__focusRecorder;
    return { stops: state.stops, done: state.done, first: state.first };
  });

/**
 * Presses Tab (Shift+Tab when `backwards`) until the recorder says the sweep is over, at most `max`
 * times. The presses go out in batches through the page's DevTools session: each one a key down
 * and a key up, sent in order without waiting for the one before, so the page takes them in order
 * (each key up runs the recorder on the stop its key down reached) and draws one frame for several
 * presses instead of one per press, about half of a sweep's CPU (docs/operations.md "The test
 * suite's time"). After each batch the recorder is read; presses past the end move nothing.
 */
async function pressUntilDone(page: Page, backwards: boolean, max: number): Promise<RecorderState> {
  const session = await page.context().newCDPSession(page);
  // What Playwright's keyboard sends for Tab; Shift+Tab is the same key with the Shift modifier (8).
  const tab = { key: 'Tab', code: 'Tab', windowsVirtualKeyCode: 9, modifiers: backwards ? 8 : 0 };
  try {
    let pressed = 0;
    for (;;) {
      const state = await recorded(page);
      if (state.done || pressed >= max) return state;
      const batch: Promise<unknown>[] = [];
      for (let i = 0; i < 16 && pressed < max; i++, pressed++) {
        batch.push(session.send('Input.dispatchKeyEvent', { type: 'rawKeyDown', ...tab }), session.send('Input.dispatchKeyEvent', { type: 'keyUp', ...tab }));
      }
      await Promise.all(batch);
    }
  } finally {
    await session.detach();
  }
}

/**
 * Looks again at each stop the sweep found outside the viewport, once the sweep is over: focused
 * again, the browser scrolls it into view as it does for Tab. A stop still not on screen is a real
 * problem (clipped, or placed off screen); one on screen now was moved by the page between the key
 * press and the look (a panel that a poll grew above it), and its finding is replaced by this look's.
 * The recorded stops are updated in place; nothing is asked of the page when none was found outside.
 */
async function recheckOutside(page: Page, stops: Record<'forward' | 'backward', FocusStop[]>) {
  if (![...stops.forward, ...stops.backward].some((stop) => stop.hiddenBy === 'outside the viewport')) return;
  const found = await page.evaluate(() => (window as unknown as { __focusRecheck: () => Promise<Rechecked[]> }).__focusRecheck());
  for (const { direction, index, hiddenBy } of found) stops[direction][index].hiddenBy = hiddenBy;
}

/**
 * Tabs through the page from its start (or, unless `fromStart`, from the focused element) until the
 * focus comes back round (or leaves the document), then, when `backwards`, Shift+Tabs all the way back. Returns the problems found, and the stops in
 * order (for tests that check the order or the count).
 */
export async function focusSweep(page: Page, { backwards = true, maxStops = 250, fromStart = true } = {}): Promise<{ problems: string[]; stops: string[] }> {
  const problems = new Set<string>();
  const check = (stop: FocusStop, direction: string) => {
    if (!stop.indicator) problems.add(`no visible focus indicator: ${stop.label}`);
    if (stop.hiddenBy) problems.add(`focus hidden (${direction}) ${stop.hiddenBy === 'outside the viewport' ? '' : 'under '}${stop.hiddenBy}: ${stop.label}`);
  };
  if (fromStart) {
    await page.evaluate(() => {
      (document.activeElement as HTMLElement | null)?.blur?.();
      window.scrollTo(0, 0);
    });
  }
  // From where the focus is (a dialog's first field): a focus trap brings Tab back round to it.
  const start = await page.evaluate(installFocusRecorder, ['forward', null, !fromStart] as ['forward', null, boolean]);
  const opened = !fromStart && start ? [start] : [];
  for (const stop of opened) check(stop, 'on open');
  const forward = await pressUntilDone(page, false, maxStops);
  if (!forward.done) problems.add(`more than ${maxStops} focus stops: the Tab order never comes back round`);
  const stops = [...opened, ...forward.stops].map((stop) => stop.label);

  let backward: RecorderState | null = null;
  if (backwards && stops.length > 1 && forward.done) {
    // From wherever Tab left the focus, back to the first stop.
    const now = await page.evaluate(installFocusRecorder, ['backward', forward.first, false] as ['backward', string | null, boolean]);
    if (!now) await page.keyboard.press('Shift+Tab');
    backward = await pressUntilDone(page, true, maxStops);
  }
  await recheckOutside(page, { forward: forward.stops, backward: backward?.stops ?? [] });
  forward.stops.forEach((stop) => check(stop, 'Tab'));
  backward?.stops.forEach((stop) => check(stop, 'Shift+Tab'));
  await page.evaluate(() => (window as unknown as { __focusRecorder?: { remove: () => void } }).__focusRecorder?.remove());
  return { problems: [...problems], stops };
}

/** At 320 CSS px wide nothing scrolls sideways (the viewport is left at 320 px). */
export async function reflowProblems(page: Page): Promise<string[]> {
  const height = page.viewportSize()?.height ?? 800;
  await page.setViewportSize({ width: 320, height });
  return page.evaluate(async () => {
    const root = document.documentElement;
    // A layout settles after the resize, and a toast or menu may be sliding in: only an overflow
    // that lasts (3 s of frames) is a page that scrolls sideways.
    let overflow = 0;
    for (const started = performance.now(); performance.now() - started < 3000; ) {
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      overflow = root.scrollWidth - root.clientWidth;
      if (overflow <= 0) return [];
    }
    // The deepest elements reaching past the right edge, to say what to fix (in page coordinates:
    // a focus sweep may have scrolled the page sideways).
    const past = (el: Element) => el.getBoundingClientRect().right + window.scrollX > root.clientWidth + 0.5;
    // A block whose box fits but whose text runs past it (a long unbroken word) counts too.
    const textPast = (el: Element) => el.scrollWidth > el.clientWidth + 0.5 && getComputedStyle(el).overflowX === 'visible';
    const culprits = [...document.body.querySelectorAll('*')]
      .filter((el) => (past(el) || textPast(el)) && ![...el.children].some((c) => past(c) || textPast(c)))
      .slice(0, 5)
      .map((el) => `${el.tagName.toLowerCase()}${el.className && typeof el.className === 'string' ? `.${el.className.split(' ').slice(0, 3).join('.')}` : ''} "${(el.textContent ?? '').trim().slice(0, 30)}"`);
    return [`scrolls sideways by ${overflow}px at 320px: ${culprits.join('; ')}`];
  });
}

/**
 * Every label (a <label>, or an element naming a control or group through aria-labelledby) that
 * shows the required mark (*) belongs to a control exposed as required (required or
 * aria-required="true"; a group says "required" in its name), and the mark is aria-hidden.
 */
export async function requiredFieldProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const shown = (el: Element) => (el as HTMLElement).offsetParent !== null || getComputedStyle(el).position === 'fixed';
    const controls = [...document.querySelectorAll('input:not([type="hidden"]), select, textarea, [role="group"], [role="radiogroup"], [role="grid"], fieldset')];
    for (const control of controls) {
      if (!shown(control) || control.closest('[aria-hidden="true"]')) continue;
      const labels: Element[] = [...((control as HTMLInputElement).labels ?? [])];
      for (const id of (control.getAttribute('aria-labelledby') ?? '').split(/\s+/).filter(Boolean)) {
        const label = document.getElementById(id);
        if (label) labels.push(label);
      }
      const name = `${control.tagName.toLowerCase()}${control.id ? `#${control.id}` : ''} "${labels.map((l) => l.textContent?.trim()).join(' ')}"`;
      const marks: Text[] = [];
      for (const label of labels) {
        const walker = document.createTreeWalker(label, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) if (node.textContent?.includes('*')) marks.push(node as Text);
      }
      if (!marks.length) continue;
      if (marks.some((mark) => !mark.parentElement?.closest('[aria-hidden="true"]'))) problems.push(`required mark read aloud as "star": ${name}`);
      const isField = /^(INPUT|SELECT|TEXTAREA)$/.test(control.tagName);
      const exposed = isField
        ? (control as HTMLInputElement).required || control.getAttribute('aria-required') === 'true'
        : control.getAttribute('aria-required') === 'true' || labels.some((l) => /required/i.test(l.textContent ?? ''));
      if (!exposed) problems.push(`marked required but not exposed as required: ${name}`);
    }
    return problems;
  });
}

/**
 * WCAG 2.5.8: each visible interactive target is at least 24 x 24 CSS px, or a 24 px circle on its
 * centre meets no other target (nor another small target's circle). Inline links in a sentence and
 * native controls the page does not size are exempt, as the criterion allows.
 */
export async function targetSizeProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const selector = 'a[href], button, input:not([type="hidden"]), select, textarea, summary, [role="button"], [role="link"], [role="tab"], [role="checkbox"], [role="switch"], [tabindex]:not([tabindex="-1"])';
    const targets = [...document.querySelectorAll(selector)].filter((el) => {
      if (el.closest('[aria-hidden="true"], [inert]')) return false;
      const rect = el.getBoundingClientRect();
      const style = getComputedStyle(el);
      // Visually hidden (a skip link until focused, Radix's 1 px focus proxies): not a target.
      return rect.width > 1 && rect.height > 1 && style.visibility !== 'hidden';
    });
    const rects = targets.map((el) => el.getBoundingClientRect());
    const small = targets.map((el, i) => {
      const r = rects[i];
      if (r.width >= 24 - 0.01 && r.height >= 24 - 0.01) return false;
      const style = getComputedStyle(el);
      if (style.display === 'inline') return false; // a link in a sentence
      // A native checkbox or radio button the page leaves at the browser's size.
      if (el instanceof HTMLInputElement && /^(checkbox|radio)$/.test(el.type) && style.appearance !== 'none' && !el.style.width) return false;
      return true;
    });
    const problems: string[] = [];
    targets.forEach((el, i) => {
      if (!small[i]) return;
      const r = rects[i];
      const cx = r.left + r.width / 2;
      const cy = r.top + r.height / 2;
      const clash = targets.some((other, j) => {
        if (j === i || other.contains(el) || el.contains(other)) return false;
        const o = rects[j];
        // Distance from the centre to the other target's box, and to its circle when it is small.
        const dx = Math.max(o.left - cx, 0, cx - o.right);
        const dy = Math.max(o.top - cy, 0, cy - o.bottom);
        if (Math.hypot(dx, dy) < 12) return true;
        return small[j] && Math.hypot(o.left + o.width / 2 - cx, o.top + o.height / 2 - cy) < 24;
      });
      if (!clash) return;
      const name = (el.getAttribute('aria-label') ?? (el as HTMLElement).innerText ?? '').trim().slice(0, 40);
      problems.push(`target ${Math.round(r.width)}x${Math.round(r.height)}px too small and too close to another: ${el.tagName.toLowerCase()} "${name}"`);
    });
    return problems;
  });
}

/** axe-core's browser build, read once per test process. */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe-core's violations on the page as it is now: within the `include` selectors (the whole page
 * without), for the rules tagged with one of `tags` (every rule without). axe is evaluated into the
 * page once per document and run in it, the page's own frame only: the screens' only frames are
 * the sandboxed newsletter previews (the sanitizer's business, and excluded by axeProblems) and
 * /contact's map, another origin's page loaded only on request. Only the violations are collected:
 * axe lists every passing node too unless told not to, about a third of its time, for results
 * nothing reads.
 */
export async function runAxe(page: Page, { include, exclude, tags }: { include?: string[]; exclude?: string[]; tags?: string[] } = {}): Promise<AxeResults['violations']> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  // Selectors as axe's context takes them: a list of selector lists.
  const context = { ...(include ? { include: include.map((selector) => [selector]) } : {}), exclude: (exclude ?? []).map((selector) => [selector]) };
  const options: RunOptions = { resultTypes: ['violations'], iframes: false, ...(tags ? { runOnly: { type: 'tag', values: tags } } : {}) };
  return page.evaluate(async ([context, options]) => {
    const { axe } = window as unknown as { axe: { run: (context: ContextObject, options: RunOptions) => Promise<AxeResults> } };
    return (await axe.run(context as ContextObject, options)).violations;
  }, [context, options] as const);
}

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/**
 * axe-core's serious and critical violations of WCAG 2.0-2.1 A/AA and the best practices, within
 * `include` (the whole page without), as "rule: targets" lines: the check a feature's own browser
 * tests make of its screen or panel (the sweeps above hold whole screens to axeProblems).
 */
export async function seriousAxeViolations(page: Page, include?: string[]): Promise<string[]> {
  const violations = await runAxe(page, { include, tags: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/**
 * axe-core: every WCAG 2.0-2.2 A/AA violation, and the serious or critical best-practice ones (every
 * best-practice one, whatever its impact, with `everyBestPractice`: the public pages are held to that).
 * The newsletter previews are sandboxed iframes of e-mail HTML (the sanitizer's business, not the
 * screen's): their elements keep their titles.
 */
export async function axeProblems(page: Page, { include, everyBestPractice = false }: { include?: string; everyBestPractice?: boolean } = {}): Promise<string[]> {
  const violations = await runAxe(page, { include: include ? [include] : undefined, exclude: ['iframe[sandbox]'], tags: [...WCAG_TAGS, 'best-practice'] });
  return violations
    .filter((v) => everyBestPractice || v.tags.some((tag) => WCAG_TAGS.includes(tag)) || v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `axe ${v.id} [${v.impact}]: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/**
 * The whole standard on the page as it is now, at its current width: focus sweep (Tab, and
 * Shift+Tab when `backwards`), required fields, target size and axe (`everyBestPractice` as
 * axeProblems takes it). Each problem starts with `label`, so one assertion lists all of a screen's problems.
 */
export async function sweepScreen(page: Page, label: string, { backwards = true, everyBestPractice = false } = {}): Promise<string[]> {
  const problems = [
    ...(await axeProblems(page, { everyBestPractice })),
    ...(await requiredFieldProblems(page)),
    ...(await targetSizeProblems(page)),
  ];
  const sweep = await focusSweep(page, { backwards });
  if (!sweep.stops.length) problems.push('no focus stop reached with Tab');
  problems.push(...sweep.problems);
  return problems.map((problem) => `${label}: ${problem}`);
}
