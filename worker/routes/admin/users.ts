import { Hono } from 'hono';
import type { AppEnv } from '../../env';
import { adminRequest } from '../../middleware/admin-cookies';
import { audit } from '../../middleware/audit';
import { validate } from '../../middleware/validate';
import { accountProfileSchema, invitationParamSchema, PROFILE_PASSWORD_REQUIRED, inviteUserSchema, securitySettingsSchema, updateUserSchema, userParamSchema, userSessionParamSchema } from '#core/schemas/admin-accounts';
import {
  checkAdminPassword,
  claimOwnerLink,
  createInvitation,
  createPasswordReset,
  DAILY_LINKS_MESSAGE,
  deactivateAccount,
  emailInUse,
  endSessionOf,
  findAdminById,
  invitationEmail,
  listAccounts,
  listPendingInvitations,
  listSessions,
  passwordResetEmail,
  reactivateAccount,
  readSecuritySettings,
  renewInvitation,
  resetTarget,
  revokeInvitation,
  saveSecuritySettings,
  throttledMessage,
  updateAccount,
  updateOwnProfile,
} from '../../services/admin-auth';
import { sendAfterAnswer } from '../../services/email/send-email';
import { siteOrigin } from '../../services/newsletter/template';

/** A session as the lists show it: "signed in from <device> (<country>) since <createdAt>". */
export const toSession = (row: Awaited<ReturnType<typeof listSessions>>[number], currentJti: string) => ({
  id: row.id,
  device: row.device,
  country: row.country,
  createdAt: row.createdAt.toISOString(),
  expiresAt: row.expiresAt.toISOString(),
  current: row.id === currentJti,
});

/**
 * Accounts, invitations, sessions and the security settings (docs/product.md §6.8): owner-only by
 * the permission table (worker/services/admin-auth/permissions.ts), mounted at /users.
 */
export const adminUsersApi = new Hono<AppEnv>()
  .get('/', async (c) => {
    const db = c.var.db;
    const [users, invitations, settings] = await Promise.all([listAccounts(db), listPendingInvitations(db), readSecuritySettings(db)]);
    return c.json(
      {
        users: users.map((u) => ({ ...u, createdAt: u.createdAt.toISOString() })),
        // An expired one stays listed until withdrawn, so the owner can resend it.
        invitations: invitations.map((i) => ({ ...i, createdAt: i.createdAt.toISOString(), expiresAt: i.expiresAt.toISOString(), expired: i.expiresAt.getTime() <= Date.now() })),
        settings,
      },
      200,
    );
  })
  .post('/invitations', validate('json', inviteUserSchema), async (c) => {
    const invite = c.req.valid('json');
    const db = c.var.db;
    if (await emailInUse(db, invite.email)) return c.json({ message: 'An account with this e-mail address already exists', fields: { email: ['An account with this e-mail address already exists'] } }, 409);
    const inviter = c.get('adminUser');
    if (!(await claimOwnerLink(c.env, inviter.id))) return c.json({ message: DAILY_LINKS_MESSAGE }, 429);
    const { id, token, expiresAt } = await createInvitation(db, invite, inviter.id);
    await audit(c, 'user.invite', `invitation:${id}`);
    // Through the outbox (logged first, then sent after the answer): nothing is lost if the send fails.
    await sendAfterAnswer(c.env, c.executionCtx, [invitationEmail(siteOrigin(c.env, c.req.url), invite, inviter.name || inviter.username, token)]);
    return c.json({ message: `Invitation sent to ${invite.email}`, expiresAt: expiresAt.toISOString() }, 201);
  })
  .post('/invitations/:id/revoke', validate('param', invitationParamSchema), async (c) => {
    const { id } = c.req.valid('param');
    if (!(await revokeInvitation(c.var.db, id))) return c.json({ message: 'This invitation is no longer pending: it was accepted or withdrawn already.' }, 404);
    await audit(c, 'user.invitation-revoke', `invitation:${id}`);
    return c.json({ message: 'Invitation withdrawn; its link no longer works' }, 200);
  })
  .post('/invitations/:id/resend', validate('param', invitationParamSchema), async (c) => {
    const { id } = c.req.valid('param');
    const db = c.var.db;
    const owner = c.get('adminUser');
    if (!(await claimOwnerLink(c.env, owner.id))) return c.json({ message: DAILY_LINKS_MESSAGE }, 429);
    // The resending owner now vouches for it: the e-mail names them, and the link works while they are an owner.
    const renewed = await renewInvitation(db, id, owner.id);
    if (!renewed) return c.json({ message: 'This invitation is no longer pending: it was accepted or withdrawn already.' }, 404);
    await audit(c, 'user.invitation-resend', `invitation:${id}`);
    const { invitation, token } = renewed;
    await sendAfterAnswer(c.env, c.executionCtx, [invitationEmail(siteOrigin(c.env, c.req.url), invitation, owner.name || owner.username, token)]);
    return c.json({ message: `A new link was sent to ${invitation.email}; the old one no longer works`, expiresAt: invitation.expiresAt.toISOString() }, 200);
  })
  .post('/:id/password-reset', validate('param', userParamSchema), async (c) => {
    const { id } = c.req.valid('param');
    const db = c.var.db;
    const account = await resetTarget(db, id);
    if (!account) return c.json({ message: 'User not found' }, 404);
    if (account.status !== 'active') return c.json({ message: 'This account is deactivated: reactivate it first.' }, 409);
    if (!account.email) return c.json({ message: 'This account has no e-mail address to send a link to.' }, 409);
    const owner = c.get('adminUser');
    if (!(await claimOwnerLink(c.env, owner.id))) return c.json({ message: DAILY_LINKS_MESSAGE }, 429);
    const { token, expiresAt } = await createPasswordReset(db, id, owner.id);
    await audit(c, 'user.password-reset-send', `admin-user:${id}`);
    await sendAfterAnswer(c.env, c.executionCtx, [passwordResetEmail(siteOrigin(c.env, c.req.url), { ...account, email: account.email }, owner.name || owner.username, token)]);
    return c.json({ message: `A password-reset link was sent to ${account.email}`, expiresAt: expiresAt.toISOString() }, 200);
  })
  .patch('/:id', validate('param', userParamSchema), validate('json', updateUserSchema), async (c) => {
    const { id } = c.req.valid('param');
    const change = c.req.valid('json');
    const result = await updateAccount(c.var.db, id, change);
    if (!result.ok) return c.json({ message: result.message }, result.status);
    await audit(c, change.role !== undefined ? 'user.role-change' : 'user.update', `admin-user:${id}`);
    return c.json({ message: 'User updated' }, 200);
  })
  .post('/:id/deactivate', validate('param', userParamSchema), async (c) => {
    const result = await deactivateAccount(c.var.db, c.req.valid('param').id);
    if (!result.ok) return c.json({ message: result.message }, result.status);
    await audit(c, 'user.deactivate', `admin-user:${c.req.valid('param').id}`);
    return c.json({ message: 'User deactivated; all their sessions have ended' }, 200);
  })
  .post('/:id/reactivate', validate('param', userParamSchema), async (c) => {
    const result = await reactivateAccount(c.var.db, c.req.valid('param').id);
    if (!result.ok) return c.json({ message: result.message }, result.status);
    await audit(c, 'user.reactivate', `admin-user:${c.req.valid('param').id}`);
    return c.json({ message: 'User reactivated' }, 200);
  })
  .get('/:id/sessions', validate('param', userParamSchema), async (c) => {
    const sessions = await listSessions(c.var.db, c.req.valid('param').id);
    return c.json(sessions.map((s) => toSession(s, c.get('adminSession').jti)), 200);
  })
  .delete('/:id/sessions/:sessionId', validate('param', userSessionParamSchema), async (c) => {
    const { id, sessionId } = c.req.valid('param');
    if (!(await endSessionOf(c.var.db, id, sessionId))) return c.json({ message: 'Session not found; it may have ended already' }, 404);
    await audit(c, 'user.session-end', `admin-user:${id}`);
    return c.json({ message: 'Signed out of that session' }, 200);
  });

