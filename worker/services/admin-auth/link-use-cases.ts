import type { Db } from '../../db/client';
import type { Bindings } from '../../env';
import { recordAudit } from '../audit/audit-log';
import { readSecuritySettings } from './accounts';
import { type Acceptance, createInvitedAccount, findInvitation } from './invitations';
import { replacePasswordByLink } from './password-resets';

// What the e-mailed links do (docs/product.md §6.8): the link is the credential, so these are public;
// each use case records its outcome in the audit trail from `network` (the route's client network).

/** Checks an invitation link: whom it is for, and whether the owner's policy requires a second factor; else why not. */
export async function checkInvitation(db: Db, token: string) {
  const found = await findInvitation(db, token);
  if (!found.ok) return found;
  const { name, email, role } = found.invitation;
  const { requireTwoFactor } = await readSecuritySettings(db);
  return { ok: true as const, name, email, role, twoFactorRequired: requireTwoFactor };
}

/**
 * Accepts an invitation (invitations.ts createInvitedAccount) under the owner's policy as it stands
 * at the moment of acceptance (a policy turned on while the page was open still holds); the new
 * account records its own creation (the invitation named who asked for it) and its second factor.
 */
export async function acceptInvitation(
  env: Pick<Bindings, 'DB'>,
  db: Db,
  acceptance: { token: string; username: string; password: string; code?: string },
  network: string,
): Promise<Acceptance> {
  const { requireTwoFactor } = await readSecuritySettings(db);
  const result = await createInvitedAccount(env.DB, db, acceptance, requireTwoFactor);
  if (result.ok) {
    const actor = { id: result.user.id, username: result.user.username };
    await recordAudit(db, { actor, action: 'user.create', record: `admin-user:${actor.id}`, network });
    if (result.recoveryCodes) await recordAudit(db, { actor, action: 'auth.two-factor-enable', record: `admin-user:${actor.id}`, network });
  }
  return result;
}

/** Sets a new password through a reset link (password-resets.ts replacePasswordByLink), recorded when it took. */
export async function completePasswordReset(env: Pick<Bindings, 'DB'>, db: Db, link: { token: string; password: string }, network: string) {
  const result = await replacePasswordByLink(env.DB, db, link.token, link.password);
  if (result.ok) await recordAudit(db, { actor: { id: result.userId, username: result.username }, action: 'auth.password-reset', record: `admin-user:${result.userId}`, network });
  return result;
}
