import { jwtVerify, SignJWT } from 'jose';
import { ALGORITHM, ISSUER, jwtSecretKey } from '../platform/link-signing';

// Newsletter links carry a JWT signed with JWT_SECRET (worker/services/platform/link-signing.ts). A
// distinct audience per purpose means a confirmation token cannot unsubscribe, neither can be used
// as an admin session, and vice versa.
export type NewsletterLinkPurpose = 'newsletter-confirm' | 'newsletter-unsubscribe';

/** Confirmation links expire after 7 days; unsubscribe links work for a year (CAN-SPAM asks 30 days at least). */
export const LINK_TTL_SECONDS: Record<NewsletterLinkPurpose, number> = {
  'newsletter-confirm': 7 * 24 * 60 * 60,
  'newsletter-unsubscribe': 365 * 24 * 60 * 60,
};

export interface LinkClaims {
  subscriberId: number;
  /**
   * The address older links carried (claim `em`); links issued now carry only
   * the subscriber's id (data minimisation: a token seen in a log, a proxy or a mail scanner names
   * nobody). Those older links stay valid until they expire, and must still match the row.
   */
  legacyEmail?: string;
  /** When the link was issued, in ms: a confirmation link older than the last unsubscribe is void. */
  issuedAtMs: number;
  /** The issue an unsubscribe link came with (claim `nl`), for that issue's report. */
  newsletterId?: number;
}

/**
 * A link token names the subscriber by their opaque row id (ids are AUTOINCREMENT, never reused, so
 * a deleted subscriber's links never reach someone else), never by address.
 */
export async function signLinkToken(
  secret: string,
  purpose: NewsletterLinkPurpose,
  subscriber: { id: number },
  now: Date = new Date(),
  context: { newsletterId?: number } = {},
): Promise<string> {
  const iat = Math.floor(now.getTime() / 1000);
  return new SignJWT({ ms: now.getTime(), ...(context.newsletterId ? { nl: context.newsletterId } : {}) })
    .setProtectedHeader({ alg: ALGORITHM })
    .setSubject(String(subscriber.id))
    .setIssuer(ISSUER)
    .setAudience(purpose)
    .setIssuedAt(iat)
    .setExpirationTime(iat + LINK_TTL_SECONDS[purpose])
    .sign(jwtSecretKey(secret));
}

/** The claims of a valid, unexpired token for this purpose; null for anything else. */
export async function verifyLinkToken(secret: string, purpose: NewsletterLinkPurpose, token: string, now: Date = new Date()): Promise<LinkClaims | null> {
  try {
    const { payload } = await jwtVerify(token, jwtSecretKey(secret), {
      algorithms: [ALGORITHM],
      issuer: ISSUER,
      audience: purpose,
      requiredClaims: ['exp', 'sub'],
      currentDate: now,
    });
    const subscriberId = Number(payload.sub);
    if (!Number.isInteger(subscriberId) || typeof payload.ms !== 'number') return null;
    if (payload.em !== undefined && typeof payload.em !== 'string') return null;
    const newsletterId = Number.isInteger(payload.nl) ? (payload.nl as number) : undefined;
    return {
      subscriberId,
      issuedAtMs: payload.ms,
      ...(typeof payload.em === 'string' ? { legacyEmail: payload.em } : {}),
      ...(newsletterId ? { newsletterId } : {}),
    };
  } catch {
    return null;
  }
}

/** Whether a token's subscriber is this row: its id, and the address an older token carried. */
export function claimsMatch(claims: LinkClaims, row: { id: number; email: string }): boolean {
  return claims.subscriberId === row.id && (claims.legacyEmail === undefined || claims.legacyEmail === row.email);
}
