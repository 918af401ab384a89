// Per-IP chat throttle in KV (env.THROTTLE). A visitor types a few messages a minute; 20 in ten
// minutes leaves room for a real conversation while capping what one address can cost us in
// Workers AI calls. The counter is read-then-written, so two requests racing can both pass: that
// is acceptable for a cost guard (it is not a hard cap like the daily submission count in D1).
export const CHAT_MESSAGES_PER_WINDOW = 20;
export const CHAT_WINDOW_SECONDS = 10 * 60;

export const chatThrottleKey = (ipHash: string, now: number) =>
  `chat:${ipHash}:${Math.floor(now / (CHAT_WINDOW_SECONDS * 1000))}`;

/** Counts one message for this (hashed) IP; false when the window's allowance is used up. */
export async function takeChatAllowance(kv: KVNamespace, ipHash: string, now = Date.now()): Promise<boolean> {
  const key = chatThrottleKey(ipHash, now);
  const used = Number((await kv.get(key)) ?? '0') || 0;
  if (used >= CHAT_MESSAGES_PER_WINDOW) return false;
  try {
    // The key outlives its window by a minute (KV's minimum TTL is 60 s), then disappears.
    await kv.put(key, String(used + 1), { expirationTtl: CHAT_WINDOW_SECONDS + 60 });
  } catch (error) {
    // KV refuses more than one write per second to a key; a failed count must not break the chat.
    console.warn('chat throttle: could not record a message', error);
  }
  return true;
}
