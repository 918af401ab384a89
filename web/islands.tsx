// The browser entry of the prerendered public pages (docs/decisions/0009-islands-on-prerendered-pages.md).
// The page paints from its HTML and inlined critical CSS; only once it has loaded does this fetch the
// islands runtime (React, the frame's islands, then the page's own, and the whole stylesheet, which
// the runtime imports): nothing downloaded or run here competes with the first paint or the largest.

const loadRuntime = () => void import('./islands/runtime');

// After the load event and the next frame (a rAF callback runs just before a paint, the timeout
// after it); a hidden tab paints no frames, so it goes straight on.
const afterLoad = () => (document.visibilityState === 'visible' ? requestAnimationFrame(() => setTimeout(loadRuntime, 0)) : loadRuntime());
if (document.readyState === 'complete') afterLoad();
else window.addEventListener('load', afterLoad, { once: true });
