// Guard rails around every answer, whichever model wrote it: prompt-injection attempts are
// recognised before a model sees them, replies are reduced to plain text, a reply that quotes the
// system prompt is replaced, and questions about a person's own taxes end with an invitation to
// book a consultation (the firm gives individual advice only in a consultation).
import { defaultContent } from '#core/content/default-content';

// Phrases people use to take over a chatbot. Matching is deliberately broad: a false positive
// costs a polite refusal plus the normal answer; a miss is still covered by the leak filter.
const INJECTION_PATTERNS: RegExp[] = [
  /\b(ignore|disregard|forget|override|bypass|skip)\b[^.?!]{0,40}\b(previous|prior|above|earlier|all|your|the|these|those|any)\b[^.?!]{0,30}\b(instructions?|rules?|prompts?|directions?|guidelines?|programming)\b/i,
  /\b(system|initial|hidden|secret|original|developer|internal)\s+(prompt|message|instructions?|rules|configuration|guidelines)\b/i,
  /\b(reveal|print|show|repeat|output|display|tell|give|share|dump|leak|write out|what are|what is|what were)\b[^.?!]{0,40}\b(your\s+(prompt|instructions?|rules|guidelines|configuration|programming)|the\s+(prompt|instructions)\s+(you|that you)\b)/i,
  /\byou are (now|no longer)\b/i,
  /\b(pretend (to be|you are|you're)|role-?play|roleplay)\b/i,
  /\b(act|behave|respond|answer|speak)\s+(as|like)\s+(an?\s+|the\s+|my\s+)?(admin\w*|developer|system|root|dan|ai|chatbot|gpt|unrestricted|unfiltered|different|another|new|evil|hacker)\b/i,
  /\b(from now on|new (role|persona|instructions?)|jailbreak|dan mode|developer mode|god mode|sudo|admin mode)\b/i,
  /\b(i am|i'm)\s+(the|an|your)\s+(admin|administrator|developer|owner|system)\b/i,
  /<\/?(system|assistant|user|instructions?)>|\[\/?(inst|system)\]|<\|im_start\|>|###\s*(system|instruction)/i,
];

export function isInjectionAttempt(message: string): boolean {
  return INJECTION_PATTERNS.some((pattern) => pattern.test(message));
}

/** The refusal of a take-over attempt, naming the firm as published. */
export const injectionRefusal = (firmName: string) =>
  `I'm the ${firmName} website assistant, and I can't change my role or share how I'm set up. I'm glad to help with questions about our services, prices, office hours or booking a consultation.`;

/** The refusal with the default content. */
export const INJECTION_REFUSAL = injectionRefusal(defaultContent.firm.name);

// "My", "I", "we"... together with a tax word: the visitor is asking about their own situation.
const FIRST_PERSON = /\b(i|i'm|im|i've|i'd|me|my|mine|we|we're|our|us|myself)\b/i;
const TAX_TOPIC =
  /\b(tax|taxes|taxed|irs|deduct\w*|refunds?|owe|owed|returns?|audit\w*|write[- ]?offs?|withholding|1099s?|w-?2s?|penalt\w*|tax credits?|income|s-?corp\w*|llc|estimated|depreciation|capital gains?|dependents?|exemptions?)\b/i;

export function isAboutOwnTaxes(message: string): boolean {
  return FIRST_PERSON.test(message) && TAX_TOPIC.test(message);
}

export const BOOKING_INVITATION =
  'Every tax situation is different, so for advice on yours, please book a free consultation with one of our CPAs at /schedule.';

/** Ends the reply with the booking invitation (once). */
export function withBookingInvitation(reply: string): string {
  const trimmed = reply.trim();
  if (trimmed.endsWith(BOOKING_INVITATION)) return trimmed;
  return `${trimmed}\n\n${BOOKING_INVITATION}`;
}

export const MAX_REPLY_LENGTH = 2000;

/**
 * The text without invisible format characters (zero-width spaces and joiners, bidi marks, soft
 * hyphens: Unicode category Cf) and with compatibility forms folded (NFKC: full-width letters,
 * ligatures). They change nothing a reader sees, so a model asked to sprinkle them through a quote
 * of its rules must not get the quote past the leak check, nor onto the screen.
 */
export const withoutInvisibles = (text: string) => text.normalize('NFKC').replace(/\p{Cf}/gu, '');

/**
 * A model's reply as plain text: no HTML, no Markdown decoration, bounded length. The widget
 * renders text only; this keeps stored replies readable too.
 */
export function toPlainText(reply: string): string {
  let text = withoutInvisibles(reply)
    .replace(/<[^>]{0,200}>/g, '')
    .replace(/\[([^\]]{1,200})\]\((\/[a-z0-9/#-]*)\)/gi, '$1 ($2)')
    .replace(/\[([^\]]{1,200})\]\((https?:[^)]+)\)/gi, '$1 ($2)')
    .replace(/\*\*|__|`+/g, '')
    .replace(/^[ \t]{0,3}#{1,6}[ \t]+/gm, '')
    .replace(/^[ \t]*\*[ \t]+/gm, '- ')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  if (text.length > MAX_REPLY_LENGTH) {
    const cut = text.slice(0, MAX_REPLY_LENGTH);
    const lastStop = Math.max(cut.lastIndexOf('. '), cut.lastIndexOf('.\n'));
    text = lastStop > MAX_REPLY_LENGTH / 2 ? cut.slice(0, lastStop + 1) : `${cut.trimEnd()}...`;
  }
  return text;
}

const normalise = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9$]+/g, ' ')
    .trim();

/**
 * True when the reply quotes the confidential part of the system prompt: a run of eight words in
 * a row from it, or its canary marker. (The knowledge part is public and may be quoted freely.)
 * Checked on the text as a reader sees it (invisible characters and tags removed, as toPlainText
 * does) as well as raw: a quote split by `<b>` tags or zero-width spaces is still a quote.
 */
export function leaksInstructions(reply: string, instructions: string, canary: string): boolean {
  const visible = withoutInvisibles(reply).replace(/<[^>]{0,200}>/g, '');
  const canaryText = normalise(canary);
  if ([reply, visible].some((text) => text.toLowerCase().includes(canary.toLowerCase()) || normalise(text).includes(canaryText))) return true;
  const replyText = ` ${normalise(reply)} ${normalise(visible)} `;
  const words = normalise(instructions).split(' ');
  const run = 8;
  for (let i = 0; i + run <= words.length; i++) {
    if (replyText.includes(` ${words.slice(i, i + run).join(' ')} `)) return true;
  }
  return false;
}
