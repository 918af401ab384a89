import { ipv6Groups } from '../platform/ip-address';

/** The one bucket of every request that arrives without CF-Connecting-IP (never so behind Cloudflare). */
export const UNKNOWN_NETWORK = 'unknown';

/**
 * The visitor's network as the limits count it (the address a route reads off CF-Connecting-IP,
 * worker/middleware/client-network.ts): an IPv4 address as it is, an IPv6 address as its /64
 * prefix, since one subscriber line gets a whole /64 and could otherwise take a fresh bucket for
 * every request. Only CF-Connecting-IP, which Cloudflare sets and a client cannot forge;
 * X-Real-IP and X-Forwarded-For are whatever the client wrote. Without it (local tools, a misrouted
 * request) every request shares one "unknown" bucket, so a missing header buys nothing.
 *
 * The network key of an address: IPv4 unchanged, IPv6 its first four groups ("2001:db8:1:2::/64").
 */
export function networkOf(ip: string | undefined): string {
  const address = ip?.trim().toLowerCase();
  if (!address) return UNKNOWN_NETWORK;
  if (!address.includes(':')) return /^\d{1,3}(\.\d{1,3}){3}$/.test(address) ? address : UNKNOWN_NETWORK;
  const groups = ipv6Groups(address.replace(/%.*$/, '')); // a zone id (fe80::1%eth0) names no network
  if (!groups) return UNKNOWN_NETWORK;
  // An IPv4-mapped address (::ffff:192.0.2.1) is that IPv4 address.
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return [groups[6] >> 8, groups[6] & 0xff, groups[7] >> 8, groups[7] & 0xff].join('.');
  }
  return `${groups.slice(0, 4).map((g) => g.toString(16)).join(':')}::/64`;
}

// The imported HMAC key per secret, kept for the isolate's life: every form, chat message and
// sign-up hashes the network, and importing the key costs more than the hash.
const ipHashKeys = new Map<string, CryptoKey>();

/** The key itself is kept, not a pending promise: nothing one request awaits is settled by another. */
async function ipHashKey(secret: string): Promise<CryptoKey> {
  const cached = ipHashKeys.get(secret);
  if (cached) return cached;
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(`ip-hash:${secret}`), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  ipHashKeys.set(secret, key);
  return key;
}

/**
 * A salted, keyed hash of a network key (networkOf): throttles and statistics count distinct
 * visitors without ever storing the raw address. The key is derived from JWT_SECRET so there is
 * one secret to rotate.
 */
export async function hashIp(ip: string, secret: string): Promise<string> {
  const key = await ipHashKey(secret);
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(ip)));
  return Array.from(mac.slice(0, 16), (b) => b.toString(16).padStart(2, '0')).join('');
}
