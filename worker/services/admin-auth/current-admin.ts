import type { Db } from '../../db/client';
import { verifySessionToken } from './session';
import { findAdminForSession } from './users';

/**
 * The signed-in account a session cookie's token names, or null, with one D1 read: the token's
 * session row must exist (sign-out and deactivation delete it), the account be active, and its
 * session version match (a password change bumps it: tokens issued before it stop working).
 */
export async function currentAdminOf(secret: string, db: Db, token: string | undefined) {
  if (!token) return null;
  const claims = await verifySessionToken(secret, token);
  if (!claims) return null;
  const user = await findAdminForSession(db, claims.userId, claims.jti);
  if (!user || user.sessionVersion !== claims.sessionVersion) return null;
  return {
    ...user,
    jti: claims.jti,
    // The owner's policy (docs/product.md §6.8): until this account has a second factor it may only set one up.
    mustEnrolTwoFactor: user.requireTwoFactor === true && !user.hasTwoFactor,
  };
}
