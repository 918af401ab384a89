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

function quote(value: Json | undefined): string | number | boolean | null | undefined {
  if (value === undefined || typeof value === 'object') return value === null ? null : undefined;
  if (typeof value === 'string' && value.length > QUOTE_CHARS) return `${value.slice(0, QUOTE_CHARS - 1)}…`;
  return value;
}

function walk(before: Json | undefined, after: Json | undefined, path: string[], out: ContentChange[]) {
  if (before === undefined && after === undefined) return;
  if (before === undefined) {
    out.push({ path: path.join('.'), kind: 'added', ...(quote(after) !== undefined ? { after: quote(after) } : {}) });
    return;
  }
  if (after === undefined) {
    out.push({ path: path.join('.'), kind: 'removed', ...(quote(before) !== undefined ? { before: quote(before) } : {}) });
    return;
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    // By position: a reordered list shows as its entries changed, which is what the page shows too.
    for (let i = 0; i < Math.max(before.length, after.length); i++) walk(before[i], after[i], [...path, String(i)], out);
    return;
  }
  if (isObject(before) && isObject(after)) {
    for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) walk(before[key], after[key], [...path, key], out);
    return;
  }
  if (JSON.stringify(before) === JSON.stringify(after)) return;
  const change: ContentChange = { path: path.join('.'), kind: 'changed' };
  if (quote(before) !== undefined) change.before = quote(before);
  if (quote(after) !== undefined) change.after = quote(after);
  out.push(change);
}

/** Every difference between two documents, in document order; `changes` holds the first MAX_LISTED_CHANGES. */
export function diffContent(before: unknown, after: unknown): { changes: ContentChange[]; moreChanges: number } {
  const all: ContentChange[] = [];
  walk(before as Json, after as Json, [], all);
  return { changes: all.slice(0, MAX_LISTED_CHANGES), moreChanges: Math.max(0, all.length - MAX_LISTED_CHANGES) };
}
