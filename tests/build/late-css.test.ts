// scripts/lib/late-css.ts: how a prerendered page's stylesheet is split between its inline CSS and
// the late sheet the islands runtime links (web/islands/runtime.tsx). The rule that matters: the two
// together must style every element as the whole sheet would, and the late sheet must hold no rule
// that restyles what the page already shows.
import { describe, expect, it } from 'vitest';
import { propertyKind, specificity, splitStylesheet } from '../../scripts/lib/late-css';

/** A small sheet shaped like Tailwind's output: layers, preflight, utilities, variants. */
const whole = [
  '/*! tailwindcss */',
  '@layer properties{@supports (-moz-orient:inline){*,:before,:after{--tw-shadow:0 0 #0000}}}',
  '@layer theme{:root,:host{--color-brand:#163f6c;--spacing:.25rem}}',
  '@layer base{*,:after,:before{box-sizing:border-box;margin:0}::backdrop{margin:0}hr{height:0}textarea{resize:vertical}}',
  '@layer components;',
  '@layer utilities{',
  '.sr-only{position:absolute;width:1px}',
  '.inset-0{inset:0}',
  '.top-4{top:1rem}',
  '.block{display:block}',
  '.hidden{display:none}',
  '.p-2{padding:.5rem}',
  '.px-4{padding-inline:1rem}',
  '.text-brand{color:var(--color-brand)}',
  '.bg-white{background-color:#fff}',
  '.animate-spin{animation:var(--animate-spin)}',
  '.hover\\:bg-slate-100:hover{background-color:#f1f5f9}',
  '.aria-expanded\\:text-brand[aria-expanded=true]{color:var(--color-brand)}',
  '@media (width>=40rem){.sm\\:block{display:block}.sm\\:p-8{padding:2rem}}',
  '}',
  '@property --tw-shadow{syntax:"*";inherits:false;initial-value:0 0 #0000}',
  '@keyframes spin{to{transform:rotate(360deg)}}',
].join('');

/** What beasties inlines for a page whose markup uses `classes` (it keeps the rules whose selectors match). */
function criticalFor(...selectors: string[]): string {
  return [
    '@layer properties{@supports (-moz-orient:inline){*,:before,:after{--tw-shadow:0 0 #0000}}}',
    '@layer theme{:root,:host{--color-brand:#163f6c;--spacing:.25rem}}',
    '@layer base{*,:after,:before{box-sizing:border-box;margin:0}hr{height:0}}',
    `@layer utilities{${selectors.join('')}}`,
    '@property --tw-shadow{syntax:"*";inherits:false;initial-value:0 0 #0000}',
  ].join('');
}

