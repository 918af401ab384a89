// Time-based one-time passwords (RFC 6238) for the admin's optional second factor
// (docs/product.md §6.1): HMAC-SHA-1, 6 digits, 30-second steps, one step of clock drift either
// way, through WebCrypto. Every function takes `now` so tests run against a fixed clock.

import { sha256Hex } from '#core/encoding';

export const TOTP_DIGITS = 6;
export const TOTP_STEP_SECONDS = 30;
/** Steps of clock drift accepted either side of the current one. */
const DRIFT_STEPS = 1;
/** RFC 4226 §4 asks for at least 128 bits; 160 is the SHA-1 block authenticators expect. */
const SECRET_BYTES = 20;
const AUTHENTICATOR_ISSUER = 'Warrendale CPA';

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32, upper case, without padding (what authenticator apps accept). */
export function base32Encode(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

/** Decodes base32 (case, spaces and padding ignored); null when a character is not base32. */
export function base32Decode(text: string): Uint8Array<ArrayBuffer> | null {
  const clean = text.replace(/[\s=]/g, '').toUpperCase();
  const out: number[] = [];
  let bits = 0;
  let value = 0;
  for (const ch of clean) {
    const index = BASE32.indexOf(ch);
    if (index < 0) return null;
    value = ((value << 5) | index) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Uint8Array.from(out);
}

/** A new shared secret: 20 random bytes, base32. */
export function generateTotpSecret(): string {
  return base32Encode(crypto.getRandomValues(new Uint8Array(SECRET_BYTES)));
}

/** The 30-second step a moment falls in (RFC 6238 §4.2, T0 = 0). */
export function totpStep(now: number): number {
  return Math.floor(now / 1000 / TOTP_STEP_SECONDS);
}

/** The HOTP value (RFC 4226 §5.3) of a raw key at one counter value, zero-padded to `digits`. */
export async function hotp(key: Uint8Array<ArrayBuffer>, counter: number, digits = TOTP_DIGITS): Promise<string> {
  const message = new ArrayBuffer(8);
  const view = new DataView(message);
  // Counters here stay far below 2^53, so the high word is a plain division.
  view.setUint32(0, Math.floor(counter / 2 ** 32));
  view.setUint32(4, counter >>> 0);
  const hmacKey = await crypto.subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-1' }, false, ['sign']);
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', hmacKey, message));
  const offset = mac[mac.length - 1] & 0x0f;
  const binary = ((mac[offset] & 0x7f) << 24) | (mac[offset + 1] << 16) | (mac[offset + 2] << 8) | mac[offset + 3];
  return String(binary % 10 ** digits).padStart(digits, '0');
}

/** The code an authenticator shows for a base32 secret at `now` (ms since the epoch). */
export async function totpCode(secret: string, now: number, digits = TOTP_DIGITS): Promise<string> {
  const key = base32Decode(secret);
  if (!key) throw new Error('TOTP secret is not base32');
  return hotp(key, totpStep(now), digits);
}

/** Constant-time equality of two equal-length digit strings. */
function sameCode(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}

/** Whether the text has the shape of a TOTP code (spaces allowed: apps show "123 456"). */
export function looksLikeTotpCode(text: string): boolean {
  return new RegExp(`^\\d{${TOTP_DIGITS}}$`).test(text.replace(/\s/g, ''));
}

/**
 * The step a code is valid for at `now` (current step ± 1), or null. Steps at or before
 * `lastUsedStep` are refused, so a code seen once (over a shoulder, in a proxy log) cannot be
 * used again within its window; the caller stores the returned step atomically.
 */
export async function verifyTotp(secret: string, code: string, now: number, lastUsedStep: number | null = null): Promise<number | null> {
  const key = base32Decode(secret);
  const candidate = code.replace(/\s/g, '');
  if (!key || !looksLikeTotpCode(candidate)) return null;
  const current = totpStep(now);
  for (let step = current - DRIFT_STEPS; step <= current + DRIFT_STEPS; step++) {
    if (lastUsedStep !== null && step <= lastUsedStep) continue;
    if (sameCode(await hotp(key, step), candidate)) return step;
  }
  return null;
}

/** The otpauth:// URI an authenticator app reads from the QR code (Key Uri Format). */
export function otpauthUri(secret: string, accountName: string): string {
  const label = encodeURIComponent(`${AUTHENTICATOR_ISSUER}:${accountName}`);
  const params = new URLSearchParams({
    secret,
    issuer: AUTHENTICATOR_ISSUER,
    algorithm: 'SHA1',
    digits: String(TOTP_DIGITS),
    period: String(TOTP_STEP_SECONDS),
  });
  return `otpauth://totp/${label}?${params.toString()}`;
}

// Recovery codes: 10 one-time codes of 10 base32 characters (50 bits each), shown once and stored
// only as SHA-256 hashes. Their entropy makes a fast hash enough: no dictionary to try.
export const RECOVERY_CODE_COUNT = 10;
const RECOVERY_CODE_LENGTH = 10;

/** Ten new recovery codes, formatted `xxxxx-xxxxx` (lower case, easy to read out and type). */
export function generateRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const raw = base32Encode(crypto.getRandomValues(new Uint8Array(7))).slice(0, RECOVERY_CODE_LENGTH).toLowerCase();
    return `${raw.slice(0, 5)}-${raw.slice(5)}`;
  });
}

/** The canonical form of a typed recovery code: case, spaces and dashes do not matter. */
export function normalizeRecoveryCode(text: string): string {
  return text.replace(/[\s-]/g, '').toLowerCase();
}

/** The stored form of a recovery code: hex SHA-256 of its canonical form. */
export function hashRecoveryCode(code: string): Promise<string> {
  return sha256Hex(normalizeRecoveryCode(code));
}
