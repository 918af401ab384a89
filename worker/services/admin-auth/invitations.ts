import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import type { Bindings } from '../../env';
import type { Db } from '../../db/client';
import { adminInvitations, adminUsers } from '../../db/schema';
import { isUniqueIndexViolation, isUniqueViolation } from '../../db/unique-violation';
import { INVITATION_TTL_HOURS, type InviteUser } from '#core/schemas/admin-accounts';
import { claimDailyCount } from '../limits/daily-counters';
import { linkTokenHash, newLinkToken } from './link-tokens';
import { hashPassword } from './passwords';
import { generateRecoveryCodes, generateTotpSecret, hashRecoveryCode, verifyTotp } from './totp';

// Invitations to an admin account (docs/product.md §6.8): the owner invites by e-mail; the link
// carries a random token of which only the SHA-256 is stored, works once, and expires after
// INVITATION_TTL_HOURS. Accepting it creates the account with the username and password the
// invitee chooses (the same rules as every admin password), and, while the owner requires
// two-factor sign-in, the authenticator the invitee enrols on the same page. An owner sees the
// pending ones, withdraws or resends them; an invitation works only while its inviter is an
// active owner (checked in the statement that accepts it).

const invitationTokenHash = (token: string) => linkTokenHash('admin-invitation', token);

/**
 * How many e-mailed links (invitations, resent invitations, password resets) one owner may send in
 * a firm day. An office adds a handful of people a year; 20 leaves room for a bad day of typos
 * while a stolen owner session cannot turn the firm's mail into a spam cannon (issue 48: "60
 * invitations go out in 1.6 s").
 */
export const OWNER_DAILY_LINKS = 20;

export const DAILY_LINKS_MESSAGE = `You have sent ${OWNER_DAILY_LINKS} invitations and password-reset links today, the most one owner may send in a day. Try again tomorrow.`;

/** Claims one of the owner's e-mailed links for today (one atomic UPSERT); false once the day's are used up. */
export async function claimOwnerLink(env: Pick<Bindings, 'DB'>, ownerId: number): Promise<boolean> {
  return (await claimDailyCount(env, `admin-links:${ownerId}`, OWNER_DAILY_LINKS)) !== null;
}

/** Whether an account already uses this e-mail address (an invitation to it would be a second account). */
export async function emailInUse(db: Db, email: string): Promise<boolean> {
  return (await db.query.adminUsers.findFirst({ columns: { id: true }, where: eq(adminUsers.email, email) })) !== undefined;
}

/** Stores an invitation and returns its token (shown nowhere but in the e-mail's link). */
export async function createInvitation(db: Db, invite: InviteUser, invitedBy: number, now = Date.now()): Promise<{ id: number; token: string; expiresAt: Date }> {
  const token = newLinkToken();
  const expiresAt = new Date(now + INVITATION_TTL_HOURS * 3600 * 1000);
  const [row] = await db.insert(adminInvitations).values({ ...invite, tokenHash: await invitationTokenHash(token), invitedBy, expiresAt }).returning({ id: adminInvitations.id });
  return { id: row.id, token, expiresAt };
}

/** Not accepted and not withdrawn (expired ones included: the owner may resend them). */
const open = and(isNull(adminInvitations.acceptedAt), isNull(adminInvitations.revokedAt));

const inviter = alias(adminUsers, 'inviter');

/** The invitations not yet accepted nor withdrawn, oldest first: to whom, which role, by whom, until when. */
export async function listPendingInvitations(db: Db) {
  return db
    .select({
      id: adminInvitations.id,
      name: adminInvitations.name,
      email: adminInvitations.email,
      role: adminInvitations.role,
      canSendNewsletters: adminInvitations.canSendNewsletters,
      invitedBy: sql<string>`coalesce(nullif(${inviter.name}, ''), ${inviter.username}, 'a former account')`,
      createdAt: adminInvitations.createdAt,
      expiresAt: adminInvitations.expiresAt,
    })
    .from(adminInvitations)
    .leftJoin(inviter, eq(inviter.id, adminInvitations.invitedBy))
    .where(open)
    .orderBy(asc(adminInvitations.createdAt), asc(adminInvitations.id));
}

