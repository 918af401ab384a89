// The browser entry of the prerendered public pages (docs/decisions/0009-islands-on-prerendered-pages.md).
// The page paints from its HTML and inlined critical CSS; only once it has loaded does this fetch the
// islands runtime (React, the frame's islands, then the page's own, and the page's late stylesheet,
// which the runtime links): nothing downloaded or run here competes with the first paint or the largest.
//
// Until an island is live its markup is static HTML, and a visitor may already be using it: typing
// is kept by the browser (the runtime carries the values into the island's state), but a click on a
// button would do nothing and a form's native submit would leave the page with the visitor's
// details in the address bar. So this holds such clicks and submits back, starts the runtime at
// once, and the runtime replays them on the live island (web/islands/runtime.tsx).

// Type only: the runtime itself is fetched later (loadRuntime).
import type { EarlyActions } from './islands/runtime';

const early: EarlyActions = { held: new Map() };

let requested = false;
const loadRuntime = () => {
  if (requested) return;
  requested = true;
  void import('./islands/runtime').then(({ startIslands }) => startIslands(early));
};

/** The island around `target` while it is still static HTML (the runtime marks it data-hydrating). */
function staticIsland(target: EventTarget | null): HTMLElement | null {
  const island = target instanceof Element ? target.closest<HTMLElement>('[data-island]') : null;
  return island && !('hydrating' in island.dataset) ? island : null;
}

function hold(event: Event, replay: HTMLElement | null) {
  const island = staticIsland(event.target);
  if (!island || !replay) return;
  event.preventDefault();
  const held = early.held.get(island) ?? [];
  // A double click on a button that does nothing yet is one intention, not two.
  if (held.at(-1) !== replay) held.push(replay);
  early.held.set(island, held);
  loadRuntime();
  early.wake?.(island);
}

// Captured at the document, before anything else sees them. Pressing Enter in a field clicks the
// form's submit button, so the click covers it; the submit listener covers forms without one.
document.addEventListener('click', (event) => hold(event, (event.target as Element).closest?.('button') ?? null), true);
document.addEventListener('submit', (event) => hold(event, event.target as HTMLFormElement), true);
// A visitor starting on an island does not wait for the page's last image.
document.addEventListener('focusin', (event) => staticIsland(event.target) && loadRuntime(), true);

// After the load event and the next frame (a rAF callback runs just before a paint, the timeout
// after it); a hidden tab paints no frames, so it goes straight on.
const afterLoad = () => (document.visibilityState === 'visible' ? requestAnimationFrame(() => setTimeout(loadRuntime, 0)) : loadRuntime());
if (document.readyState === 'complete') afterLoad();
else window.addEventListener('load', afterLoad, { once: true });
