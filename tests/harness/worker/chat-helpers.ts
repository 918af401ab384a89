import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import worker from '../../../worker/index';
import { client, ORIGIN } from './helpers';

export type AiCall = { model: string; inputs: { messages: { role: string; content: string }[]; max_tokens?: number; temperature?: number; stream?: boolean }; options?: { signal?: AbortSignal } };

/**
 * A stand-in for the Workers AI binding: records every run() and answers with `respond`. It
 * replaces only the binding, so the worker's real Workers AI code path runs against it.
 */
export function fakeAi(respond: (call: AiCall) => unknown | Promise<unknown>) {
  const calls: AiCall[] = [];
  const ai = {
    run: async (model: string, inputs: AiCall['inputs'], options?: AiCall['options']) => {
      const call = { model, inputs, options };
      calls.push(call);
      return respond(call);
    },
  };
  return { ai: ai as unknown as Ai, calls };
}

export const newSessionId = () => crypto.randomUUID();

/** POST /api/chat through the worker's fetch with the test env, optionally changed (e.g. another AI). */
export async function postChat(
  body: unknown,
  options: { env?: Partial<Cloudflare.Env>; ip?: string; headers?: Record<string, string> } = {},
): Promise<Response> {
  const request = new Request(`${ORIGIN}/api/chat`, {
    method: 'POST',
    headers: { origin: ORIGIN, 'content-type': 'application/json', 'cf-connecting-ip': options.ip ?? '203.0.113.50', ...options.headers },
    body: JSON.stringify(body),
  });
  const ctx = createExecutionContext();
  const response = await worker.fetch(request, { ...env, ...options.env }, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}

type ChatOptions = { env?: Partial<Cloudflare.Env>; ip?: string; headers?: Record<string, string> };

/**
 * POST /api/chat through the typed client (tests/harness/worker/helpers.ts), from postChat's default IP:
 * the body is what the route's validator accepts, so a renamed field fails typecheck. postChat
 * stays for bodies that are wrong on purpose.
 */
export function sendChat(json: Parameters<ReturnType<typeof client>['api']['chat']['$post']>[0]['json'], options: ChatOptions = {}) {
  return client({ ip: '203.0.113.50', ...options }).api.chat.$post({ json });
}

/** Asks one question with no AI binding at all (as in local development): the knowledge base answers. */
export async function askOffline(message: string, sessionId = newSessionId()): Promise<string> {
  const res = await postChat({ message, sessionId }, { env: { AI: undefined } });
  if (res.status !== 200) throw new Error(`chat answered ${res.status}: ${await res.text()}`);
  const body = (await res.json()) as { role: string; content: string };
  if (body.role !== 'assistant') throw new Error(`unexpected role ${body.role}`);
  return body.content;
}

export async function storedTurns(sessionId: string) {
  const { results } = await env.DB.prepare('SELECT role, content FROM chat_messages WHERE session_id = ? ORDER BY id').bind(sessionId).all<{ role: string; content: string }>();
  return results;
}
