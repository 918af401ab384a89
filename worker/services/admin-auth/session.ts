import { lt } from 'drizzle-orm';
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { jwtVerify, SignJWT } from 'jose';
import type { Db } from '../../db/client';
import { revokedSessions } from '../../db/schema';
import type { AppEnv } from '../../env';
import { isLocalHost } from '../platform/local-host';

// Tokens are pinned to HS256 with our issuer and audience: jose rejects `alg: none`, other
// algorithms, other keys, and expired tokens.
const ALGORITHM = 'HS256';
const ISSUER = 'warrendale-cpa';
const AUDIENCE = 'warrendale-cpa-admin';
export const SESSION_TTL_SECONDS = 8 * 60 * 60;

export interface AdminSessionClaims {
  userId: number;
  username: string;
  sessionVersion: number;
}

/** A verified token: its claims plus its id (`jti`, what sign-out revokes) and its expiry. */
export interface VerifiedSession extends AdminSessionClaims {
  jti: string;
  expiresAt: Date;
}

function secretKey(secret: string): Uint8Array {
  if (!secret || secret.length < 32) {
    throw new Error('JWT_SECRET must be set to at least 32 characters');
  }
  return new TextEncoder().encode(secret);
}

/**
 * Over HTTPS the cookie is Secure and __Host- prefixed; plain-HTTP localhost cannot use either. Any
 * other host is Secure whatever the scheme (middleware/https-only.ts refuses plain HTTP there anyway).
 */
function cookieName(c: Context<AppEnv>): { name: string; secure: boolean } {
  const url = new URL(c.req.url);
  const https = url.protocol === 'https:';
  return { name: https ? '__Host-admin_session' : 'admin_session', secure: https || !isLocalHost(url.hostname) };
}

export async function issueSessionToken(secret: string, claims: AdminSessionClaims): Promise<string> {
  return new SignJWT({ username: claims.username, sv: claims.sessionVersion })
    .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
    .setSubject(String(claims.userId))
    .setJti(crypto.randomUUID())
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(`${SESSION_TTL_SECONDS}s`)
    .sign(secretKey(secret));
}

/**
 * Returns the claims of a valid token, or null for anything forged, expired or malformed. A token
 * without an id (issued before sign-out could revoke one) is refused: it could not be revoked.
 */
export async function verifySessionToken(secret: string, token: string): Promise<VerifiedSession | null> {
  try {
    const { payload } = await jwtVerify(token, secretKey(secret), {
      algorithms: [ALGORITHM],
      issuer: ISSUER,
      audience: AUDIENCE,
      requiredClaims: ['exp', 'sub', 'jti'],
    });
    const userId = Number(payload.sub);
    if (!Number.isInteger(userId) || typeof payload.username !== 'string' || typeof payload.sv !== 'number' || !payload.jti || !payload.exp) {
      return null;
    }
    return { userId, username: payload.username, sessionVersion: payload.sv, jti: payload.jti, expiresAt: new Date(payload.exp * 1000) };
  } catch {
    return null;
  }
}

export async function setSessionCookie(c: Context<AppEnv>, claims: AdminSessionClaims): Promise<void> {
  const token = await issueSessionToken(c.env.JWT_SECRET, claims);
  const { name, secure } = cookieName(c);
  setCookie(c, name, token, {
    httpOnly: true,
    secure,
    sameSite: 'Strict',
    path: '/',
    maxAge: SESSION_TTL_SECONDS,
  });
}

export function readSessionCookie(c: Context<AppEnv>): string | undefined {
  return getCookie(c, cookieName(c).name);
}

export function clearSessionCookie(c: Context<AppEnv>): void {
  const { name, secure } = cookieName(c);
  deleteCookie(c, name, { path: '/', secure, httpOnly: true, sameSite: 'Strict' });
}

/**
 * Ends a session server-side (sign-out): its token id is refused by requireAdmin until the token
 * would have expired anyway, so a copied cookie stops working with the browser's.
 */
export async function revokeSession(db: Db, session: VerifiedSession): Promise<void> {
  await db.insert(revokedSessions).values({ jti: session.jti, expiresAt: session.expiresAt }).onConflictDoNothing();
}

/**
 * For the cron's housekeeping batch (worker/services/platform/housekeeping.ts): revocations of tokens that
 * have expired (at most SESSION_TTL_SECONDS after sign-in) protect nothing any more.
 */
export function pruneRevokedSessions(db: Db, now = Date.now()) {
  return db.delete(revokedSessions).where(lt(revokedSessions.expiresAt, new Date(now)));
}
