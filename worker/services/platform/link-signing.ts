// What every signed link of the site shares (the newsletter's confirm and unsubscribe links,
// worker/services/newsletter/tokens.ts, and the appointments' cancel and reschedule links,
// worker/services/appointments/links.ts): a JWT signed with JWT_SECRET, HS256, one issuer. Each
// domain gives its links their own audience, so no link can be used as another or as an admin session.

export const ALGORITHM = 'HS256';
export const ISSUER = 'warrendale-cpa';

/** The HMAC key of every signed link (newsletter and appointment links alike). */
export function key(secret: string): Uint8Array {
  if (!secret || secret.length < 32) throw new Error('JWT_SECRET must be set to at least 32 characters');
  return new TextEncoder().encode(secret);
}