/** Withdraws a pending invitation: its link stops working. False when there is none such (accepted, withdrawn or unknown). */
export async function revokeInvitation(db: Db, id: number, now = Date.now()): Promise<boolean> {
  const revoked = await db
    .update(adminInvitations)
    .set({ revokedAt: new Date(now) })
    .where(and(eq(adminInvitations.id, id), open))
    .returning({ id: adminInvitations.id });
  return revoked.length > 0;
}

/**
 * Resends a pending invitation: a new token (the old link stops working, its hash is gone), a new
 * expiry, any half-done authenticator enrolment forgotten, and the resending owner as its inviter
 * (who now vouches for it). Null when it is not pending.
 */
export async function renewInvitation(db: Db, id: number, invitedBy: number, now = Date.now()) {
  const token = newLinkToken();
  const [row] = await db
    .update(adminInvitations)
    .set({ tokenHash: await invitationTokenHash(token), expiresAt: new Date(now + INVITATION_TTL_HOURS * 3600 * 1000), totpPendingSecret: null, invitedBy })
    .where(and(eq(adminInvitations.id, id), open))
    .returning();
  return row ? { invitation: row, token } : null;
}

/** The SQL condition "the invitation's inviter is still an active owner" (an invitation works only then). */
const INVITER_IS_ACTIVE_OWNER = `exists (select 1 from admin_users as inviter where inviter.id = admin_invitations.invited_by and inviter.role = 'owner' and inviter.status = 'active')`;
const inviterIsActiveOwner = sql.raw(INVITER_IS_ACTIVE_OWNER);

export type InvitationProblem = 'unknown' | 'used' | 'revoked' | 'expired';

export const INVITATION_MESSAGES: Record<InvitationProblem, string> = {
  unknown: 'This invitation link is not valid. Ask the firm’s owner for a new invitation.',
  used: 'This invitation has already been used. Sign in with the username you chose.',
  revoked: 'This invitation has been withdrawn. Ask the firm’s owner for a new invitation.',
  expired: 'This invitation has expired. Ask the firm’s owner for a new invitation.',
};

/** The answer's status for each problem with a link. */
export const INVITATION_STATUS = { unknown: 404, used: 409, revoked: 410, expired: 410 } as const satisfies Record<InvitationProblem, number>;

/** The invitation a token names, if it can still be accepted; else why not. */
export async function findInvitation(db: Db, token: string, now = Date.now()) {
  const [row] = await db
    .select({ invitation: adminInvitations, inviterActive: sql<number>`${inviterIsActiveOwner}`.mapWith(Boolean) })
    .from(adminInvitations)
    .where(eq(adminInvitations.tokenHash, await invitationTokenHash(token)));
  if (!row) return { ok: false as const, problem: 'unknown' as const };
  const { invitation } = row;
  if (invitation.acceptedAt) return { ok: false as const, problem: 'used' as const };
  if (invitation.revokedAt || !row.inviterActive) return { ok: false as const, problem: 'revoked' as const };
  if (invitation.expiresAt.getTime() <= now) return { ok: false as const, problem: 'expired' as const };
  return { ok: true as const, invitation };
}

/**
 * Starts the invitee's authenticator enrolment on the acceptance page (the owner requires
 * two-factor sign-in): a new secret kept on the invitation, proven by the link's token alone, so
 * the account is born with its second factor and nobody who later holds its password enrols theirs.
 */
export async function startInvitationTwoFactor(db: Db, token: string, now = Date.now()) {
  const found = await findInvitation(db, token, now);
  if (!found.ok) return found;
  const secret = generateTotpSecret();
  const [row] = await db
    .update(adminInvitations)
    .set({ totpPendingSecret: secret })
    .where(and(eq(adminInvitations.id, found.invitation.id), open))
    .returning({ email: adminInvitations.email });
  return row ? { ok: true as const, secret, email: row.email } : { ok: false as const, problem: 'used' as const };
}

