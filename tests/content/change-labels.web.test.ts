import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { siteContentSchema } from '#core/content/schema';
import { changeLabel, changeLabels } from '../../web/features/content-admin/change-labels';

// Every field of the content document has a name a person reads in the history and the Publish
// review (docs/product.md §6.7): the paths are walked from the schema itself (core/content/schema.ts),
// so a field added there without a label in web/features/content-admin/sections.ts fails here, by path.

interface ZodDef {
  type: string;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  innerType?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
  options?: z.ZodType[];
}
const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: ZodDef } })._zod.def;

/** Every path the diff can name: each part, each list entry (as entry 0) and each leaf. */
function paths(schema: z.ZodType, prefix: string[], out: string[]) {
  const def = defOf(schema);
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      return paths(def.innerType!, prefix, out);
    case 'pipe':
      // A transform's output is what is stored; an input pipe (trim, then check) is a leaf either way.
      return paths(defOf(def.out!).type === 'transform' ? def.in! : def.out!, prefix, out);
    case 'object':
      if (prefix.length) out.push(prefix.join('.'));
      for (const [key, part] of Object.entries(def.shape!)) paths(part, [...prefix, key], out);
      return;
    case 'array':
      out.push(prefix.join('.'));
      return paths(def.element!, [...prefix, '0'], out);
    case 'union':
      for (const option of def.options!) paths(option, prefix, out);
      return;
    default:
      out.push(prefix.join('.'));
  }
}

const ALL = (() => {
  const out: string[] = [];
  paths(siteContentSchema, [], out);
  return [...new Set(out)];
})();

describe('content field labels', () => {
  it('walks the whole schema (the walker itself reaches the deep fields)', () => {
    expect(ALL.length).toBeGreaterThan(80);
    expect(ALL).toContain('firm.contact.phoneHref');
    expect(ALL).toContain('faq.items.0.links.0.href');
    expect(ALL).toContain('services.groups.0.services.0.description');
  });

  it('names every field, part and list entry of the content document', () => {
    const unnamed = ALL.filter((path) => changeLabels(path) === null);
    expect(unnamed).toEqual([]);
    // Words, never a key: no label the screens give is a segment of the path in code.
    for (const path of ALL) for (const label of changeLabels(path)!) expect(label, path).not.toMatch(/^[a-z]+[A-Z]\w*$|^\d+$/);
  });

  it.each([
    ['firm.contact.phone', 'Firm details › Contact › Phone'],
    ['firm.contact.phoneHref', 'Firm details › Contact › Phone link'],
    ['services.groups.0.services.1.description', 'Services and prices › Service groups › Group 1 › Services › Service 2 › Description'],
    ['faq.items.3.links.0.href', 'FAQ › Questions › Question 4 › Links › Link 1 › Link'],
    ['testimonials.1', 'Testimonials › Testimonial 2'],
  ])('reads paths as the screens name them: %j', (input, expected) => {
    expect(changeLabel(input)).toBe(expected);
  });

  it.each([
    ['firm.contact.pager', 'Other field (firm.contact.pager)'],
    ['newSection.title', 'Other field (newSection.title)'],
    ['faq.items.x.answer', 'Other field (faq.items.x.answer)'],
    ['firm.name.first', 'Other field (firm.name.first)'],
  ])('marks a path no screen knows (an older or newer document) as such, keeping the path: %j', (input, expected) => {
    expect(changeLabel(input)).toBe(expected);
  });
});
