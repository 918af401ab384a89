import { INVITATION_TTL_HOURS, PASSWORD_RESET_TTL_HOURS, type InviteUser } from '#core/schemas/admin-accounts';
import type { OutgoingEmail } from '../../mail-types';
import { escapeHtml } from '../platform/html';

// The admin-auth domain's e-mails (docs/product.md §6.8): the invitation and the password-reset
// link, each to one person, sent through the outbox by the use cases of owner-links.ts.

/** The invitation e-mail: who invited, the role, the link and until when it works. */
export function invitationEmail(origin: string, invite: Pick<InviteUser, 'name' | 'email' | 'role'>, invitedByName: string, token: string): OutgoingEmail {
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

/** The e-mail with the link: who asked for it, until when it works, and what to do if unexpected. */
export function passwordResetEmail(origin: string, account: { name: string; username: string; email: string }, requestedByName: string, token: string): OutgoingEmail {
  const link = `${origin}/admin/reset-password?token=${encodeURIComponent(token)}`;
  const name = account.name || account.username;
  const text = [
    `Hello ${name},`,
    '',
    `${requestedByName} sent you a link to choose a new password for your back-office account (${account.username}).`,
    `The link works once, for ${PASSWORD_RESET_TTL_HOURS} hours, and signs your account out everywhere:`,
    link,
    '',
    'If you did not expect this e-mail, tell the firm’s owner; your current password keeps working until the link is used.',
  ].join('\n');
  const html = `<p>Hello ${escapeHtml(name)},</p><p>${escapeHtml(requestedByName)} sent you a link to choose a new password for your back-office account (${escapeHtml(account.username)}).</p><p><a href="${escapeHtml(link)}">Choose a new password</a> (the link works once, for ${PASSWORD_RESET_TTL_HOURS} hours, and signs your account out everywhere).</p><p>If you did not expect this e-mail, tell the firm’s owner; your current password keeps working until the link is used.</p>`;
  return { to: account.email, toName: name, subject: 'Choose a new password for the back office', text, html, kind: 'admin-password-reset' };
}
