// The offline assistant: answers from the firm's own facts when Workers AI is absent (local
// development, tests) or fails. It retrieves the best-matching facts with a small weighted
// keyword search (a few dozen facts need nothing heavier) and quotes them, then points to a page.
import { defaultContent } from '#core/content/default-content';
import type { SiteContent } from '#core/content/schema';
import { personReply, wantsPerson } from './handoff-offer';
import { knowledgeFor, type KnowledgeFact } from './knowledge';
import { textChunks } from './text-chunks';
import type { ChatModel, ChatQuestion } from './types';
import { withArticle } from '#core/words';

const STOPWORDS = new Set(
  (
    'a an the is are was were be been am do does did done you your yours i me my mine we our us it its this that these those ' +
    'there here to for of in on at by from with and or but if so as can could would should will shall may might must ' +
    'how what which who whom whose why please hi hello hey thanks thank just also any some get got need needs want wants ' +
    'help know tell about into than then them they their he she his her have has had having up out off over very really ' +
    'like one ones offer offers provide provides'
  ).split(' '),
);

/** A deliberately small stemmer: enough to match "filing"/"file", "taxes"/"tax", "costs"/"cost". */
export function stem(word: string): string {
  let w = word;
  if (w.length > 4 && w.endsWith('ies')) w = `${w.slice(0, -3)}y`;
  else if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us')) w = w.slice(0, -1);
  if (w.length > 5 && w.endsWith('ing')) w = w.slice(0, -3);
  else if (w.length > 7 && w.endsWith('ation')) w = w.slice(0, -5);
  else if (w.length > 4 && w.endsWith('ed')) w = w.slice(0, -2);
  if (w.length > 3 && w.endsWith('e')) w = w.slice(0, -1);
  if (w.length > 3 && w.at(-1) === w.at(-2) && /[a-z]/.test(w.at(-1)!)) w = w.slice(0, -1);
  return w;
}

