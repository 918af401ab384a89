import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { adminInvitations, adminUsers } from '../../db/schema';
import { isUniqueViolation } from '../../db/unique-violation';
import type { OutgoingEmail } from '../../mail-types';
import { INVITATION_TTL_HOURS, type InviteUser } from '#core/schemas/admin-accounts';
import { escapeHtml } from '../platform/html';
import { hashPassword } from './passwords';

// Invitations to an admin account (docs/product.md §6.8): the owner invites by e-mail; the link
// carries a random token of which only the SHA-256 is stored, works once, and expires after
// INVITATION_TTL_HOURS. Accepting it creates the account with the username and password the
// invitee chooses (the same rules as every admin password).

const toBase64Url = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

async function tokenHash(token: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`admin-invitation:${token}`));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Whether an account already uses this e-mail address (an invitation to it would be a second account). */
export async function emailInUse(db: Db, email: string): Promise<boolean> {
  return (await db.query.adminUsers.findFirst({ columns: { id: true }, where: eq(adminUsers.email, email) })) !== undefined;
}

/** Stores an invitation and returns its token (shown nowhere but in the e-mail's link). */
export async function createInvitation(db: Db, invite: InviteUser, invitedBy: number, now = Date.now()): Promise<{ id: number; token: string; expiresAt: Date }> {
  const token = toBase64Url(crypto.getRandomValues(new Uint8Array(32)));
  const expiresAt = new Date(now + INVITATION_TTL_HOURS * 3600 * 1000);
  const [row] = await db.insert(adminInvitations).values({ ...invite, tokenHash: await tokenHash(token), invitedBy, expiresAt }).returning({ id: adminInvitations.id });
  return { id: row.id, token, expiresAt };
}

/** The invitation e-mail: who invited, the role, the link and until when it works. */
export function invitationEmail(origin: string, invite: InviteUser, invitedByName: string, token: string): OutgoingEmail {
  const link = `${origin}/admin/accept-invitation?token=${encodeURIComponent(token)}`;
  const role = invite.role === 'owner' ? 'an owner' : 'a staff member';
  const text = [
    `Hello ${invite.name},`,
    '',
    `${invitedByName} invited you to the firm's back office as ${role}.`,
    `Choose your username and password here (the link works once, for ${INVITATION_TTL_HOURS} hours):`,
    link,
    '',
    'If you did not expect this invitation, ignore this e-mail.',
  ].join('\n');
  const html = `<p>Hello ${escapeHtml(invite.name)},</p><p>${escapeHtml(invitedByName)} invited you to the firm's back office as ${role}.</p><p><a href="${escapeHtml(link)}">Choose your username and password</a> (the link works once, for ${INVITATION_TTL_HOURS} hours).</p><p>If you did not expect this invitation, ignore this e-mail.</p>`;
  return { to: invite.email, toName: invite.name, subject: 'Your invitation to the back office', text, html, kind: 'admin-invitation' };
}

export type InvitationProblem = 'unknown' | 'used' | 'expired';

export const INVITATION_MESSAGES: Record<InvitationProblem, string> = {
  unknown: 'This invitation link is not valid. Ask the firm’s owner for a new invitation.',
  used: 'This invitation has already been used. Sign in with the username you chose.',
  expired: 'This invitation has expired. Ask the firm’s owner for a new invitation.',
};

/** The invitation a token names, if it can still be accepted; else why not. */
export async function findInvitation(db: Db, token: string, now = Date.now()) {
  const row = await db.query.adminInvitations.findFirst({ where: eq(adminInvitations.tokenHash, await tokenHash(token)) });
  if (!row) return { ok: false as const, problem: 'unknown' as const };
  if (row.acceptedAt) return { ok: false as const, problem: 'used' as const };
  if (row.expiresAt.getTime() <= now) return { ok: false as const, problem: 'expired' as const };
  return { ok: true as const, invitation: row };
}

export type Acceptance =
  | { ok: true; user: typeof adminUsers.$inferSelect }
  | { ok: false; problem: InvitationProblem | 'username-taken' | 'email-taken' };

/**
 * Accepts an invitation: marks it used (only if unused and unexpired, in the same statement, so a
 * link works once even twice at the same moment) and creates the account in the same batch. A
 * taken username or e-mail undoes both, so the link keeps working for another try.
 */
export async function acceptInvitation(d1: D1Database, db: Db, token: string, username: string, password: string, now = Date.now()): Promise<Acceptance> {
  const found = await findInvitation(db, token, now);
  if (!found.ok) return found;
  const { invitation } = found;
  const passwordHash = await hashPassword(password);
  try {
    // Raw statements: Drizzle's insert-select wants every column of the table.
    const [claimed, created] = await d1.batch<{ id: number }>([
      d1
        .prepare('UPDATE admin_invitations SET accepted_at = ?2 WHERE id = ?1 AND accepted_at IS NULL AND expires_at > ?2 RETURNING id')
        .bind(invitation.id, now),
      // Inserts only when the claim above matched (a second accept of one link inserts nothing).
      d1
        .prepare(
          `INSERT INTO admin_users (username, password_hash, name, email, role, can_send_newsletters)
           SELECT ?3, ?4, name, email, role, can_send_newsletters FROM admin_invitations WHERE id = ?1 AND accepted_at = ?2
           RETURNING id`,
        )
        .bind(invitation.id, now, username, passwordHash),
    ]);
    const id = created.results[0]?.id;
    if (claimed.results.length === 0 || id === undefined) return { ok: false, problem: 'used' };
    const user = await db.query.adminUsers.findFirst({ where: eq(adminUsers.id, id) });
    return user ? { ok: true, user } : { ok: false, problem: 'used' };
  } catch (error) {
    if (isUniqueViolation(error, [adminUsers.username])) return { ok: false, problem: 'username-taken' };
    if (isUniqueViolation(error, [adminUsers.email])) return { ok: false, problem: 'email-taken' };
    throw error;
  }
}