const rulesOf = (css: string) => css.replace(/^@layer [^;{]+;/, '');

describe('splitStylesheet', () => {
  it('inlines what the page uses and leaves the unused class rules to the late sheet, both led by the layer order', () => {
    const { critical, late } = splitStylesheet(whole, criticalFor('.block{display:block}', '.text-brand{color:var(--color-brand)}'));
    for (const css of [critical, late]) expect(css.startsWith('@layer properties,theme,base,components,utilities;')).toBe(true);
    expect(critical).toContain('.block{display:block}');
    expect(critical).toContain('.text-brand{color:var(--color-brand)}');
    expect(late).not.toContain('.block{');
    expect(late).not.toContain('.text-brand{');
    // Unused, and nothing after them overrides: late.
    expect(late).toContain('.bg-white{background-color:#fff}');
    expect(late).toContain('.hover\\:bg-slate-100:hover{background-color:#f1f5f9}');
    expect(late).toMatch(/@media \(width>=40rem\)\{[^}]*\}?\.sm\\:p-8\{padding:2rem\}/);
    expect(critical).not.toContain('.bg-white');
    // The comment goes; what beasties kept is there once.
    expect(critical).not.toContain('tailwindcss');
    expect(critical.split('.block{').length).toBe(2);
  });

  it('puts the element-wide layers inline whole, so the late sheet restyles no element on arrival', () => {
    const { critical, late } = splitStylesheet(whole, criticalFor('.block{display:block}'));
    // ::backdrop and textarea match nothing on the page, yet they are inline, in their place.
    expect(rulesOf(critical)).toContain('@layer base{*,:after,:before{box-sizing:border-box;margin:0}::backdrop{margin:0}hr{height:0}textarea{resize:vertical}}');
    expect(late).not.toMatch(/@layer (properties|theme|base)\{/);
    expect(late).not.toContain(':root');
    expect(late).not.toContain('::backdrop');
    // Every selector of the late sheet names a class.
    const selectors = [...rulesOf(late).matchAll(/(?:^|[{}])([^{}@]+)\{/g)].map((m) => m[1]!).filter((s) => !/^(to|from|\d+%)$/.test(s));
    expect(selectors.length).toBeGreaterThan(0);
    for (const selector of selectors) expect(selector).toMatch(/\./);
  });

  it('keeps an unused rule inline when a used rule after it sets the same kind of property with the same specificity', () => {
    // The page uses px-4 (padding-inline) and sm:block. p-2 (padding) comes before px-4 in the whole
    // sheet and loses to it there: in the late sheet it would win, so it stays inline, before px-4.
    // hidden (display) comes before sm:block likewise. hover:bg-slate-100 is more specific than any
    // inline background rule would be, and bg-white is followed by no used background rule: late.
    const { critical, late } = splitStylesheet(whole, criticalFor('.px-4{padding-inline:1rem}', '@media (width>=40rem){.sm\\:block{display:block}}'));
    expect(critical).toContain('.hidden{display:none}.p-2{padding:.5rem}.px-4{padding-inline:1rem}');
    expect(late).not.toContain('.p-2{');
    expect(late).not.toContain('.hidden{');
    // block (display, before sm:block) too; the offsets and sr-only set no display or padding: late.
    expect(critical).toContain('.block{display:block}');
    expect(late).toContain('.inset-0{inset:0}');
    expect(late).toContain('.sr-only{');
    expect(late).toContain('.bg-white{');
    expect(late).toContain('.hover\\:bg-slate-100:hover{');
    // sm:p-8 comes after everything it could conflict with: late.
    expect(late).toContain('.sm\\:p-8{padding:2rem}');
  });

  it('leaves no rule out and repeats none: every rule of the whole sheet is in one of the two', () => {
    for (const used of [[], ['.block{display:block}'], ['.px-4{padding-inline:1rem}', '.aria-expanded\\:text-brand[aria-expanded=true]{color:var(--color-brand)}']]) {
      const { critical, late } = splitStylesheet(whole, criticalFor(...used));
      for (const rule of ['.sr-only{', '.inset-0{', '.top-4{', '.block{', '.hidden{', '.p-2{', '.px-4{', '.text-brand{', '.bg-white{', '.animate-spin{', '.hover\\:bg-slate-100:hover{', '.aria-expanded\\:text-brand', '.sm\\:block{', '.sm\\:p-8{', '@keyframes spin', '@property --tw-shadow']) {
        expect(critical.split(rule).length - 1 + (late.split(rule).length - 1), rule).toBe(1);
      }
    }
  });

  it('inlines the keyframes and registered properties the page uses, and leaves the others late', () => {
    const none = splitStylesheet(whole, criticalFor('.block{display:block}'));
    expect(none.critical).toContain('@property --tw-shadow');
    expect(none.late).not.toContain('@property');
    expect(none.late).toContain('@keyframes spin{to{transform:rotate(360deg)}}');
    const spinning = splitStylesheet(whole, criticalFor('.animate-spin{animation:var(--animate-spin)}') + '@keyframes spin{to{transform:rotate(360deg)}}');
    expect(spinning.critical).toContain('@keyframes spin');
    expect(spinning.late).not.toContain('@keyframes');
  });

  it('refuses a critical CSS with a rule the whole sheet does not have', () => {
    expect(() => splitStylesheet(whole, criticalFor('.block{display:flex}'))).toThrow(/does not/);
  });
});

describe('propertyKind and specificity', () => {
  it('groups shorthands with their longhands, offsets, gaps and alignments', () => {
    expect(propertyKind('padding-inline')).toBe(propertyKind('padding'));
    expect(propertyKind('top')).toBe(propertyKind('inset'));
    expect(propertyKind('column-gap')).toBe(propertyKind('gap'));
    expect(propertyKind('place-items')).toBe(propertyKind('justify-content'));
    expect(propertyKind('--tw-shadow')).not.toBe(propertyKind('--tw-ring-color'));
    expect(propertyKind('width')).not.toBe(propertyKind('height'));
  });

  it('counts ids, classes and types, with :where worth nothing and :is/:not worth their argument', () => {
    expect(specificity('.p-2')).toBe(100);
    expect(specificity('.hover\\:bg-x:hover')).toBe(200);
    expect(specificity('.aria-x[aria-expanded=true]')).toBe(200);
    expect(specificity(':where(.space-y-4>:not(:last-child))')).toBe(0);
    expect(specificity('.group-hover\\:x:is(:where(.group):hover *)')).toBe(200);
    expect(specificity('#main a')).toBe(10_001);
    expect(specificity('a,b')).toBe(-1);
  });
});
