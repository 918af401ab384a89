import type { Context } from 'hono';
import type { AppEnv } from '../env';

/** The visitor's IP as Cloudflare reports it (falls back to a fixed value in local dev). */
export function clientIp(c: Context<AppEnv>): string {
  return c.req.header('cf-connecting-ip') ?? c.req.header('x-real-ip') ?? '127.0.0.1';
}

/**
 * A salted, keyed hash of an IP: throttles and statistics count distinct visitors without ever
 * storing the raw address. The key is derived from JWT_SECRET so there is one secret to rotate.
 */
export async function hashIp(ip: string, secret: string): Promise<string> {
  const key = await crypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(`ip-hash:${secret}`),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(ip)));
  return Array.from(mac.slice(0, 16), (b) => b.toString(16).padStart(2, '0')).join('');
}
