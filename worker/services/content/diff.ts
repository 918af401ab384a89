// The history's readable diff (docs/product.md, the content API): what a published version changed
// against the one before it, as a list of paths ('firm.contact.phone', 'testimonials.2.text') with
// the text before and after when it is short enough to read in a list.

export interface ContentChange {
  path: string;
  kind: 'changed' | 'added' | 'removed';
  /** The value before, for text, numbers and empty values (shortened); absent for a whole object or list. */
  before?: string | number | boolean | null;
  after?: string | number | boolean | null;
}

/** How much of a text the summary quotes. */
const QUOTE_CHARS = 120;
/** The summary lists at most this many changes; the rest are counted. */
export const MAX_LISTED_CHANGES = 50;

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

const isObject = (value: Json | undefined): value is { [key: string]: Json } => typeof value === 'object' && value !== null && !Array.isArray(value);

function quote(value: Json | undefined, chars: number): string | number | boolean | null | undefined {
  if (value === undefined || typeof value === 'object') return value === null ? null : undefined;
  if (typeof value === 'string' && value.length > chars) return `${value.slice(0, chars - 1)}…`;
  return value;
}

/** A change with the raw values on both sides (objects and lists included), for who classifies it (review.ts). */
export interface RawChange {
  change: ContentChange;
  rawBefore: unknown;
  rawAfter: unknown;
}

/**
 * `expand`: an entry or a part added or removed whole is listed field by field (the review shows each
 * value a publish would put live), instead of as one change without its values (the history's way).
 */
function walk(before: Json | undefined, after: Json | undefined, path: string[], out: RawChange[], chars: number, expand: boolean) {
  if (before === undefined && after === undefined) return;
  const whole = before === undefined ? after : after === undefined ? before : undefined;
  if (expand && whole !== undefined && typeof whole === 'object' && whole !== null) {
    const keys = Array.isArray(whole) ? whole.map((_, i) => String(i)) : Object.keys(whole);
    if (keys.length > 0) {
      for (const key of keys) {
        const part = (whole as Record<string, Json>)[key];
        walk(before === undefined ? undefined : part, after === undefined ? undefined : part, [...path, key], out, chars, expand);
      }
      return;
    }
  }
  const push = (kind: ContentChange['kind']) => {
    const change: ContentChange = { path: path.join('.'), kind };
    if (quote(before, chars) !== undefined) change.before = quote(before, chars);
    if (quote(after, chars) !== undefined) change.after = quote(after, chars);
    out.push({ change, rawBefore: before, rawAfter: after });
  };
  if (before === undefined) return push('added');
  if (after === undefined) return push('removed');
  if (Array.isArray(before) && Array.isArray(after)) {
    // By position: a reordered list shows as its entries changed, which is what the page shows too.
    for (let i = 0; i < Math.max(before.length, after.length); i++) walk(before[i], after[i], [...path, String(i)], out, chars, expand);
    return;
  }
  if (isObject(before) && isObject(after)) {
    for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) walk(before[key], after[key], [...path, key], out, chars, expand);
    return;
  }
  if (JSON.stringify(before) === JSON.stringify(after)) return;
  push('changed');
}

/**
 * Every difference between two documents, in document order, none left out: texts are quoted up to
 * `quoteChars` (the publish review quotes them whole, so what it shows is what goes live).
 */
export function allChanges(before: unknown, after: unknown, options: { quoteChars?: number; expand?: boolean } = {}): RawChange[] {
  const all: RawChange[] = [];
  walk(before as Json, after as Json, [], all, options.quoteChars ?? QUOTE_CHARS, options.expand ?? false);
  return all;
}

/** Every difference between two documents, in document order; `changes` holds the first MAX_LISTED_CHANGES. */
export function diffContent(before: unknown, after: unknown): { changes: ContentChange[]; moreChanges: number } {
  const all = allChanges(before, after).map((c) => c.change);
  return { changes: all.slice(0, MAX_LISTED_CHANGES), moreChanges: Math.max(0, all.length - MAX_LISTED_CHANGES) };
}
