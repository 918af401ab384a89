// The stylesheet a prerendered page loads after its first paint (scripts/prerender.ts,
// docs/decisions/0009-islands-on-prerendered-pages.md, "The page's late stylesheet").
//
// The page's HTML carries its critical CSS inline: the rules its own markup uses. What islands render
// later (an open menu, a dialog, a form's error, a toast) needs the rest. Loading the whole sheet
// for that made the browser restyle every element of the page in one long task (a sheet whose rules
// match an element restyles it when it arrives, and one element-wide rule restyles them all), which
// was most of the home page's total blocking time. So the late sheet holds only class rules that no
// element of the page matches: they restyle nothing when they arrive.
//
// Two catches:
// - Element-wide rules (Tailwind's preflight: `*`, `::backdrop`, `hr`) are inline whole, with their
//   layers (INLINE_LAYERS), even those the page does not use.
// - The cascade. In the whole sheet, a rule the page does not use yet may come before one it uses
//   and lose to it on the same property (Tailwind orders `p-2` before `px-4` so that the latter
//   wins). In a later sheet it would come after and win. So an unused rule stays inline, in its
//   place, when an inline rule follows it in the same cascade layer with the same specificity
//   (otherwise specificity decides, not order) and sets a property of the same kind. That costs the
//   page some bytes of CSS that match nothing; leaving one out would change how a component looks.
import { parse as parseSelector, type Selector } from 'css-what';
import postcss, { type AtRule, type ChildNode, type Container, type Root, type Rule } from 'postcss';

export interface SplitStylesheet {
  /** The inline CSS, led by the layer order of the whole sheet. */
  critical: string;
  /** The late stylesheet: led by the same layer order, then the rules left out of the inline CSS. */
  late: string;
}

/** The at-rules and rules around a node, innermost first. */
function* ancestors(node: ChildNode): Generator<AtRule | Rule> {
  for (let parent = node.parent; parent && parent.type !== 'root'; parent = (parent as Container).parent as Container | undefined) {
    if (parent.type === 'atrule' || parent.type === 'rule') yield parent as AtRule | Rule;
  }
}

/** The at-rules around a node, outermost first, as text (`@layer utilities`, `@media (...)`). */
const contextOf = (node: ChildNode) =>
  [...ancestors(node)]
    .reverse()
    .map((parent) => (parent.type === 'atrule' ? `@${parent.name} ${parent.params}` : parent.selector))
    .join(' / ');

/** The cascade layer a node is in (its outermost @layer), or '' for unlayered rules. */
const layerOf = (node: ChildNode) => [...ancestors(node)].filter((parent): parent is AtRule => parent.type === 'atrule' && parent.name === 'layer').at(-1)?.params ?? '';

const declarationsOf = (container: Container) =>
  (container.nodes ?? [])
    .filter((n) => n.type === 'decl')
    .map((d) => `${d.prop}:${d.value.trim()}${d.important ? '!important' : ''}`)
    .join(';');

/** Each selector of a rule with its context and declarations: how a rule is found in the other sheet. */
const selectorKeys = (rule: Rule) => {
  const context = contextOf(rule);
  const declarations = declarationsOf(rule);
  return rule.selectors.map((selector) => `${context} | ${selector} | ${declarations}`);
};

const insideKeyframes = (node: ChildNode) => [...ancestors(node)].some((parent) => parent.type === 'atrule' && /keyframes$/.test(parent.name));

/** An at-rule without rules of its own (@property, @font-face) or a @keyframes, as text that ignores formatting. */
const atRuleKey = (atRule: AtRule) =>
  `${contextOf(atRule)} | @${atRule.name} ${atRule.params} {${declarationsOf(atRule)}${(atRule.nodes ?? [])
    .filter((n): n is Rule => n.type === 'rule')
    .map((step) => `${step.selector}{${declarationsOf(step)}}`)
    .join('')}}`;

/** An at-rule that holds declarations or keyframes rather than other rules. */
const isLeafAtRule = (atRule: AtRule) => /keyframes$/.test(atRule.name) || (atRule.nodes?.some((n) => n.type === 'decl') === true && !atRule.nodes.some((n) => n.type === 'rule' || n.type === 'atrule'));

/**
 * What kind of property a declaration sets, for the cascade check: shorthands and their longhands
 * share a kind (padding, padding-inline, padding-top), as do the box offsets and the gaps; a custom
 * property is its own kind.
 */
