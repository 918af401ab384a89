import { CONTENT_SECTIONS, type Field } from './sections';

// A path of the content document ('firm.links.payNow', 'faq.items.3.links.0.href') in the words of
// the content screens ('Firm details › Links › Pay Now address', 'FAQ › Questions › Question 4 ›
// Links › Link 1 › Link'), from the same field descriptions (sections.ts), for the Publish review and
// the history (docs/product.md §6.7). tests/content/change-labels.web.test.ts walks every field of the
// content schema (core/content/schema.ts) and fails on one the screens do not name.

/** The labels of the path's segments; false as soon as a segment is one the screens do not describe. */
function walk(fields: Field[], rest: string[], out: string[]): boolean {
  if (rest.length === 0) return true;
  const field = fields.find((f) => String(f.key) === rest[0]);
  if (!field) return false;
  if (field.kind === 'group') {
    if (field.label) out.push(field.label);
    return walk(field.fields, rest.slice(1), out);
  }
  out.push(field.label);
  if (field.kind !== 'list') return rest.length === 1;
  if (rest.length === 1) return true;
  const index = Number(rest[1]);
  if (!/^\d+$/.test(rest[1]) || !Number.isSafeInteger(index)) return false;
  out.push(`${field.itemLabel} ${index + 1}`);
  // An entry's fields: a group without a key of its own; a list of plain texts has none.
  if (field.item.kind === 'group') return walk(field.item.fields, rest.slice(2), out);
  return rest.length === 2;
}

/**
 * The labels from the section down to the field, or null for a path the screens do not describe
 * (a field of a newer or older version of the document).
 */
export function changeLabels(path: string): string[] | null {
  const segments = path.split('.');
  const section = CONTENT_SECTIONS.find((s) => (s.keys as string[]).includes(segments[0]));
  if (!section) return null;
  const out = [section.title];
  if (!walk(section.fields, segments, out)) return null;
  // "Testimonials › Testimonials › Testimonial 2": the section and its one list share a name.
  return out.filter((label, i) => label !== out[i - 1]);
}

/** The path in words, or a marked unknown that keeps the path for whoever can read it. */
export const changeLabel = (path: string) => changeLabels(path)?.join(' › ') ?? `Other field (${path})`;

/** The path as the lists show it: where the field is ("Firm details › Contact") and its name ("Phone"). */
export function changeWords(path: string): { where: string; field: string } {
  const labels = changeLabels(path);
  if (!labels) return { where: '', field: `Other field (${path})` };
  return { where: labels.slice(0, -1).join(' › '), field: labels[labels.length - 1] };
}
