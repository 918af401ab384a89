// The islands runtime of the prerendered public pages (docs/decisions/0009-islands-on-prerendered-pages.md),
// loaded by web/islands.tsx after the first paint: the page is already painted from its HTML; this
// hydrates only its islands (web/islands/island.tsx),
// each as a React root of its own, and wires what the whole page needs: the pageview, click tracking
// of marked links, the copyright year. No router: a link to another page loads that page's HTML.
import { type ReactNode, StrictMode, startTransition, useEffect } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { installClickTracking, trackPageview } from '../lib/analytics';
import { islands, type IslandName } from './registry';

/** What the visitor did to islands before they were live, handed to the runtime. */
export interface EarlyActions {
  /** Per island, the buttons clicked and forms submitted, in order, to replay once it is live. */
  held: Map<HTMLElement, HTMLElement[]>;
  /** Set by the runtime: starts an island now (one hydrated when visible that the visitor reached). */
  wake?: (island: HTMLElement) => void;
}

/** Marks its island hydrated (data-hydrated, which browser tests wait for) once React has committed it. */
function Hydrated({ element, onHydrated, children }: { element: HTMLElement; onHydrated: () => void; children: ReactNode }) {
  useEffect(() => {
    // Once (development's StrictMode runs effects twice).
    if (element.dataset.hydrated) return;
    // eslint-disable-next-line react-hooks/immutability -- the island's own DOM element, marked for the browser tests
    element.dataset.hydrated = 'true';
    onHydrated();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, when React has committed the island
  }, []);
  return children;
}

/**
 * What the visitor typed or chose before the island was live is on screen (hydration leaves the
 * fields' values alone) but not in the island's state. Once it is live, each field that differs
 * from what was rendered (its default) is told to React as the visitor's own edit would be: an
 * input event for text (React ignores one whose value it already recorded, so the field is first
 * set back to its default through the property React watches, then to the visitor's value past
 * it), a change event for a select.
 */
function carryValues(island: HTMLElement) {
  for (const control of island.querySelectorAll('input, textarea, select')) {
    if (control instanceof HTMLSelectElement) {
      if ([...control.options].some((option) => option.selected !== option.defaultSelected)) control.dispatchEvent(new Event('change', { bubbles: true }));
      continue;
    }
    if (!(control instanceof HTMLInputElement || control instanceof HTMLTextAreaElement)) continue;
    if (control.type === 'checkbox' || control.type === 'radio' || control.value === control.defaultValue) continue;
    const { value, selectionStart, selectionEnd } = control;
    control.value = control.defaultValue;
    Object.getOwnPropertyDescriptor(Object.getPrototypeOf(control) as object, 'value')!.set!.call(control, value);
    control.dispatchEvent(new Event('input', { bubbles: true }));
    // The visitor may be typing in it right now: the caret stays where it was.
    if (document.activeElement === control && selectionStart !== null) control.setSelectionRange(selectionStart, selectionEnd);
  }
}

/** Replays the clicks and submits web/islands.tsx held back while the island was static. */
function replay(held: HTMLElement[] | undefined) {
  for (const target of held ?? []) {
    if (!target.isConnected) continue;
    if (target instanceof HTMLFormElement) target.requestSubmit();
    else target.click();
  }
}

/**
 * Loads an island's component and hydrates it once `styled` (the page's late stylesheet) has
 * settled, so a held click that opens a menu finds it styled; settles once the island is live.
 */
async function hydrateIsland(element: HTMLElement, early: EarlyActions, styled: Promise<void>): Promise<void> {
  const name = element.dataset.island as IslandName;
  const load = islands[name]?.load;
  if (!load) throw new Error(`Unknown island "${name}"`);
  const props = JSON.parse(element.dataset.props ?? '{}') as Record<string, unknown>;
  const [Component] = await Promise.all([load(), styled]);
  // From here React owns the island's events (it replays those that arrive while it hydrates).
  element.dataset.hydrating = '';
  await new Promise<void>((resolve) => {
    // As a transition, React hydrates the island in slices of a few milliseconds and yields to the
    // browser between them, instead of one long task that would hold a tap or a scroll back; a
    // click on the island meanwhile still hydrates it at once (docs/decisions/0009).
    startTransition(() => {
      hydrateRoot(
        element,
        <StrictMode>
          <Hydrated
            element={element}
            onHydrated={() => {
              carryValues(element);
              // After the state the carried values set has rendered, so a replayed submit sees it.
              setTimeout(() => {
                replay(early.held.get(element));
                early.held.delete(element);
                resolve();
              }, 0);
            }}
          >
            <Component {...props} />
          </Hydrated>
        </StrictMode>,
        {
          identifierPrefix: `${name}-`,
          // A mismatch (HTML that is not what the component renders) costs the island a client
          // render: said plainly on the console, where the browser tests look for it.
          onRecoverableError: (error) => console.error(`Island "${name}" could not be hydrated:`, error),
        },
      );
    });
  });
}