export function terms(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[’']/g, '')
    .split(/[^a-z0-9$]+/)
    .filter((word) => word && !STOPWORDS.has(word))
    .map(stem);
}

interface IndexedFact {
  fact: KnowledgeFact;
  title: Set<string>;
  keywords: Set<string>;
  text: Set<string>;
}

// Where a word is found says how much it tells about the fact: in the title most, in the extra
// keywords a lot, anywhere in the text a little.
const WEIGHT = { title: 3, keywords: 2, text: 1 } as const;

// Words nearly every question to a tax firm contains: they may break a tie, not decide a match
// ("payroll services" is about payroll, not about "Accounting Services").
const GENERIC = new Set(['servic', 'busines', 'tax', 'cpa', 'firm', 'company', 'account'].map(stem));
const GENERIC_FACTOR = 0.35;

export class KnowledgeIndex {
  private readonly facts: IndexedFact[];
  private readonly idf = new Map<string, number>();

  constructor(facts: KnowledgeFact[]) {
    this.facts = facts.map((fact) => ({
      fact,
      title: new Set(terms(fact.title)),
      keywords: new Set(terms(fact.keywords)),
      text: new Set(terms(fact.text)),
    }));
    const documentFrequency = new Map<string, number>();
    for (const f of this.facts) {
      for (const term of new Set([...f.title, ...f.keywords, ...f.text])) {
        documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
      }
    }
    for (const [term, df] of documentFrequency) this.idf.set(term, Math.log(1 + this.facts.length / df));
  }

  /**
   * Facts ranked by relevance to the question, best first. `strong` says a specific (not generic)
   * word of the question is in the fact's title or keywords, not merely somewhere in its text.
   */
  search(question: string): { fact: KnowledgeFact; score: number; strong: boolean }[] {
    const queryTerms = [...new Set(terms(question))];
    return this.facts
      .map((f) => {
        let score = 0;
        let strong = false;
        for (const term of queryTerms) {
          const weight = f.title.has(term) ? WEIGHT.title : f.keywords.has(term) ? WEIGHT.keywords : f.text.has(term) ? WEIGHT.text : 0;
          const generic = GENERIC.has(term);
          if (weight > WEIGHT.text && !generic) strong = true;
          score += weight * (this.idf.get(term) ?? 0) * (generic ? GENERIC_FACTOR : 1);
        }
        return { fact: f.fact, score: score * (f.fact.weight ?? 1), strong };
      })
      .filter((r) => r.score > 0)
      .sort((a, b) => b.score - a.score);
  }
}

// A match on words of the text alone must add up to this much; below it, it is a coincidence (one
// word somewhere in a long text, e.g. "last" in "last year's return"), not an answer.
const MIN_TEXT_SCORE = 4.5;

const GREETING = /^\s*(hi|hello|hey|good (morning|afternoon|evening)|greetings)\b[\s!.,]*(there)?[\s!.,]*$/i;
const SERVICES_LIST = /\b(what|which|list|all|kinds?|types?)\b[^?]*\bservices?\b|\bservices\b[^?]*\b(offer|provide|have|do)\b/i;
const FOLLOW_UP = /\b(it|that|this|those|these|they|them|one)\b/i;
const THANKS = /^\s*(thanks|thank you|thx|ty|great|perfect|ok(ay)?|got it|cheers)\b[^?]{0,40}$/i;

const pointer = ({ firm, prices }: SiteContent, fact: KnowledgeFact, answer: string): string => {
  if (answer.includes('/schedule')) return `You can also send us a message at /contact or call ${firm.contact.phone}.`;
  switch (fact.link) {
    case '/schedule':
      return `You can book ${withArticle(prices.initialConsultation)} initial consultation at /schedule, or send us a message at /contact.`;
    case '/contact':
      return `You can reach us through /contact or by phone at ${firm.contact.phone}, or book a consultation at /schedule.`;
    default:
      return `You'll find more at ${fact.link}. To talk it through, book ${withArticle(prices.initialConsultation)} consultation at /schedule or send us a message at /contact.`;
  }
};

const noMatchReply = (firm: SiteContent['firm']) =>
  `I don't have a ready answer for that here. Our team can help: call us at ${firm.contact.phone}, send a message at /contact, or book a free consultation at /schedule. You can also browse /services and /faq.`;

/** The answer to a question the facts do not cover, with the default content. */
export const NO_MATCH_REPLY = noMatchReply(defaultContent.firm);

// One index per set of facts (knowledgeFor builds one set per published version).
const indexes = new WeakMap<KnowledgeFact[], KnowledgeIndex>();
const indexOf = (facts: KnowledgeFact[]) => {
  let index = indexes.get(facts);
  if (!index) {
    index = new KnowledgeIndex(facts);
    indexes.set(facts, index);
  }
  return index;
};

/** Answers from the published content's facts: the assistant that always works, offline included. */
export class KnowledgeBaseChatModel implements ChatModel {
  readonly name = 'knowledge-base';
  private readonly facts: KnowledgeFact[];
  private readonly index: KnowledgeIndex;

  constructor(private readonly content: SiteContent = defaultContent) {
    this.facts = knowledgeFor(content).facts;
    this.index = indexOf(this.facts);
  }

  /** The answer in pieces of a few words, paced like a model's tokens. */
  async *stream(question: ChatQuestion): AsyncGenerator<string, void, undefined> {
    yield* textChunks(await this.reply(question));
  }

  async reply({ message, history }: ChatQuestion): Promise<string> {
    if (GREETING.test(message)) {
      return 'Hello! How can I help you today? You can ask me about our services, prices, office hours or booking a consultation.';
    }
    if (wantsPerson(message)) return personReply(this.content.firm);
    if (THANKS.test(message)) {
      return `You're welcome! If anything else comes up, I'm here, or you can book ${withArticle(this.content.prices.initialConsultation)} consultation at /schedule.`;
    }
    // "What services do you offer?" names no service: the overview answers it.
    if (SERVICES_LIST.test(message) && terms(message).every((t) => GENERIC.has(t))) {
      const overview = this.facts.find((f) => f.id === 'services-overview');
      if (overview) return `${overview.text}\n\n${pointer(this.content, overview, overview.text)}`;
    }
    let ranked = this.index.search(message);
    // A short follow-up ("how much does it cost?") is about the previous question's topic.
    const previousQuestion = history.findLast((turn) => turn.role === 'user')?.content;
    if (previousQuestion && FOLLOW_UP.test(message) && terms(message).length <= 3) {
      ranked = this.index.search(`${previousQuestion} ${message}`);
    }
    const best = ranked[0];
    if (!best || (!best.strong && best.score < MIN_TEXT_SCORE)) return noMatchReply(this.content.firm);

    // A second fact when it is nearly as relevant and says something new (e.g. the price and the
    // service description for "what does payroll cost?").
    const chosen = [best.fact];
    const runnerUp = ranked[1];
    if (runnerUp && runnerUp.score >= best.score * 0.75 && !overlaps(best.fact.text, runnerUp.fact.text)) {
      chosen.push(runnerUp.fact);
    }
    const answer = chosen.map((fact) => fact.text).join('\n\n');
    return `${answer}\n\n${pointer(this.content, best.fact, answer)}`;
  }
}

/** True when two texts share most of their words (the FAQ and a card saying the same thing). */
function overlaps(a: string, b: string): boolean {
  const wordsA = new Set(terms(a));
  const wordsB = terms(b);
  const shared = wordsB.filter((w) => wordsA.has(w)).length;
  return shared / Math.max(1, Math.min(wordsA.size, wordsB.length)) > 0.6;
}
