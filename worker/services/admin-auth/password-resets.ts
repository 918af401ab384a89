import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { adminPasswordResets, adminUsers } from '../../db/schema';
import { PASSWORD_RESET_TTL_HOURS } from '#core/schemas/admin-accounts';
import { linkTokenHash, newLinkToken } from './link-tokens';
import { hashPassword } from './passwords';

// Password-reset links (docs/product.md §6.8): an owner has one e-mailed to an account's own
// address (never a password: the person chooses it). The link sets a new password once, until
// PASSWORD_RESET_TTL_HOURS, and ends every session of the account; only the SHA-256 of its token is
// stored, and a newer link for the same account replaces the older one.

const resetTokenHash = (token: string) => linkTokenHash('admin-password-reset', token);

/** The account a reset link may go to: active, with an e-mail address. */
export async function resetTarget(db: Db, id: number) {
  return db.query.adminUsers.findFirst({ columns: { id: true, name: true, username: true, email: true, status: true }, where: eq(adminUsers.id, id) });
}

/** Stores a new reset link for the account (its older unused ones stop working) and returns its token. */
export async function createPasswordReset(db: Db, adminUserId: number, requestedBy: number, now = Date.now()): Promise<{ token: string; expiresAt: Date }> {
  const token = newLinkToken();
  const expiresAt = new Date(now + PASSWORD_RESET_TTL_HOURS * 3600 * 1000);
  await db.batch([
    db.delete(adminPasswordResets).where(and(eq(adminPasswordResets.adminUserId, adminUserId), isNull(adminPasswordResets.usedAt))),
    db.insert(adminPasswordResets).values({ tokenHash: await resetTokenHash(token), adminUserId, requestedBy, expiresAt }),
  ]);
  return { token, expiresAt };
}

export type ResetProblem = 'unknown' | 'used' | 'expired';

export const RESET_MESSAGES: Record<ResetProblem, string> = {
  unknown: 'This password-reset link is not valid. Ask the firm’s owner for a new one.',
  used: 'This password-reset link has already been used. Sign in with your new password, or ask the firm’s owner for a new link.',
  expired: 'This password-reset link has expired. Ask the firm’s owner for a new one.',
};

export const RESET_STATUS = { unknown: 404, used: 409, expired: 410 } as const satisfies Record<ResetProblem, number>;

/** Whose password a link resets, while it still can; else why not. A deactivated account's link is not valid. */
export async function findPasswordReset(db: Db, token: string, now = Date.now()) {
  const [row] = await db
    .select({ reset: adminPasswordResets, username: adminUsers.username, name: adminUsers.name, status: adminUsers.status })
    .from(adminPasswordResets)
    .innerJoin(adminUsers, eq(adminUsers.id, adminPasswordResets.adminUserId))
    .where(eq(adminPasswordResets.tokenHash, await resetTokenHash(token)));
  if (!row || row.status !== 'active') return { ok: false as const, problem: 'unknown' as const };
  if (row.reset.usedAt) return { ok: false as const, problem: 'used' as const };
  if (row.reset.expiresAt.getTime() <= now) return { ok: false as const, problem: 'expired' as const };
  return { ok: true as const, reset: row.reset, username: row.username, name: row.name };
}

/**
 * Sets the new password through a link, in ONE batch: the link is claimed (unused, unexpired, its
 * account active) and, only then, the password is replaced, the session version bumped and every
 * session row of the account deleted, so each of its cookies stops working at once.
 */
export async function replacePasswordByLink(d1: D1Database, db: Db, token: string, password: string, now = Date.now()) {
  const found = await findPasswordReset(db, token, now);
  if (!found.ok) return found;
  const passwordHash = await hashPassword(password);
  const hash = await resetTokenHash(token);
  const claimedAccount = `(SELECT admin_user_id FROM admin_password_resets WHERE token_hash = ?1 AND used_at = ?2)`;
  const [claimed] = await d1.batch<{ adminUserId: number }>([
    d1
      .prepare(
        `UPDATE admin_password_resets SET used_at = ?2
         WHERE token_hash = ?1 AND used_at IS NULL AND expires_at > ?2
           AND EXISTS (SELECT 1 FROM admin_users WHERE admin_users.id = admin_password_resets.admin_user_id AND status = 'active')
         RETURNING admin_user_id AS adminUserId`,
      )
      .bind(hash, now),
    d1
      .prepare(`UPDATE admin_users SET password_hash = ?3, session_version = session_version + 1, updated_at = ?2 WHERE id = ${claimedAccount}`)
      .bind(hash, now, passwordHash),
    d1.prepare(`DELETE FROM admin_sessions WHERE admin_user_id = ${claimedAccount}`).bind(hash, now),
  ]);
  const account = claimed.results[0];
  if (!account) {
    const again = await findPasswordReset(db, token, now);
    return again.ok ? { ok: false as const, problem: 'used' as const } : again;
  }
  return { ok: true as const, userId: account.adminUserId, username: found.username };
}