/**
 * The page's late stylesheet, for what islands render later (menus, dialogs, messages): the page's
 * HTML carries only the CSS its own markup uses, and the build names the sheet with the rest on the
 * root (scripts/prerender.ts, scripts/lib/late-css.ts). Settles once it has loaded (or failed: the
 * page still works, only a later menu would be unstyled).
 */
function loadLateStylesheet(): Promise<void> {
  const href = document.getElementById('root')?.dataset.stylesheet;
  if (!href) return Promise.resolve();
  return new Promise((resolve) => {
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = href;
    link.onload = link.onerror = () => resolve();
    document.head.appendChild(link);
  });
}

/**
 * Settles in a task of its own, queued behind what is waiting now (input included). A message
 * rather than a timer: a background tab's timers run at most once a second.
 */
function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const { port1, port2 } = new MessageChannel();
    port1.onmessage = () => {
      port1.close();
      resolve();
    };
    port2.postMessage(null);
  });
}

/**
 * Hydrates the page's islands: at once, or (data-hydrate="visible") once near the viewport. Those
 * started at once start one per task, after the task that evaluated React: starting one (its
 * chunk's preload links, its props) is a few milliseconds of main-thread time, and together with
 * React's evaluation they made one task long enough to hold a tap back (docs/decisions/0009).
 */
function hydrateIslands(early: EarlyActions, styled: Promise<void>): Promise<unknown> {
  const now: Promise<unknown>[] = [];
  let turn = nextTask();
  const started = new WeakSet<Element>();
  const start = (element: HTMLElement) => {
    if (started.has(element)) return;
    started.add(element);
    for (const child of element.children) nearViewport.unobserve(child);
    return hydrateIsland(element, early, styled);
  };
  const nearViewport = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) if (entry.isIntersecting) start(entry.target.closest<HTMLElement>('[data-island]')!);
    },
    // Started a screen early, so the island is live by the time the visitor reaches it.
    { rootMargin: '100% 0px' },
  );
  for (const element of document.querySelectorAll<HTMLElement>('[data-island]')) {
    if (element.dataset.hydrate !== 'visible') {
      const mine = turn;
      turn = mine.then(nextTask);
      // A visitor's click may have started it already: start() then does nothing.
      now.push(mine.then(() => start(element)));
      continue;
    }
    // The wrapper is display: contents (no box of its own): its children are what come into view.
    for (const child of element.children) nearViewport.observe(child);
    // A visitor already reaching for it (a jump to the footer, the keyboard) starts it at once.
    for (const type of ['pointerenter', 'focusin', 'touchstart'] as const) element.addEventListener(type, () => start(element), { once: true, passive: true });
  }
  // Islands the visitor clicked before this ran, and those clicked from now on, start at once.
  early.wake = (element) => void start(element);
  for (const element of early.held.keys()) void start(element);
  return Promise.allSettled(now);
}

// The footer's copyright year: the build's in the HTML, the browser's clock once it runs (in case
// the year has turned since the build).
function refreshYear() {
  const year = String(new Date().getFullYear());
  for (const element of document.querySelectorAll<HTMLElement>('[data-current-year]')) {
    if (element.textContent !== year) element.textContent = year;
  }
}

/** Called by web/islands.tsx with what the visitor already did to the page's islands. */
export function startIslands(early: EarlyActions) {
  installClickTracking();
  refreshYear();
  // The late stylesheet and the islands' chunks download side by side; the pageview once the
  // islands are live.
  void hydrateIslands(early, loadLateStylesheet()).then(() => trackPageview(window.location.pathname));
}
