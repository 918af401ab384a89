import { and, desc, eq, gt, lt, ne } from 'drizzle-orm';
import { jwtVerify, SignJWT } from 'jose';
import type { Db } from '../../db/client';
import { adminSessions } from '../../db/schema';
import { isLocalHost } from '../platform/local-host';
import { ALGORITHM, ISSUER, jwtSecretKey } from '../platform/link-signing';

// Tokens are pinned to HS256 with our issuer (worker/services/platform/link-signing.ts) and the
// session's own audience: jose rejects `alg: none`, other algorithms, other keys, and expired tokens.
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

/**
 * Over HTTPS the cookie is Secure and __Host- prefixed; plain-HTTP localhost cannot use either. Any
 * other host is Secure whatever the scheme (middleware/https-only.ts refuses plain HTTP there anyway).
 */
export function sessionCookie(requestUrl: string): { name: string; secure: boolean } {
  const url = new URL(requestUrl);
  const https = url.protocol === 'https:';
  return { name: https ? '__Host-admin_session' : 'admin_session', secure: https || !isLocalHost(url.hostname) };
}

/** A session's token: `jti` is its admin_sessions row, `expiresAt` when both end. */
export async function issueSessionToken(secret: string, claims: AdminSessionClaims, session: { jti: string; expiresAt: Date }): Promise<string> {
  return new SignJWT({ username: claims.username, sv: claims.sessionVersion })
    .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
    .setSubject(String(claims.userId))
    .setJti(session.jti)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(Math.floor(session.expiresAt.getTime() / 1000))
    .sign(jwtSecretKey(secret));
}

/**
 * Returns the claims of a valid token, or null for anything forged, expired or malformed. A token
 * without an id (issued before sign-out could revoke one) is refused: it could not be revoked.
 */
export async function verifySessionToken(secret: string, token: string): Promise<VerifiedSession | null> {
  try {
    const { payload } = await jwtVerify(token, jwtSecretKey(secret), {
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

/** "Chrome on Windows": what the sessions list says a session was signed in from (no full user agent is kept). */
export function describeDevice(userAgent: string | undefined): string {
  const ua = userAgent ?? '';
  const browser = /Edg\//.test(ua)
    ? 'Edge'
    : /Firefox\//.test(ua)
      ? 'Firefox'
      : /Chrom(e|ium)\//.test(ua)
        ? 'Chrome'
        : /Safari\//.test(ua)
          ? 'Safari'
          : null;
  const system = /iPhone/.test(ua)
    ? 'iPhone'
    : /iPad/.test(ua)
      ? 'iPad'
      : /Android/.test(ua)
        ? 'Android'
        : /Windows/.test(ua)
          ? 'Windows'
          : /Mac OS X|Macintosh/.test(ua)
            ? 'macOS'
            : /Linux/.test(ua)
              ? 'Linux'
              : null;
  if (!browser && !system) return 'an unknown browser';
  return [browser ?? 'a browser', system && `on ${system}`].filter(Boolean).join(' ');
}

/**
 * A cookie for the route to set (worker/middleware/admin-cookies.ts): HttpOnly, SameSite=Strict,
 * path /, `secure` as the request's origin allows; services only say what it holds.
 */
export interface CookieToSet {
  name: string;
  value: string;
  secure: boolean;
  maxAge: number;
}

/** The session cookie carrying `token` until `expiresAt`, named for the request's origin. */
function sessionCookieToSet(requestUrl: string, token: string, expiresAt: Date): CookieToSet {
  return { ...sessionCookie(requestUrl), value: token, maxAge: Math.max(1, Math.ceil((expiresAt.getTime() - Date.now()) / 1000)) };
}

/** Where a sign-in comes from, as the sessions list shows it: the browser's user agent and Cloudflare's country. */
export interface SignInOrigin {
  url: string;
  userAgent: string | undefined;
  country: unknown;
}

/**
 * Signs in: a new admin_sessions row (where from, until when) and the cookie whose token names it.
 * The token is refused once the row is gone (sign-out, sign-out from the sessions list, deactivation).
 */
export async function startSession(db: Db, secret: string, claims: AdminSessionClaims, from: SignInOrigin): Promise<CookieToSet> {
  const jti = crypto.randomUUID();
  const expiresAt = new Date(Date.now() + SESSION_TTL_SECONDS * 1000);
  await db.insert(adminSessions).values({
    id: jti,
    adminUserId: claims.userId,
    device: describeDevice(from.userAgent),
    country: typeof from.country === 'string' ? from.country.slice(0, 8) : null,
    expiresAt,
  });
  return sessionCookieToSet(from.url, await issueSessionToken(secret, claims, { jti, expiresAt }), expiresAt);
}

/**
 * After a password change or turning the second factor on (which bump the session version): this
 * browser's session goes on under the new version with the same row and expiry (the cookie
 * returned), and every other session of the account ends.
 */
export async function renewSession(
  db: Db,
  secret: string,
  requestUrl: string,
  claims: AdminSessionClaims,
  session: { jti: string; expiresAt: Date },
): Promise<CookieToSet> {
  await db.delete(adminSessions).where(and(eq(adminSessions.adminUserId, claims.userId), ne(adminSessions.id, session.jti)));
  return sessionCookieToSet(requestUrl, await issueSessionToken(secret, claims, session), session.expiresAt);
}

/** Ends one session server-side (sign-out): a copy of its cookie stops working with the browser's. */
export async function endSession(db: Db, jti: string): Promise<void> {
  await db.delete(adminSessions).where(eq(adminSessions.id, jti));
}

/** Ends one of an account's sessions from the sessions list; false when it is not (or no longer) there. */
export async function endSessionOf(db: Db, userId: number, jti: string): Promise<boolean> {
  const ended = await db
    .delete(adminSessions)
    .where(and(eq(adminSessions.id, jti), eq(adminSessions.adminUserId, userId)))
    .returning({ id: adminSessions.id });
  return ended.length > 0;
}

/** An account's live sessions, newest first: "signed in from … since …". */
export async function listSessions(db: Db, userId: number, now = Date.now()) {
  return db
    .select({ id: adminSessions.id, device: adminSessions.device, country: adminSessions.country, createdAt: adminSessions.createdAt, expiresAt: adminSessions.expiresAt })
    .from(adminSessions)
    .where(and(eq(adminSessions.adminUserId, userId), gt(adminSessions.expiresAt, new Date(now))))
    .orderBy(desc(adminSessions.createdAt));
}

/**
 * For the cron's housekeeping batch (worker/services/platform/jobs.ts, housekeepingJob): sessions past their
 * expiry (at most SESSION_TTL_SECONDS after sign-in) are refused anyway; their rows can go.
 */
export function pruneExpiredSessions(db: Db, now = Date.now()) {
  return db.delete(adminSessions).where(lt(adminSessions.expiresAt, new Date(now)));
}
