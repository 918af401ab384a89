// Which pages of the site an answer relied on (docs/product.md §4: answers show their source), for
// both the model and the offline path: the facts the reply actually uses, found by the same
// retrieval the offline assistant uses and confirmed by how much of each fact the reply repeats.
import type { ChatSource } from '#core/schemas/chat';
import type { SiteContent } from '#core/content/schema';
import { KnowledgeIndex, terms } from './knowledge-base-model';
import { knowledgeFor, type KnowledgeFact } from './knowledge';

/** The most links an answer shows: more would be a reading list, not a source. */
export const MAX_SOURCES = 2;
// Share of a fact's words a reply must repeat to count as relying on it: the offline assistant
// quotes facts whole (1.0); a model paraphrasing one keeps well over half its content words.
const MIN_SHARED = 0.5;
// A fact's amounts ($500, 3.07%, 70 cents) are its substance: a reply repeating all of them relies
// on it even when it words the rest differently. (Times of day are not: many facts repeat the hours.)
const NUMBER = /\$\d[\d,.]*|\d[\d,.]*%|\d+ cents/g;
const CANDIDATES = 8;

// The facts with a source page, indexed once per published version's facts.
const sourcedIndexes = new WeakMap<KnowledgeFact[], { facts: KnowledgeFact[]; search: KnowledgeIndex }>();
const knowledge = (content: SiteContent) => {
  const all = knowledgeFor(content).facts;
  let index = sourcedIndexes.get(all);
  if (!index) {
    const facts = all.filter((fact) => fact.source);
    index = { facts, search: new KnowledgeIndex(facts) };
    sourcedIndexes.set(all, index);
  }
  return index;
};

const numbersOf = (text: string) => new Set((text.match(NUMBER) ?? []).map((n) => n.replace(/[.,]+$/, '')));

/** How strongly the reply relies on the fact: 0 (not at all) to 1. */
function reliance(fact: KnowledgeFact, replyTerms: Set<string>, replyNumbers: Set<string>): number {
  const factTerms = new Set(terms(fact.text));
  if (factTerms.size === 0) return 0;
  const shared = [...factTerms].filter((term) => replyTerms.has(term)).length / factTerms.size;
  const numbers = numbersOf(fact.text);
  const allNumbers = numbers.size > 0 && [...numbers].every((n) => replyNumbers.has(n));
  return allNumbers ? Math.max(shared, MIN_SHARED) : shared;
}

/** The pages the reply relied on, the strongest first, at most MAX_SOURCES, each page once. */
export function answerSources(content: SiteContent, question: string, reply: string): ChatSource[] {
  const { search } = knowledge(content);
  const replyTerms = new Set(terms(reply));
  const replyNumbers = numbersOf(reply);
  const relied = search
    .search(`${question} ${reply}`)
    .slice(0, CANDIDATES)
    .map(({ fact }) => ({ fact, share: reliance(fact, replyTerms, replyNumbers) }))
    .filter(({ share }) => share >= MIN_SHARED)
    .sort((a, b) => b.share - a.share);
  const sources: ChatSource[] = [];
  for (const { fact } of relied) {
    const source = fact.source!;
    // One link per page: two FAQ answers are one source, "FAQ".
    const page = source.path.split('#')[0];
    if (sources.some((s) => s.path.split('#')[0] === page)) continue;
    sources.push(source);
    if (sources.length === MAX_SOURCES) break;
  }
  return sources;
}
