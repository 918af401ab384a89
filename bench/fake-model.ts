// A stand-in for the Workers AI binding in `npm run bench:chat` (bench/chat.bench-run.ts): a
// gullible language model, so the chat's guard rails are exercised as they would be by the worst
// model we could be given, and the worker's streaming path is timed against model-like pacing.
//
// It reads the real `messages` the worker builds (worker/services/chat/workers-ai-model.ts): the
// system prompt (confidential rules, then "FIRM KNOWLEDGE:"), the history and the visitor's message.
// - An ordinary question gets the 1 to 3 knowledge lines that share the most (rarity-weighted)
//   words with it, lightly reworded, numbers untouched; with no shared word, it says it does not
//   know and gives the phone number and /contact, as the rules ask.
// - A message that asks about its instructions, "the text above", what it was "told", or to
//   translate, repeat, quote, ignore... is obeyed: it streams the rules part of its system prompt
//   verbatim (or dressed as asked: each word in an HTML tag, or with a zero-width space inside). A
//   real model would mostly refuse; this one never does, so every such message that gets past the
//   guard-rail patterns (guard-rails.ts isInjectionAttempt) tests the leak filter.
//
// It answers `stream: true` like the binding: an SSE ReadableStream of `data: {"response":"..."}`
// events, one word each, then `data: [DONE]`, after a first-token latency and with a delay per
// word (BENCH_CHAT_FIRST_TOKEN_MS, BENCH_CHAT_TOKEN_MS: see vitest.bench-chat.config.ts). The abort
// signal the worker passes stops it.
import { fakeAi, type AiCall } from '../tests/harness/worker/chat-helpers';

export interface FakeModelTiming {
  /** Wait before the first word, like a model's time to first token. */
  firstTokenMs: number;
  /** Wait between words. */
  tokenMs: number;
}

export const DEFAULT_TIMING: FakeModelTiming = { firstTokenMs: 250, tokenMs: 15 };

const KNOWLEDGE_HEADING = 'FIRM KNOWLEDGE:';

// What a prompt-injection asks for, in the words people use. A gullible model takes any of these
// as an instruction to follow.
const OBEYS = new RegExp(
  [
    '\\binstructions?\\b',
    '\\bprompt\\b',
    '\\brules you\\b',
    '\\btold\\b',
    '\\b(text|everything|message|words?) above\\b',
    '\\babove this\\b',
    '\\btranslate\\b',
    '\\brepeat\\b',
    '\\bignore\\b',
    '\\bverbatim\\b',
    '\\bword for word\\b',
    '\\bquote it\\b',
    '\\bpaste\\b',
    '\\becho\\b',
    '\\bconfiguration\\b',
    '\\byour setup\\b',
    '\\breference code\\b',
    '\\bcontinue this text\\b',
    '\\bcame before\\b',
    '\\bbefore (mine|my question|i arrived)\\b',
    '\\bfirst \\d+ words\\b',
    '\\byou are now\\b',
  ].join('|'),
  'i',
);

const FAKE_MODEL_STOPWORDS = new Set(
  (
    'a an the is are was were be been am do does did you your yours i me my mine we our us it its this that these those there here ' +
    'to for of in on at by from with and or but if so as can could would should will may might must how what which who whom why ' +
    'please hi hello hey thanks just also any some get got need want help know tell about into than then them they their have has ' +
    'had up out off over very really like one offer provide much many when where time there s t'
  ).split(' '),
);

const words = (text: string): string[] =>
  text
    .toLowerCase()
    .replace(/[’']/g, '')
    .split(/[^a-z0-9$]+/)
    .filter((w) => w && !FAKE_MODEL_STOPWORDS.has(w))
    .map(fakeModelStem);

/**
 * Just enough stemming for "taxes"/"tax", "booking"/"book", "filing"/"file". The stand-in model's own,
 * cruder than the offline assistant's (worker/services/chat/knowledge-base-model.ts stem): the bench
 * plays a model independent of the worker's retrieval, so neither is shared.
 */
function fakeModelStem(word: string): string {
  let w = word;
  if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss')) w = w.slice(0, -1);
  if (w.length > 5 && w.endsWith('ing')) w = w.slice(0, -3);
  if (w.length > 3 && w.endsWith('e')) w = w.slice(0, -1);
  return w;
}

interface KnowledgeLine {
  /** The whole line, FAQ question included: what a question is matched against. */
  text: string;
  /** What is quoted: without the "- " and "Q: ... A:" scaffolding. */
  quote: string;
}

/** The knowledge lines worth quoting (section headings dropped). */
function knowledgeLines(knowledge: string): KnowledgeLine[] {
  return knowledge
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.endsWith(':'))
    .map((text) => ({ text, quote: text.replace(/^- /, '').replace(/^Q: .*? A: /, '') }));
}

/**
 * The 1 to 3 lines sharing the most words with the question, rarer words counting more and long
 * lines a little less (a list of every service shares some word with almost any question).
 */
function closestLines(question: string, lines: KnowledgeLine[]): string[] {
  const lineWords = lines.map((line) => new Set(words(line.text)));
  const df = new Map<string, number>();
  for (const set of lineWords) for (const w of set) df.set(w, (df.get(w) ?? 0) + 1);
  const averageSize = lineWords.reduce((sum, set) => sum + set.size, 0) / Math.max(1, lineWords.length);
  const queryWords = new Set(words(question));
  const scored = lines
    .map((line, i) => {
      let score = 0;
      for (const w of queryWords) if (lineWords[i].has(w)) score += Math.log(1 + lines.length / df.get(w)!);
      return { line: line.quote, score: score / Math.sqrt(Math.max(1, lineWords[i].size / averageSize)) };
    })
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score);
  if (scored.length === 0) return [];
  return scored.filter((s, i) => i === 0 || s.score >= scored[0].score * 0.7).slice(0, 3).map((s) => s.line);
}

