// One answer to one visitor message: guard rails first, then Workers AI when the binding is there,
// the knowledge base when it is not or when it fails, and the same checks on whatever comes back.
import { defaultContent } from '#core/content/default-content';
import type { SiteContent } from '#core/content/schema';
import type { ChatSource } from '#core/schemas/chat';
import type { Bindings } from '../../env';
import { claimAiCall } from '../limits/daily-counters';
import {
  injectionRefusal,
  isAboutOwnTaxes,
  isInjectionAttempt,
  leaksInstructions,
  MAX_REPLY_LENGTH,
  toPlainText,
  withBookingInvitation,
} from './guard-rails';
import { offersHandoff } from './handoff-offer';
import { KnowledgeBaseChatModel } from './knowledge-base-model';
import { PROMPT_CANARY, instructionsFor } from './system-prompt';
import { textChunks } from './text-chunks';
import { answerSources } from './sources';
import type { ChatModel, ChatQuestion } from './types';
import { WorkersAiChatModel } from './workers-ai-model';

/**
 * The models for this request: Workers AI when bound, and always the knowledge base behind it,
 * both knowing the published content. Each Workers AI call first claims one of the day's
 * CHAT_AI_DAILY_BUDGET calls; once they are spent the model is not called and the knowledge base
 * answers, as when Workers AI fails.
 */
export function chatModelsFor(
  env: Pick<Bindings, 'AI' | 'CHAT_AI_TIMEOUT_MS' | 'DB' | 'CHAT_AI_DAILY_BUDGET'>,
  content: SiteContent,
): { primary?: ChatModel; fallback: ChatModel } {
  const timeoutMs = Number(env.CHAT_AI_TIMEOUT_MS) || undefined;
  return {
    primary: env.AI ? new WorkersAiChatModel(env.AI, { timeoutMs, claimCall: () => claimAiCall(env), content }) : undefined,
    fallback: new KnowledgeBaseChatModel(content),
  };
}

export interface ChatAnswer {
  content: string;
  /** Which model wrote it ('guard-rail' when none was asked or a guard rail replaced its reply). */
  model: string;
}

/** An answer as the visitor gets it: with its sources and whether to offer a person. */
export interface FinishedAnswer extends ChatAnswer {
  /** A guard rail refused the exchange: stored for the transcript, never replayed to the model. */
  refused: boolean;
  sources: ChatSource[];
  offerHandoff: boolean;
}

/** What every answer gets last, on both paths: the booking invitation, its sources, the hand-off offer. */
function finish(site: SiteContent, question: ChatQuestion, answer: ChatAnswer): FinishedAnswer {
  if (answer.model === 'guard-rail') return { ...answer, refused: true, sources: [], offerHandoff: false };
  const content = isAboutOwnTaxes(question.message) ? withBookingInvitation(answer.content) : answer.content;
  return {
    ...answer,
    content,
    refused: false,
    sources: answerSources(site, question.message, content),
    offerHandoff: offersHandoff(question.message, content),
  };
}

export async function answerQuestion(
  question: ChatQuestion,
  models: { primary?: ChatModel; fallback: ChatModel },
  content: SiteContent = defaultContent,
): Promise<FinishedAnswer> {
  const refusal = injectionRefusal(content.firm.name);
  // An attempt to take the assistant over never reaches a model: nothing to leak, no role to change.
  if (isInjectionAttempt(question.message)) return finish(content, question, { content: refusal, model: 'guard-rail' });

  let answer: ChatAnswer | undefined;
  if (models.primary) {
    try {
      const text = toPlainText(await models.primary.reply(question));
      if (!text) throw new Error('empty reply after cleaning');
      answer = leaksInstructions(text, instructionsFor(content.firm), PROMPT_CANARY)
        ? { content: refusal, model: 'guard-rail' }
        : { content: text, model: models.primary.name };
    } catch (error) {
      console.warn(`chat: ${models.primary.name} failed, answering from the knowledge base`, error instanceof Error ? error.message : error);
    }
  }
  answer ??= { content: toPlainText(await models.fallback.reply(question)), model: models.fallback.name };
  return finish(content, question, answer);
}

/**
 * How much of a streamed reply is held back before the visitor sees it: the leak check (a run of
 * eight words of the rules, or the canary) and the plain-text cleaning see this much more than has
 * been shown, so a leak is caught before it is on screen and a Markdown link is shown cleaned.
 */
export const STREAM_HOLD_BACK = 80;

/**
 * The shown part of a reply still being written: its plain-text form without the last
 * STREAM_HOLD_BACK characters, cut at a space. Undefined near the length cap, where cutting may
 * still change it.
 */
function shownPart(raw: string): string | undefined {
  const clean = toPlainText(raw);
  if (clean.length >= MAX_REPLY_LENGTH - STREAM_HOLD_BACK) return undefined;
  const end = clean.lastIndexOf(' ', clean.length - STREAM_HOLD_BACK);
  return end > 0 ? clean.slice(0, end + 1) : '';
}

/** Thrown by streamAnswer when the model fails after part of the reply was shown. */
export class ChatStreamInterruptedError extends Error {
  override readonly name = 'ChatStreamInterruptedError';
}

/**
 * answerQuestion, streamed: yields the reply in pieces as it is produced and returns the whole
 * answer, which the same guard rails as answerQuestion decide. The pieces join to the returned
 * content, except when a guard rail trips after some were shown (a leak caught late replaces the
 * reply with the refusal); the final event carries the content, and the widget shows that. A model
 * that fails before anything was shown falls back to the knowledge base; after, it throws
 * ChatStreamInterruptedError.
 */
export async function* streamAnswer(
  question: ChatQuestion,
  models: { primary?: ChatModel; fallback: ChatModel },
  content: SiteContent = defaultContent,
): AsyncGenerator<string, FinishedAnswer, undefined> {
  let shown = '';
  let answer: ChatAnswer | undefined;
  const refusal = injectionRefusal(content.firm.name);
  const instructions = instructionsFor(content.firm);
  if (isInjectionAttempt(question.message)) answer = { content: refusal, model: 'guard-rail' };

  for (const model of answer ? [] : [models.primary, models.fallback]) {
    if (!model) continue;
    let raw = '';
    try {
      for await (const delta of model.stream(question)) {
        raw += delta;
        if (leaksInstructions(raw, instructions, PROMPT_CANARY)) {
          answer = { content: refusal, model: 'guard-rail' };
          break;
        }
        const part = shownPart(raw);
        if (part !== undefined && part.length > shown.length && part.startsWith(shown)) {
          yield part.slice(shown.length);
          shown = part;
        }
      }
      if (!answer) {
        const text = toPlainText(raw);
        if (!text) throw new Error('empty reply after cleaning');
        answer = { content: text, model: model.name };
      }
      break;
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      if (shown || model === models.fallback) throw new ChatStreamInterruptedError(`chat: ${model.name} failed mid-reply: ${reason}`);
      console.warn(`chat: ${model.name} failed, answering from the knowledge base`, reason);
    }
  }
  if (!answer) throw new ChatStreamInterruptedError('chat: no model answered');

  const finished = finish(content, question, answer);
  // What was held back (or all of a refusal) follows in small pieces.
  if (finished.content.startsWith(shown)) yield* textChunks(finished.content.slice(shown.length));
  return finished;
}
