import { allChanges, type ContentChange } from './diff';

// What a Publish would change (docs/product.md §6.6, "Review before publishing"; issue 48): the
// draft against the live version, change by change, each with who saved it and when, and the
// changes a visitor's money or mail would follow (the firm's e-mail addresses, the Pay Now link,
// the portal and every other link) flagged, so a staff member's edit to them cannot ride an
// owner's Publish unseen.

/** Why a change is flagged: it moves where payments, mail or visitors go. */
export type ChangeFlag = 'payment' | 'email' | 'link';

/** Who saved a change of the draft, and when (ISO). */
export interface SavedBy {
  by: string;
  at: string;
}

/** Per path of the draft's changes against its base: who last saved that part. Stored with the draft. */
export type ChangeAuthors = Record<string, SavedBy>;

export interface ReviewChange extends ContentChange {
  flag: ChangeFlag | null;
  /** Who saved this change, latest first; empty for a draft saved before changes were attributed. */
  savedBy: SavedBy[];
}

/** The longest text of the document (a privacy paragraph, core/content/schema.ts): the review quotes every value whole. */
const WHOLE = 3000;

/** Fields whose whole value is a link, by their key in the document (core/content/schema.ts). */
const FLAG_BY_KEY: Record<string, ChangeFlag> = {
  payNow: 'payment',
  email: 'email',
  clientPortal: 'link',
  googleReviews: 'link',
  mapEmbed: 'link',
  mapLink: 'link',
  href: 'link',
  refundUrl: 'link',
  phoneHref: 'link',
};

const LINK = /(?:https?:|mailto:|tel:)[^\s"'<>]+/gi;
const ADDRESS = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g;

/** Every link and e-mail address written anywhere in a value (rich text's hrefs included), with how often. */
function linksIn(value: unknown, out = new Map<string, number>()): Map<string, number> {
  if (typeof value === 'string') {
    for (const match of [...value.matchAll(LINK), ...value.matchAll(ADDRESS)]) {
      const entry = match[0].toLowerCase();
      out.set(entry, (out.get(entry) ?? 0) + 1);
    }
  } else if (Array.isArray(value)) {
    for (const item of value) linksIn(item, out);
  } else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      // A link field's whole value counts even when it is no URL (a bare e-mail address).
      if (key in FLAG_BY_KEY && typeof item === 'string') {
        const entry = `${key}:${item}`.toLowerCase();
        out.set(entry, (out.get(entry) ?? 0) + 1);
      }
      linksIn(item, out);
    }
  }
  return out;
}

/** The links that are on one side only (or not as often), as one list. */
function changedLinks(before: unknown, after: unknown): string[] {
  const a = linksIn(before);
  const b = linksIn(after);
  return [...new Set([...a.keys(), ...b.keys()])].filter((link) => a.get(link) !== b.get(link));
}

/** Whether a change at `path` moves an e-mail address, the Pay Now link or any other link. */
export function flagOf(path: string, rawBefore: unknown, rawAfter: unknown): ChangeFlag | null {
  const keys = path.split('.').filter((segment) => !/^\d+$/.test(segment));
  const key = keys[keys.length - 1];
  const changed = changedLinks(rawBefore, rawAfter);
  if (key === 'payNow' || changed.some((link) => link.startsWith('paynow:'))) return 'payment';
  if (key === 'email' || changed.some((link) => link.startsWith('mailto:') || link.startsWith('email:') || !link.includes(':'))) return 'email';
  if ((key && key in FLAG_BY_KEY) || changed.length > 0) return 'link';
  return null;
}

/** A path and every path containing it: 'faq.items.3.id' -> 'faq', 'faq.items', 'faq.items.3', 'faq.items.3.id'. */
function prefixes(path: string): string[] {
  const segments = path.split('.');
  return segments.map((_, i) => segments.slice(0, i + 1).join('.'));
}

/**
 * Values by path, found for a path when stored at it, inside it or at what contains it ('faq.items.3'
 * and 'faq.items.3.links.0.href' are related): a lookup costs the path's depth, not the number of
 * paths, so a draft that changes thousands of fields is still one quick pass.
 */
class PathIndex<T> {
  private readonly at = new Map<string, T[]>();
  private readonly under = new Map<string, T[]>();
  add(path: string, value: T) {
    PathIndex.push(this.at, path, value);
    for (const prefix of prefixes(path)) PathIndex.push(this.under, prefix, value);
  }
  private static push<T>(map: Map<string, T[]>, key: string, value: T) {
    const list = map.get(key);
    if (list) list.push(value);
    else map.set(key, [value]);
  }
  related(path: string): T[] {
    const found = [...(this.under.get(path) ?? [])];
    for (const prefix of prefixes(path).slice(0, -1)) found.push(...(this.at.get(prefix) ?? []));
    return found;
  }
}

/**
 * The authors after a save: every change of the new draft against its base keeps who saved it last:
 * the saver now when this save touched it (the path, a part of it or what contains it), else whoever
 * did before. Only the draft's changes against its base are kept, so the record is bounded by the
 * draft's own changes (the document is at most 256 KB).
 */
export function authorsAfterSave(input: {
  base: unknown;
  previous: unknown;
  previousAuthors: ChangeAuthors;
  next: unknown;
  saved: SavedBy;
}): ChangeAuthors {
  const touched = new PathIndex<true>();
  for (const { change } of allChanges(input.previous, input.next)) touched.add(change.path, true);
  const earlier = authorIndex(input.previousAuthors);
  const authors: ChangeAuthors = {};
  for (const { change } of allChanges(input.base, input.next)) {
    if (touched.related(change.path).length > 0) authors[change.path] = input.saved;
    else {
      const before = latestOf(earlier, change.path);
      if (before.length > 0) authors[change.path] = before[0];
    }
  }
  return authors;
}

function authorIndex(authors: ChangeAuthors): PathIndex<SavedBy> {
  const index = new PathIndex<SavedBy>();
  for (const [path, saved] of Object.entries(authors)) index.add(path, saved);
  return index;
}

/** Who saved the change at `path` (or a part of it, or what contains it), latest first, one entry per person. */
function latestOf(authors: PathIndex<SavedBy>, path: string): SavedBy[] {
  const found = authors.related(path).sort((a, b) => b.at.localeCompare(a.at));
  const seen = new Set<string>();
  return found.filter((s) => !seen.has(s.by) && seen.add(s.by));
}

/** The draft's changes against the live document, each flagged or not and with who saved it. */
export function reviewChanges(live: unknown, draft: unknown, authors: ChangeAuthors): ReviewChange[] {
  const index = authorIndex(authors);
  return allChanges(live, draft, { quoteChars: WHOLE, expand: true }).map(({ change, rawBefore, rawAfter }) => ({
    ...change,
    flag: flagOf(change.path, rawBefore, rawAfter),
    savedBy: latestOf(index, change.path),
  }));
}
