import type { ComponentType } from 'react';
import type { IslandName } from './registry';

// Islands (docs/decisions/0009-islands-on-prerendered-pages.md): a prerendered public page is
// static HTML; only the parts a visitor interacts with are hydrated, each as its own React root,
// by web/islands.tsx. `island(name, Component)` marks such a part: it renders
//   <div data-island="name" data-props='{"json":"props"}' class="contents">...the component...</div>
// and the browser hydrates the component into that div with the same props. The props are JSON, so
// an island takes only serializable props, and it uses no router context (it is hydrated without
// one): links inside islands are plain <a href>.
//
// At build time (web/entry-server.tsx) the component is not rendered inside the page's tree but as
// a root of its own, with the island's name as React's identifierPrefix, exactly as the browser
// hydrates it: useId values then match, and two islands never share an id.

interface ServerIsland {
  name: IslandName;
  element: React.ReactElement;
}

/** Set by the prerender while it renders a page: the islands met so far, rendered afterwards. */
let serverIslands: ServerIsland[] | null = null;

export function collectServerIslands(): ServerIsland[] {
  serverIslands = [];
  return serverIslands;
}

export function stopCollectingServerIslands() {
  serverIslands = null;
}

/** The placeholder the prerender replaces with island `index`'s own HTML. */
export const islandPlaceholder = (index: number) => `<!--island:${index}-->`;

export interface IslandOptions {
  /**
   * 'load' (the default): hydrated as soon as the page's scripts run, its chunk modulepreloaded.
   * 'visible': below the fold; its chunk is fetched and hydrated when it comes near the viewport,
   * so a visit that never scrolls there never downloads it.
   */
  hydrate?: 'load' | 'visible';
  /** The wrapper's class: 'contents' keeps it out of the layout. */
  className?: string;
}

export function island<P extends Record<string, unknown>>(name: IslandName, Component: ComponentType<P>, { hydrate = 'load', className = 'contents' }: IslandOptions = {}) {
  function Island(props: P) {
    const attributes = { 'data-island': name, 'data-hydrate': hydrate === 'visible' ? 'visible' : undefined, 'data-props': JSON.stringify(props), className };
    if (serverIslands) {
      const index = serverIslands.push({ name, element: <Component {...props} /> }) - 1;
      return <div {...attributes} dangerouslySetInnerHTML={{ __html: islandPlaceholder(index) }} />;
    }
    // In the single-page app (client-only screens such as /admin) the island is an ordinary part of
    // the tree: the same markup, rendered in place.
    return (
      <div {...attributes}>
        <Component {...props} />
      </div>
    );
  }
  Island.displayName = `Island(${name})`;
  return Island;
}
