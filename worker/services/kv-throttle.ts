// The courtesy throttle kept in KV (env.THROTTLE): newsletter sign-ups per (hashed) network.
// Approximate by design (docs/decisions/0006): the count is read-then-written, so racing requests
// may pass over the limit, and KV is only eventually consistent. Only where that is harmless: the
// chat throttle, which guards Workers AI spend, moved to D1 (worker/services/chat/throttle.ts)
// because failing open let a burst through uncounted.
//
// They fail open. KV refuses a second write to one key within a second ("KV PUT failed: 429 Too
// Many Requests"), the free plan stops accepting writes after 1,000 a day, and any call can fail
// in an outage; none of that may cost a visitor their message. A failed read or write is logged
// (never the key: it holds the IP hash) and the request goes on.

export type KvAllowance = {
  /** The counter's key; one key per IP and window, so a new window starts from zero. */
  key: string;
  /** Requests allowed per window. */
  limit: number;
  /** How long the key lives (at least 60 s, KV's minimum TTL). */
  ttlSeconds: number;
  /** Names the throttle in the log line, e.g. 'newsletter-subscribe'. */
  name: string;
};

function logFailure(name: string, operation: 'read' | 'write', error: unknown): void {
  const reason = error instanceof Error ? error.message : String(error);
  console.warn(`[throttle] ${name}: KV ${operation} failed, letting the request through: ${reason}`);
}

/**
 * Counts one request against `key`; false when the window's allowance is used up (the refused
 * request is not counted). True, without counting, when KV cannot be read: writing 1 over a count
 * we could not read would reset it.
 */
export async function takeKvAllowance(kv: KVNamespace, { key, limit, ttlSeconds, name }: KvAllowance): Promise<boolean> {
  let used: number;
  try {
    used = Number(await kv.get(key)) || 0;
  } catch (error) {
    logFailure(name, 'read', error);
    return true;
  }
  if (used >= limit) return false;
  try {
    await kv.put(key, String(used + 1), { expirationTtl: Math.max(60, ttlSeconds) });
  } catch (error) {
    logFailure(name, 'write', error);
  }
  return true;
}
