// What every JWT of the site shares (the newsletter's confirm and unsubscribe links,
// worker/services/newsletter/tokens.ts, the appointments' cancel and reschedule links,
// worker/services/appointments/links.ts, and the admin session, worker/services/admin-auth/session.ts):
// signed with JWT_SECRET, HS256, one issuer. Each gives its tokens their own audience, so no link
// can be used as another or as an admin session. The newsletter's click signatures
// (worker/services/newsletter/click-tracking.ts) are HMACs under the same key.

export const ALGORITHM = 'HS256';
export const ISSUER = 'warrendale-cpa';

/** The HMAC key of every signed link (newsletter and appointment links alike). */
export function jwtSecretKey(secret: string): Uint8Array {
  if (!secret || secret.length < 32) throw new Error('JWT_SECRET must be set to at least 32 characters');
  return new TextEncoder().encode(secret);
}

// The imported HMAC-SHA-256 key per secret, kept for the isolate's life: every booking signs two
// links and every newsletter recipient a click signature per link, and importing the key (what jose
// does for raw key bytes) costs about as much as signing.
const hmacKeys = new Map<string, CryptoKey>();

/** `jwtSecretKey(secret)` imported for HMAC signing. The key itself is kept, not a pending promise: nothing one request awaits is settled by another. */
export async function hmacSigningKey(secret: string): Promise<CryptoKey> {
  const cached = hmacKeys.get(secret);
  if (cached) return cached;
  const imported = await crypto.subtle.importKey('raw', jwtSecretKey(secret) as Uint8Array<ArrayBuffer>, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  hmacKeys.set(secret, imported);
  return imported;
}
