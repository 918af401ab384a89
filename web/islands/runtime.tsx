// The islands runtime of the prerendered public pages (docs/decisions/0009-islands-on-prerendered-pages.md),
// loaded by web/islands.tsx after the first paint: the page is already painted from its HTML; this
// hydrates only its islands (web/islands/island.tsx),
// each as a React root of its own, and wires what the whole page needs: the pageview, click tracking
// of marked links, the copyright year. No router: a link to another page loads that page's HTML.
import { type ReactNode, StrictMode, useEffect } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { installClickTracking, trackPageview } from '../lib/analytics';
import type { IslandName } from './names';
import { islandLoaders } from './registry';
// The whole stylesheet, for what islands render later (menus, dialogs, messages): the page's HTML
// carries only its critical CSS (scripts/prerender.ts); Vite adds this link as the runtime loads.
import '../styles.css';

/** Marks its island hydrated (data-hydrated, which browser tests wait for) once React has committed it. */
function Hydrated({ element, onHydrated, children }: { element: HTMLElement; onHydrated: () => void; children: ReactNode }) {
  useEffect(() => {
    element.dataset.hydrated = 'true';
    onHydrated();
  }, []);
  return children;
}

/** Loads an island's component and hydrates it; settles once the island is live. */
async function hydrateIsland(element: HTMLElement): Promise<void> {
  const name = element.dataset.island as IslandName;
  const load = islandLoaders[name];
  if (!load) throw new Error(`Unknown island "${name}"`);
  const props = JSON.parse(element.dataset.props ?? '{}') as Record<string, unknown>;
  const Component = await load();
  await new Promise<void>((resolve) => {
    hydrateRoot(
      element,
      <StrictMode>
        <Hydrated element={element} onHydrated={resolve}>
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
}

/** Hydrates the page's islands: at once, or (data-hydrate="visible") once near the viewport. */
function hydrateIslands(): Promise<unknown> {
  const now: Promise<void>[] = [];
  const started = new WeakSet<Element>();
  const start = (element: HTMLElement) => {
    if (started.has(element)) return;
    started.add(element);
    for (const child of element.children) nearViewport.unobserve(child);
    void hydrateIsland(element);
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
      now.push(hydrateIsland(element));
      continue;
    }
    // The wrapper is display: contents (no box of its own): its children are what come into view.
    for (const child of element.children) nearViewport.observe(child);
    // A visitor already reaching for it (a jump to the footer, the keyboard) starts it at once.
    for (const type of ['pointerenter', 'focusin', 'touchstart'] as const) element.addEventListener(type, () => start(element), { once: true, passive: true });
  }
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

installClickTracking();
refreshYear();
// The pageview once the page's islands are live (browser tests wait for it before clicking).
void hydrateIslands().then(() => trackPageview(window.location.pathname));
