// One answer to one visitor message: guard rails first, then Workers AI when the binding is there,
// the knowledge base when it is not or when it fails, and the same checks on whatever comes back.
import { desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { chatMessages } from '../../db/schema';
import type { Bindings } from '../../env';
import {
  INJECTION_REFUSAL,
  isAboutOwnTaxes,
  isInjectionAttempt,
  leaksInstructions,
  toPlainText,
  withBookingInvitation,
} from './guard-rails';
import { KnowledgeBaseChatModel } from './knowledge-base-model';
import { PROMPT_CANARY, assistantInstructions } from './system-prompt';
import type { ChatModel, ChatQuestion, ChatTurn } from './types';
import { WorkersAiChatModel } from './workers-ai-model';

/** How many earlier turns (both roles) of the session the model sees: the last three exchanges. */
export const HISTORY_TURNS = 6;

/** The session's last turns, oldest first. */
export async function recentTurns(db: Db, sessionId: string, limit = HISTORY_TURNS): Promise<ChatTurn[]> {
  const rows = await db
    .select({ role: chatMessages.role, content: chatMessages.content })
    .from(chatMessages)
    .where(eq(chatMessages.sessionId, sessionId))
    .orderBy(desc(chatMessages.id))
    .limit(limit);
  return rows.reverse();
}

/** The models for this request: Workers AI when bound, and always the knowledge base behind it. */
export function chatModelsFor(env: Pick<Bindings, 'AI' | 'CHAT_AI_TIMEOUT_MS'>): { primary?: ChatModel; fallback: ChatModel } {
  const timeoutMs = Number(env.CHAT_AI_TIMEOUT_MS) || undefined;
  return {
    primary: env.AI ? new WorkersAiChatModel(env.AI, { timeoutMs }) : undefined,
    fallback: new KnowledgeBaseChatModel(),
  };
}

export interface ChatAnswer {
  content: string;
  /** Which model wrote it ('guard-rail' when none was asked). */
  model: string;
}

export async function answerQuestion(question: ChatQuestion, models: { primary?: ChatModel; fallback: ChatModel }): Promise<ChatAnswer> {
  // An attempt to take the assistant over never reaches a model: nothing to leak, no role to change.
  if (isInjectionAttempt(question.message)) return { content: INJECTION_REFUSAL, model: 'guard-rail' };

  let answer: ChatAnswer | undefined;
  if (models.primary) {
    try {
      const text = toPlainText(await models.primary.reply(question));
      if (!text) throw new Error('empty reply after cleaning');
      answer = leaksInstructions(text, assistantInstructions, PROMPT_CANARY)
        ? { content: INJECTION_REFUSAL, model: 'guard-rail' }
        : { content: text, model: models.primary.name };
    } catch (error) {
      console.warn(`chat: ${models.primary.name} failed, answering from the knowledge base`, error instanceof Error ? error.message : error);
    }
  }
  answer ??= { content: toPlainText(await models.fallback.reply(question)), model: models.fallback.name };

  if (isAboutOwnTaxes(question.message) && answer.model !== 'guard-rail') {
    answer = { ...answer, content: withBookingInvitation(answer.content) };
  }
  return answer;
}
