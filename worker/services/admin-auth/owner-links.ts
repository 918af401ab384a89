import type { InviteUser } from '#core/schemas/admin-accounts';
import type { Db } from '../../db/client';
import type { Bindings } from '../../env';
import { recordAudit } from '../audit/audit-log';
import { type AfterAnswer, enqueue } from '../email/enqueue';
import { invitationEmail, passwordResetEmail } from './emails';
import { claimOwnerLink, createInvitation, emailInUse, renewInvitation } from './invitations';
import { createPasswordReset, resetTarget } from './password-resets';
import type { Acting } from './request';

// The e-mailed links an owner sends (docs/product.md §6.8): invitations, resent invitations and
// password resets. Each claims one of the owner's daily links (invitations.ts OWNER_DAILY_LINKS)
// before anything is stored, is recorded, and leaves through the outbox (logged first, then sent
// after the answer): nothing is lost if the send fails.

/** Who sends the link and how: the owner (the e-mail names them), the site's origin for the link, and the request's bindings and waitUntil. */
export interface LinkSender {
  env: Bindings;
  ctx: AfterAnswer;
  db: Db;
  owner: Acting & { name: string };
  origin: string;
}

const audited = (from: LinkSender, action: 'user.invite' | 'user.invitation-resend' | 'user.password-reset-send', record: string) =>
  recordAudit(from.db, { actor: { id: from.owner.id, username: from.owner.username }, action, record, network: from.owner.network });

const senderName = (owner: LinkSender['owner']) => owner.name || owner.username;

/** Invites a person by e-mail to an account with the role given. */
export async function inviteUser(from: LinkSender, invite: InviteUser): Promise<{ ok: true; expiresAt: Date } | { ok: false; reason: 'email-in-use' | 'daily-links' }> {
  if (await emailInUse(from.db, invite.email)) return { ok: false, reason: 'email-in-use' };
  if (!(await claimOwnerLink(from.env, from.owner.id))) return { ok: false, reason: 'daily-links' };
  const { id, token, expiresAt } = await createInvitation(from.db, invite, from.owner.id);
  await audited(from, 'user.invite', `invitation:${id}`);
  await enqueue({ env: from.env, after: from.ctx }, [invitationEmail(from.origin, invite, senderName(from.owner), token)]);
  return { ok: true, expiresAt };
}

/** Sends a pending invitation again with a new link (the old one stops working); the resending owner now vouches for it. */
export async function resendInvitation(from: LinkSender, id: number): Promise<{ ok: true; email: string; expiresAt: Date } | { ok: false; reason: 'daily-links' | 'not-pending' }> {
  if (!(await claimOwnerLink(from.env, from.owner.id))) return { ok: false, reason: 'daily-links' };
  // The e-mail names the resending owner, and the link works while they are an owner.
  const renewed = await renewInvitation(from.db, id, from.owner.id);
  if (!renewed) return { ok: false, reason: 'not-pending' };
  await audited(from, 'user.invitation-resend', `invitation:${id}`);
  const { invitation, token } = renewed;
  await enqueue({ env: from.env, after: from.ctx }, [invitationEmail(from.origin, invitation, senderName(from.owner), token)]);
  return { ok: true, email: invitation.email, expiresAt: invitation.expiresAt };
}

/** E-mails an active account with an address a link to choose a new password (never a password). */
export async function sendPasswordReset(
  from: LinkSender,
  id: number,
): Promise<{ ok: true; email: string; expiresAt: Date } | { ok: false; reason: 'not-found' | 'deactivated' | 'no-email' | 'daily-links' }> {
  const account = await resetTarget(from.db, id);
  if (!account) return { ok: false, reason: 'not-found' };
  if (account.status !== 'active') return { ok: false, reason: 'deactivated' };
  if (!account.email) return { ok: false, reason: 'no-email' };
  if (!(await claimOwnerLink(from.env, from.owner.id))) return { ok: false, reason: 'daily-links' };
  const { token, expiresAt } = await createPasswordReset(from.db, id, from.owner.id);
  await audited(from, 'user.password-reset-send', `admin-user:${id}`);
  await enqueue({ env: from.env, after: from.ctx }, [passwordResetEmail(from.origin, { ...account, email: account.email }, senderName(from.owner), token)]);
  return { ok: true, email: account.email, expiresAt };
}