/** The owner's security settings (docs/product.md §6.8); read with the users list. */
export const adminSecuritySettingsApi = new Hono<AppEnv>().put('/security-settings', validate('json', securitySettingsSchema), async (c) => {
  const settings = c.req.valid('json');
  await saveSecuritySettings(c.var.db, settings);
  await audit(c, 'settings.security', null);
  return c.json({ settings }, 200);
});

/** The signed-in account's own sessions and its name and e-mail (any role), mounted at /account. */
export const adminAccountApi = new Hono<AppEnv>()
  // "Tell us who you are" (docs/product.md §6.8): the first owner has neither; anyone may correct their own.
  .patch('/profile', validate('json', accountProfileSchema), async (c) => {
    const { currentPassword, ...profile } = c.req.valid('json');
    const me = c.get('adminUser');
    const db = c.var.db;
    const account = await findAdminById(db, me.id);
    if (!account) return c.json({ message: 'Unauthorized' }, 401);
    // Replacing an address (not giving the first one) takes the password, checked as a sign-in attempt.
    if (account.email && account.email !== profile.email) {
      if (!currentPassword) return c.json({ message: PROFILE_PASSWORD_REQUIRED, fields: { currentPassword: [PROFILE_PASSWORD_REQUIRED] } }, 400);
      const check = await checkAdminPassword(c.env, adminRequest(c), account, currentPassword);
      if (check === 'wrong') return c.json({ message: 'Password is incorrect', fields: { currentPassword: ['Password is incorrect'] } }, 400);
      if (check !== 'right') return c.json({ message: throttledMessage(check) }, 429, { 'Retry-After': String(check.retryAfterSeconds) });
    }
    if ((await updateOwnProfile(db, me.id, profile)) === 'email-taken') {
      const message = 'Another account already uses this e-mail address';
      return c.json({ message, fields: { email: [message] } }, 409);
    }
    await audit(c, 'user.profile-update', `admin-user:${me.id}`);
    return c.json({ name: profile.name, email: profile.email }, 200);
  })
  .get('/sessions', async (c) => {
    const sessions = await listSessions(c.var.db, c.get('adminUser').id);
    return c.json(sessions.map((s) => toSession(s, c.get('adminSession').jti)), 200);
  })
  .delete('/sessions/:sessionId', validate('param', userSessionParamSchema.pick({ sessionId: true })), async (c) => {
    if (!(await endSessionOf(c.var.db, c.get('adminUser').id, c.req.valid('param').sessionId))) {
      return c.json({ message: 'Session not found; it may have ended already' }, 404);
    }
    await audit(c, 'user.session-end', `admin-user:${c.get('adminUser').id}`);
    return c.json({ message: 'Signed out of that session' }, 200);
  });