export type Acceptance =
  | { ok: true; user: typeof adminUsers.$inferSelect; recoveryCodes: string[] | null }
  | { ok: false; problem: InvitationProblem | 'username-taken' | 'email-taken' | 'two-factor-required' | 'code-wrong' };

/**
 * Accepts an invitation: marks it used (only if unused, not withdrawn, unexpired and its inviter
 * still an active owner, in the same statement, so a link works once even twice at the same moment
 * and never after its owner was removed) and creates the account in the same batch, with its
 * second factor and recovery codes when the invitee enrolled one (required while the owner's
 * policy is on). A taken username or e-mail undoes it all, so the link keeps working for another try.
 */
export async function createInvitedAccount(
  d1: D1Database,
  db: Db,
  acceptance: { token: string; username: string; password: string; code?: string },
  requireTwoFactor: boolean,
  now = Date.now(),
): Promise<Acceptance> {
  const found = await findInvitation(db, acceptance.token, now);
  if (!found.ok) return found;
  const { invitation } = found;
  const code = acceptance.code?.trim() ? acceptance.code : undefined;
  if (requireTwoFactor && !code) return { ok: false, problem: 'two-factor-required' };
  let secret: string | null = null;
  let step: number | null = null;
  if (code) {
    secret = invitation.totpPendingSecret;
    step = secret ? await verifyTotp(secret, code, now) : null;
    if (step === null) return { ok: false, problem: 'code-wrong' };
  }
  const recoveryCodes = secret ? generateRecoveryCodes() : null;
  const recoveryHashes = recoveryCodes ? await Promise.all(recoveryCodes.map(hashRecoveryCode)) : [];
  const passwordHash = await hashPassword(acceptance.password);
  try {
    // Raw statements: Drizzle's insert-select wants every column of the table.
    const [claimed, created] = await d1.batch<{ id: number }>([
      d1
        .prepare(
          `UPDATE admin_invitations SET accepted_at = ?2, totp_pending_secret = NULL
           WHERE id = ?1 AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > ?2
             AND totp_pending_secret IS ?3 AND ${INVITER_IS_ACTIVE_OWNER}
           RETURNING id`,
        )
        .bind(invitation.id, now, secret),
      // Inserts only when the claim above matched (a second accept of one link inserts nothing).
      d1
        .prepare(
          `INSERT INTO admin_users (username, password_hash, name, email, role, can_send_newsletters, totp_secret, totp_last_step)
           SELECT ?3, ?4, name, email, role, can_send_newsletters, ?5, ?6 FROM admin_invitations WHERE id = ?1 AND accepted_at = ?2
           RETURNING id`,
        )
        .bind(invitation.id, now, acceptance.username, passwordHash, secret, step),
      d1
        .prepare(
          `INSERT INTO admin_recovery_codes (code_hash, admin_user_id)
           SELECT codes.value, u.id FROM json_each(?3) AS codes JOIN admin_users AS u ON u.username = ?4
           WHERE EXISTS (SELECT 1 FROM admin_invitations WHERE id = ?1 AND accepted_at = ?2)`,
        )
        .bind(invitation.id, now, JSON.stringify(recoveryHashes), acceptance.username),
    ]);
    const id = created.results[0]?.id;
    if (claimed.results.length === 0 || id === undefined) {
      // Why the claim did not match, read again after the fact (the claim itself was atomic).
      const again = await findInvitation(db, acceptance.token, now);
      if (!again.ok) return again;
      return { ok: false, problem: secret ? 'code-wrong' : 'used' };
    }
    const user = await db.query.adminUsers.findFirst({ where: eq(adminUsers.id, id) });
    return user ? { ok: true, user, recoveryCodes } : { ok: false, problem: 'used' };
  } catch (error) {
    if (isUniqueViolation(error, [adminUsers.username]) || isUniqueIndexViolation(error, 'admin_users_username_lower_uq')) return { ok: false, problem: 'username-taken' };
    if (isUniqueViolation(error, [adminUsers.email])) return { ok: false, problem: 'email-taken' };
    throw error;
  }
}