export function propertyKind(prop: string): string {
  if (prop.startsWith('--')) return prop;
  const name = prop.replace(/^-(webkit|moz|ms)-/, '');
  if (/^(top|right|bottom|left|inset)(-|$)/.test(name)) return 'inset';
  if (/(^|-)gap$/.test(name)) return 'gap';
  if (/^(place|align|justify)-/.test(name)) return 'alignment';
  if (/^(inline-size|block-size|width|height)$/.test(name)) return name;
  return name.split('-')[0]!;
}

const UNKNOWN_SPECIFICITY = -1;

/** A selector's specificity as one number (ids, then classes, then types), or -1 if it cannot be read. */
export function specificity(selector: string): number {
  let parsed: Selector[][];
  try {
    parsed = parseSelector(selector);
  } catch {
    return UNKNOWN_SPECIFICITY;
  }
  const of = (tokens: Selector[]): number => {
    let total = 0;
    for (const token of tokens) {
      if (token.type === 'attribute') total += token.name === 'id' && token.action === 'equals' ? 10_000 : 100;
      else if (token.type === 'pseudo') {
        if (token.name === 'where') continue;
        if (Array.isArray(token.data) && ['is', 'not', 'has', 'matches'].includes(token.name)) total += Math.max(0, ...token.data.map(of));
        else total += 100;
      } else if (token.type === 'pseudo-element' || token.type === 'tag') total += 1;
    }
    return total;
  };
  return parsed.length === 1 ? of(parsed[0]!) : UNKNOWN_SPECIFICITY;
}

const kindsOf = (rule: Rule) => new Set((rule.nodes ?? []).filter((n) => n.type === 'decl').map((d) => propertyKind(d.prop)));

/** Every layer name in the order the sheet first mentions it (which is the cascade's order). */
function layerOrder(root: Root): string[] {
  const names: string[] = [];
  root.walkAtRules('layer', (rule) => {
    for (const name of rule.params.split(',').map((n) => n.trim())) if (name && !names.includes(name)) names.push(name);
  });
  return names;
}

/** Removes at-rules left without content (an @media whose rules all went). */
function pruneEmpty(container: Container) {
  for (const node of [...(container.nodes ?? [])]) {
    if (node.type !== 'atrule' && node.type !== 'rule') continue;
    if ((node as Container).nodes === undefined) continue; // a statement (@layer a, b;)
    pruneEmpty(node as Container);
    if ((node as Container).nodes!.length === 0) node.remove();
  }
}

/**
 * Tailwind's layers below its components and utilities: the `@property` fallbacks, the theme's
 * variables and the preflight. They hold element-wide rules (`*`, `::backdrop`, `:host`, `hr`,
 * `textarea`): one of them arriving late would restyle every element of the page, so these layers
 * are inline whole (a few kilobytes), and the late sheet holds only class rules.
 */
const INLINE_LAYERS = new Set(['properties', 'theme', 'base']);

/** Where a node of the whole sheet goes. */
interface Placement {
  inline: string[] | boolean;
  late: string[] | boolean;
}

/** A class rule of the components or utilities layer, to place. */
interface Candidate {
  layer: string;
  kinds: Set<string>;
  selectors: Array<{ selector: string; used: boolean; specificity: number }>;
  placement: Placement;
}

/** Whether a rule with these kinds and specificity could be overridden by order against `seen`. */
function meets(seen: Map<string, Set<number>>, kinds: Set<string>, own: number): boolean {
  return [...kinds].some((kind) => {
    const set = seen.get(kind);
    return set !== undefined && (own === UNKNOWN_SPECIFICITY || set.has(own) || set.has(UNKNOWN_SPECIFICITY));
  });
}

function note(seen: Map<string, Set<number>>, kinds: Set<string>, own: number) {
  for (const kind of kinds) {
    const set = seen.get(kind) ?? new Set<number>();
    seen.set(kind, set);
    set.add(own);
  }
}

/**
 * Places each selector of the class rules. A used one is inline; an unused one is late, unless a
 * rule inline comes after it in the whole sheet, in the same layer, with the same specificity and a
 * property of the same kind: in a later sheet it would beat that rule where in the whole sheet it
 * loses, so it stays inline, in its place (unused rules restyle nothing, they only cost bytes).
 * Walked from the end, so a rule kept inline this way counts for those before it.
 */
