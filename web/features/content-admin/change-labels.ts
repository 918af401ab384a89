import { CONTENT_SECTIONS, type Field } from './sections';

// A path of the content document ('firm.links.payNow', 'faq.items.3.links.0.href') in the words of
// the content screens ('Firm details › Links › Pay Now address', 'FAQ › Questions › Question 4 ›
// Links › Link 1 › Link'), from the same field descriptions (sections.ts), for the Publish review.

function walk(fields: Field[], rest: string[], out: string[]) {
  if (rest.length === 0) return;
  const field = fields.find((f) => String(f.key) === rest[0]);
  if (!field) {
    out.push(...rest);
    return;
  }
  if (field.kind === 'group') {
    if (field.label) out.push(field.label);
    walk(field.fields, rest.slice(1), out);
    return;
  }
  out.push(field.label);
  if (field.kind !== 'list' || rest.length < 2) {
    if (rest.length > 1) out.push(...rest.slice(1));
    return;
  }
  const index = Number(rest[1]);
  out.push(Number.isInteger(index) ? `${field.itemLabel} ${index + 1}` : rest[1]);
  // An entry's fields: a group without a key of its own; a list of plain texts has none.
  if (field.item.kind === 'group') walk(field.item.fields, rest.slice(2), out);
  else if (rest.length > 2) out.push(...rest.slice(2));
}

/** The labels from the section down to the field; a part the screens do not describe keeps its key. */
export function changeLabels(path: string): string[] {
  const segments = path.split('.');
  const section = CONTENT_SECTIONS.find((s) => (s.keys as string[]).includes(segments[0]));
  if (!section) return segments;
  const out = [section.title];
  walk(section.fields, segments, out);
  // "Testimonials › Testimonials › Testimonial 2": the section and its one list share a name.
  return out.filter((label, i) => label !== out[i - 1]);
}

export const changeLabel = (path: string) => changeLabels(path).join(' › ');
