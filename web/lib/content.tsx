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

/** The firm's town as the pages name it ("Warrendale, PA"). */
export const firmTown = ({ city, region }: SiteContent['firm']['contact']['address']) => `${city}, ${region}`;

/** The firm's state spelled out ("Pennsylvania"), by its code in the content's state list; the code itself otherwise. */
export const firmStateName = ({ firm, resources }: Pick<SiteContent, 'firm' | 'resources'>) =>
  resources.stateLinks.find((state) => state.code === firm.contact.address.region)?.name ?? firm.contact.address.region;

/** The years of experience in a sentence: "over 5" for "5+", the firm's words as typed otherwise ("25"). */
export const experienceYears = (yearsOfExperience: string) => yearsOfExperience.replace(/^(\d+)\+$/, 'over $1');

/** The mileage rate a tax fact states ("70 cents per mile"), or null when no fact states one. */
export const mileageRate = (facts: readonly string[]) => facts.map((fact) => /\d+(?:\.\d+)? cents per mile/.exec(fact)?.[0]).find(Boolean) ?? null;

/** A phrase of the content at the start of a sentence ("free" → "Free"). */
export const sentenceCase = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
