// PBKDF2-SHA256 through WebCrypto. 100,000 iterations is the most workerd allows for PBKDF2
// (docs/product.md §6.1); each hash carries its own random 16-byte salt.

import { base64ToBytes, bytesToBase64 } from '#core/encoding';
const ITERATIONS = 100_000;
const KEY_BITS = 256;

async function derive(password: string, salt: Uint8Array<ArrayBuffer>, iterations: number): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(password), 'PBKDF2', false, [
    'deriveBits',
  ]);
  const bits = await crypto.subtle.deriveBits(
    { name: 'PBKDF2', hash: 'SHA-256', salt, iterations },
    key,
    KEY_BITS,
  );
  return new Uint8Array(bits);
}

/** Hashes a password as `pbkdf2-sha256$<iterations>$<salt>$<hash>`. */
export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const hash = await derive(password, salt, ITERATIONS);
  return `pbkdf2-sha256$${ITERATIONS}$${bytesToBase64(salt)}$${bytesToBase64(hash)}`;
}

/**
 * What a sign-in for an unknown username is verified against, so it costs the same PBKDF2 work as
 * a known one and its answer time does not tell which usernames exist. Salt and hash are random
 * bytes with no known preimage, in the same format and iterations as every stored hash.
 */
export const DUMMY_PASSWORD_HASH = `pbkdf2-sha256$${ITERATIONS}$l5OhIPbHXOQyRjH0SYdXMg==$jFTSVR6y58iTbCffE8wSbC/zrGjo/uCiZKwY/8OrnU0=`;

/** Checks a password against a stored hash in constant time. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, iterationsText, saltText, hashText] = stored.split('$');
  const iterations = Number(iterationsText);
  if (scheme !== 'pbkdf2-sha256' || !Number.isInteger(iterations) || iterations < 1 || !saltText || !hashText) {
    return false;
  }
  const expected = base64ToBytes(hashText);
  const actual = await derive(password, base64ToBytes(saltText), iterations);
  if (actual.length !== expected.length) return false;
  // Constant-time comparison (portable: this module also runs in Node for `npm start`'s seeding).
  let difference = 0;
  for (let i = 0; i < actual.length; i++) difference |= actual[i] ^ expected[i];
  return difference === 0;
}