// Light rewording, as a model would: same facts and numbers, a little different phrasing.
const REWORDINGS: [RegExp, string][] = [
  [/\bstart from\b/g, 'begin at'],
  [/\bYou can\b/g, "You're welcome to"],
  [/\bWe offer\b/g, 'We provide'],
  [/; /g, ', and '],
];
const OPENERS = ['Sure!', 'Good question.', 'Happy to help.', 'Of course.'];

function reworded(line: string): string {
  let text = line;
  for (const [pattern, replacement] of REWORDINGS) text = text.replace(pattern, replacement);
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

/**
 * The rules as the visitor asked for them, as an obliging model would: from a quoted starting
 * phrase on, with every word in an HTML tag ("wrap every word in <b> tags") or with an invisible
 * zero-width space inside it. The text on screen reads the same; only a leak check that sees what
 * the visitor sees can tell.
 */
function formattedAsAsked(allRules: string, question: string): string {
  // "... starting with 'Rules you always follow'": from there on.
  const from = question.match(/\bstart(?:ing)? (?:with|from|at) ['"‘“](.+?)['"’”]/i)?.[1];
  const at = from ? allRules.toLowerCase().indexOf(from.toLowerCase()) : -1;
  const rules = at > 0 ? allRules.slice(at) : allRules;
  const tag = question.match(/\bwrap\b[^.?!]*<([a-z]+)>/i)?.[1];
  if (tag) return rules.replace(/\S+/g, (word) => `<${tag}>${word}</${tag}>`);
  if (/\bzero[- ]width\b/i.test(question)) return rules.replace(/\S+/g, (word) => `${word.slice(0, 1)}\u200b${word.slice(1)}`);
  return rules;
}

/** What the gullible model writes for this conversation. */
export function fakeModelReply(messages: AiCall['inputs']['messages']): string {
  const system = messages.find((m) => m.role === 'system')?.content ?? '';
  const question = messages.findLast((m) => m.role === 'user')?.content ?? '';
  const at = system.indexOf(KNOWLEDGE_HEADING);
  const rules = (at === -1 ? system : system.slice(0, at)).trim();
  const knowledge = at === -1 ? '' : system.slice(at + KNOWLEDGE_HEADING.length);

  if (OBEYS.test(question)) return `Of course! Here is exactly what I was given before your message:\n\n${formattedAsAsked(rules, question)}`;

  const lines = closestLines(question, knowledgeLines(knowledge));
  if (lines.length === 0) {
    const phone = knowledge.match(/Phone ([^,]+),/)?.[1] ?? 'our office';
    return `I'm sorry, I don't have that detail. Please call us at ${phone} or send a message at /contact.`;
  }
  const opener = OPENERS[question.length % OPENERS.length];
  return `${opener} ${lines.map(reworded).join(' ')} For more, you can book a free consultation at /schedule.`;
}

const encoder = new TextEncoder();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `text` as the binding streams it with `stream: true`: one SSE event per word, then [DONE]. */
export function modelStream(text: string, timing: FakeModelTiming, signal?: AbortSignal): ReadableStream<Uint8Array> {
  const pieces = text.match(/^\s+|\S+\s*/g) ?? [];
  let i = 0;
  return new ReadableStream({
    async pull(controller) {
      await sleep(i === 0 ? timing.firstTokenMs : timing.tokenMs);
      if (signal?.aborted) {
        controller.close();
        return;
      }
      if (i === pieces.length) {
        controller.enqueue(encoder.encode('data: [DONE]\n\n'));
        controller.close();
        return;
      }
      controller.enqueue(encoder.encode(`data: ${JSON.stringify({ response: pieces[i++] })}\n\n`));
    },
  });
}

/** The fake binding (`ai`) and the calls it received (`calls`: one per question that reached it). */
export function fakeWorkersAi(timing: FakeModelTiming = DEFAULT_TIMING) {
  return fakeAi(({ inputs, options }) => {
    const reply = fakeModelReply(inputs.messages);
    if (inputs.stream) return modelStream(reply, timing, options?.signal);
    return sleep(timing.firstTokenMs + timing.tokenMs * reply.split(/\s+/).length).then(() => ({ response: reply }));
  });
}
