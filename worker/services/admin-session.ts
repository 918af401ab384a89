import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { jwtVerify, SignJWT } from 'jose';
import type { AppEnv } from '../env';

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

function secretKey(secret: string): Uint8Array {
  if (!secret || secret.length < 32) {
    throw new Error('JWT_SECRET must be set to at least 32 characters');
  }
  return new TextEncoder().encode(secret);
}

/** Over HTTPS the cookie is Secure and __Host- prefixed; plain-HTTP localhost cannot use either. */
function cookieName(c: Context<AppEnv>): { name: string; secure: boolean } {
  const secure = new URL(c.req.url).protocol === 'https:';
  return { name: secure ? '__Host-admin_session' : 'admin_session', secure };
}

export async function issueSessionToken(secret: string, claims: AdminSessionClaims): Promise<string> {
  return new SignJWT({ username: claims.username, sv: claims.sessionVersion })
    .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
    .setSubject(String(claims.userId))
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(`${SESSION_TTL_SECONDS}s`)
    .sign(secretKey(secret));
}

/** Returns the claims of a valid token, or null for anything forged, expired or malformed. */
export async function verifySessionToken(secret: string, token: string): Promise<AdminSessionClaims | null> {
  try {
    const { payload } = await jwtVerify(token, secretKey(secret), {
      algorithms: [ALGORITHM],
      issuer: ISSUER,
      audience: AUDIENCE,
      requiredClaims: ['exp', 'sub'],
    });
    const userId = Number(payload.sub);
    if (!Number.isInteger(userId) || typeof payload.username !== 'string' || typeof payload.sv !== 'number') {
      return null;
    }
    return { userId, username: payload.username, sessionVersion: payload.sv };
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