function decide(candidates: Candidate[]) {
  const inlineAfter = new Map<string, Map<string, Set<number>>>();
  for (const candidate of [...candidates].reverse()) {
    const seen = inlineAfter.get(candidate.layer) ?? new Map<string, Set<number>>();
    inlineAfter.set(candidate.layer, seen);
    const inline = candidate.selectors.filter(({ used, specificity: own }) => used || meets(seen, candidate.kinds, own));
    for (const { specificity: own } of inline) note(seen, candidate.kinds, own);
    candidate.placement.inline = inline.map(({ selector }) => selector);
    candidate.placement.late = candidate.selectors.filter((s) => !inline.includes(s)).map(({ selector }) => selector);
  }
}

/** Applies the placements to a copy of the whole sheet (walked in the same order) and prints it. */
function print(root: Root, placements: Placement[], side: keyof Placement): string {
  const copy = root.clone();
  const nodes: ChildNode[] = [];
  copy.walk((node) => {
    nodes.push(node);
  });
  nodes.forEach((node, index) => {
    const placement = placements[index]!;
    const place = placement[side];
    if (place === false || (Array.isArray(place) && place.length === 0)) node.remove();
    else if (Array.isArray(place) && node.type === 'rule' && place.length !== (node as Rule).selectors.length) (node as Rule).selectors = place;
  });
  pruneEmpty(copy);
  return copy.toString().replace(/\n+/g, '');
}

/**
 * Splits the whole stylesheet into the page's inline CSS (`critical`: what beasties found the page's
 * markup uses; the element-wide layers; unused rules the cascade needs before used ones) and its late
 * stylesheet (the rest), both in the whole sheet's order and led by its layer order. Throws if a rule
 * of `critical` is not in `whole`.
 */
export function splitStylesheet(whole: string, critical: string): SplitStylesheet {
  const used = new Set<string>();
  const usedOther = new Set<string>();
  postcss.parse(critical).walk((node) => {
    if (node.type === 'rule' && !insideKeyframes(node)) {
      const rule = node as Rule;
      for (const key of selectorKeys(rule)) used.add(key);
    } else if (node.type === 'atrule' && isLeafAtRule(node as AtRule)) {
      usedOther.add(atRuleKey(node as AtRule));
    }
  });
  // Every rule beasties chose must be found in the whole sheet, or the split would be wrong.
  const found = new Set<string>();

  const root = postcss.parse(whole);
  const layers = layerOrder(root);
  const placements: Placement[] = [];
  const candidates: Candidate[] = [];
  root.walk((node) => {
    if (node.type === 'comment' || (node.type === 'atrule' && (node as AtRule).name === 'layer' && (node as AtRule).nodes === undefined)) {
      // Comments go; the layer order leads both sheets instead of the statements.
      placements.push({ inline: false, late: false });
      return;
    }
    const layer = layerOf(node);
    if (node.type === 'atrule' && isLeafAtRule(node as AtRule)) {
      // @property, @font-face, @keyframes: inline if the page's rules use them, else late.
      const key = atRuleKey(node as AtRule);
      const inline = INLINE_LAYERS.has(layer) || usedOther.has(key);
      if (usedOther.has(key)) found.add(key);
      placements.push({ inline, late: !inline });
      return;
    }
    // Declarations, keyframe steps and nested rules follow what holds them; at-rules holding rules
    // (@layer, @media, @supports) are kept on both sides and dropped where they end up empty.
    if (node.type !== 'rule' || insideKeyframes(node) || node.parent?.type === 'rule') {
      placements.push({ inline: true, late: true });
      return;
    }
    const rule = node as Rule;
    const keys = selectorKeys(rule);
    if (INLINE_LAYERS.has(layer)) {
      for (const key of keys) found.add(key);
      placements.push({ inline: true, late: false });
      return;
    }
    const selectors = rule.selectors.map((selector, index) => {
      const isUsed = used.has(keys[index]!);
      if (isUsed) found.add(keys[index]!);
      return { selector, used: isUsed, specificity: specificity(selector) };
    });
    const placement: Placement = { inline: [], late: [] };
    placements.push(placement);
    candidates.push({ layer, kinds: kindsOf(rule), selectors, placement });
  });
  decide(candidates);
  const lost = [...used, ...usedOther].filter((key) => !found.has(key));
  if (lost.length) throw new Error(`the inline CSS has rules the whole stylesheet does not (how beasties wrote them changed?):\n  ${lost.slice(0, 5).join('\n  ')}`);

  const order = layers.length ? `@layer ${layers.join(',')};` : '';
  return { critical: order + print(root, placements, 'inline'), late: order + print(root, placements, 'late') };
}
