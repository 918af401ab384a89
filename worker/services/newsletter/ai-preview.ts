import { firm as firmCode } from '#core/content/firm';
import type { SiteContent } from '#core/content/schema';
import type { Bindings } from '../../env';
import { NEWSLETTER_MODEL_ID } from '../platform/ai-models';
import { firmDateParts } from '#core/firm-time';
import { sanitizeHtml } from './sanitize-html';
import { escapeHtml } from '../platform/html';
import { type NewsletterDraft, sampleTemplate, staticNewsletter } from './template';
import { publishedContent } from '../content';

/** The AI preview takes 15 to 20 s (docs/product.md §5.6); past 25 s the static template answers. */
export const AI_TIMEOUT_MS = 25_000;

export interface GeneratedNewsletter extends NewsletterDraft {
  /** 'static': Workers AI gave no usable draft and this is the seasonal template (the admin is told). */
  source: 'ai' | 'static';
}

function prompt({ firm, prices }: SiteContent, at: Date): string {
  const { month, year } = firmDateParts(firmCode.timeZone, at);
  const monthName = new Intl.DateTimeFormat('en-US', { month: 'long', timeZone: 'UTC' }).format(new Date(Date.UTC(year, month - 1, 1)));
  return [
    `Write a short e-mail newsletter for ${firm.name}, a CPA firm in ${firm.contact.address.city}, ${firm.contact.address.region}, for ${monthName} ${year}.`,
    'Give 3 to 5 practical, seasonal tax or bookkeeping tips for individuals and small businesses.',
    `Mention that the initial consultation is ${prices.initialConsultation}. Do not invent phone numbers, addresses, prices, names or deadlines you are unsure of.`,
    'Answer in exactly this format and nothing else:',
    'SUBJECT: <one line subject>',
    'HTML:',
    '<the body as simple HTML using only h2, p, ul, li, strong and em>',
  ].join('\n');
}

/** Splits the model's answer into subject and body; null when it did not follow the format. */
export function parseAiNewsletter(answer: string): { subject: string; html: string } | null {
  const subject = /SUBJECT:\s*(.+)/i.exec(answer)?.[1]?.trim().replace(/[\r\n]/g, ' ');
  const htmlStart = answer.search(/HTML:\s*/i);
  if (!subject || htmlStart < 0) return null;
  const html = answer.slice(htmlStart).replace(/^HTML:\s*/i, '').replace(/```(html)?/gi, '').trim();
  if (html.length < 40) return null;
  return { subject: subject.slice(0, 200), html };
}

/**
 * The generated newsletter: Workers AI writes a seasonal issue; with no AI binding (local, tests),
 * an error, an unusable answer or no answer within the timeout, the static seasonal template.
 * The model's HTML goes through the same sanitizer as the admin's.
 */
export async function generateNewsletter(env: Bindings, origin: string, options: { timeoutMs?: number; at?: Date } = {}): Promise<GeneratedNewsletter> {
  const at = options.at ?? new Date();
  const content = await publishedContent(env);
  const fallback = (): GeneratedNewsletter => ({ ...staticNewsletter(content.firm, origin, at), source: 'static' });
  if (!env.AI) return fallback();
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const timeout = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), options.timeoutMs ?? AI_TIMEOUT_MS);
    });
    const ai = env.AI;
    const run = Promise.resolve().then(() =>
      ai.run(NEWSLETTER_MODEL_ID, {
        messages: [
          { role: 'system', content: 'You write concise, accurate newsletters for a small accounting firm.' },
          { role: 'user', content: prompt(content, at) },
        ],
        max_tokens: 1200,
      }),
    );
    // If the timeout wins, a later rejection must not surface as an unhandled one.
    run.catch(() => undefined);
    const result = await Promise.race([run, timeout]);
    if (result === null) {
      console.warn(`AI newsletter generation gave no answer within ${options.timeoutMs ?? AI_TIMEOUT_MS} ms; using the static template`);
      return fallback();
    }
    const answer = typeof result === 'string' ? result : 'response' in result && typeof result.response === 'string' ? result.response : null;
    const parsed = answer ? parseAiNewsletter(answer) : null;
    if (!parsed) {
      console.warn('AI newsletter generation answered without a usable SUBJECT/HTML draft; using the static template');
      return fallback();
    }
    const body = sanitizeHtml(parsed.html);
    const cta = `<p style="text-align: center; margin: 24px 0;"><a href="${escapeHtml(origin)}/schedule" style="background-color: #1e3a8a; color: #ffffff; padding: 12px 24px; border-radius: 6px; text-decoration: none; font-weight: bold; display: inline-block;">Schedule a Free Consultation</a></p>`;
    return { subject: parsed.subject, htmlContent: `${body}\n${cta}`, source: 'ai' };
  } catch (error) {
    console.warn('AI newsletter generation failed; using the static template', error instanceof Error ? error.message : String(error));
    return fallback();
  } finally {
    if (timer) clearTimeout(timer);
  }
}

/** The send dialog's drafts to start from: the AI's preview (generateNewsletter), the static seasonal issue, the sample body. */
export async function startingDraft(env: Bindings, kind: 'static' | 'sample', origin: string): Promise<NewsletterDraft> {
  const { firm } = await publishedContent(env);
  return kind === 'static' ? staticNewsletter(firm, origin) : sampleTemplate(firm, origin);
}
