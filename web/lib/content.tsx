import { createContext, useContext } from 'react';
import type { SiteContent } from '#core/content/schema';

// The firm's content as the pages read it (docs/decisions/0016-published-content-serving.md): one
// document in a React context, never module constants, so the same components render the defaults
// (the build's prerender, the single-page app), the published version (the worker's renderer) and a
// draft (Preview). Islands are hydrated without this context: a page hands each island what it shows
// as JSON props, so the browser hydrates exactly what the HTML shows, with no fetch and no flash.
// This module names no content itself, so an island importing it (through web/lib/page-meta.ts)
// carries no copy of the defaults into the browser.

const ContentContext = createContext<SiteContent | null>(null);

/** Provides the content document to the pages below it (web/entry-server.tsx, web/main.tsx). */
export const ContentProvider = ContentContext.Provider;

/** The content document the page is rendered with, or null inside an island (no provider). */
export const useOptionalContent = (): SiteContent | null => useContext(ContentContext);

/** The content document the page is rendered with. */
export function useContent(): SiteContent {
  const content = useContext(ContentContext);
  if (!content) throw new Error('useContent() outside a ContentProvider (an island takes its content as props)');
  return content;
}

/** The firm's address on one line ("street, city, region postalCode"). */
export const addressLine = ({ street, city, region, postalCode }: SiteContent['firm']['contact']['address']) => `${street}, ${city}, ${region} ${postalCode}`;
