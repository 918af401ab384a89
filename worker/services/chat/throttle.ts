import { takeKvAllowance } from '../kv-throttle';

// Per-IP chat throttle in KV (env.THROTTLE). A visitor types a few messages a minute; 20 in ten
// minutes leaves room for a real conversation while capping what one address can cost us in
// Workers AI calls. It is a cost guard, not a hard cap like the daily submission count in D1:
// approximate under races and open when KV fails (worker/services/kv-throttle.ts, docs/decisions/0006).
export const CHAT_MESSAGES_PER_WINDOW = 20;
/** The configured allowance (env CHAT_MESSAGES_PER_WINDOW), else the default above. */
export function chatMessagesPerWindow(configured: string | undefined): number {
  const value = Number.parseInt(configured ?? '', 10);
  return Number.isFinite(value) && value >= 0 ? value : CHAT_MESSAGES_PER_WINDOW;
}
export const CHAT_WINDOW_SECONDS = 10 * 60;

export const chatThrottleKey = (ipHash: string, now: number) =>
  `chat:${ipHash}:${Math.floor(now / (CHAT_WINDOW_SECONDS * 1000))}`;

/** Counts one message for this (hashed) IP; false when the window's allowance is used up. */
export async function takeChatAllowance(kv: KVNamespace, ipHash: string, now = Date.now(), limit = CHAT_MESSAGES_PER_WINDOW): Promise<boolean> {
  return takeKvAllowance(kv, {
    key: chatThrottleKey(ipHash, now),
    limit,
    // The key outlives its window by a minute, then disappears.
    ttlSeconds: CHAT_WINDOW_SECONDS + 60,
    name: 'chat',
  });
}
