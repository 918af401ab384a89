import { type Context, Hono } from 'hono';
import type { AppEnv } from '../../env';
import { adminRequest } from '../../middleware/admin-cookies';
import { audit } from '../../middleware/audit';
import { clientNetwork } from '../../middleware/client-network';
import { validate } from '../../middleware/validate';
import { accountProfileSchema, invitationParamSchema, PROFILE_PASSWORD_REQUIRED, inviteUserSchema, securitySettingsSchema, updateUserSchema, userParamSchema, userSessionParamSchema } from '#core/schemas/admin-accounts';
import {
  DAILY_LINKS_MESSAGE,
  deactivateAccount,
  endSessionOf,
  inviteUser,
  type LinkSender,
  listAccounts,
  listPendingInvitations,
  listSessions,
  reactivateAccount,
  readSecuritySettings,
  resendInvitation,
  revokeInvitation,
  saveSecuritySettings,
  sendPasswordReset,
  throttledMessage,
  updateAccount,
  updateProfile,
} from '../../services/admin-auth';
import { siteOrigin } from '../../services/platform/site-origin';

/** A session as the lists show it: "signed in from <device> (<country>) since <createdAt>". */
export const toSession = (row: Awaited<ReturnType<typeof listSessions>>[number], currentJti: string) => ({
  id: row.id,
  device: row.device,
  country: row.country,
  createdAt: row.createdAt.toISOString(),
  expiresAt: row.expiresAt.toISOString(),
  current: row.id === currentJti,
});

/** How this owner's links leave (services/admin-auth/owner-links.ts): the owner, the site's origin, the request's bindings and waitUntil. */
const linkSender = (c: Context<AppEnv>): LinkSender => ({
  env: c.env,
  ctx: c.executionCtx,
  db: c.var.db,
  owner: { ...c.var.adminUser, network: clientNetwork(c) },
  origin: siteOrigin(c.env, c.req.url),
});
const NOT_PENDING = 'This invitation is no longer pending: it was accepted or withdrawn already.';

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
    const result = await inviteUser(linkSender(c), invite);
    if (result.ok) return c.json({ message: `Invitation sent to ${invite.email}`, expiresAt: result.expiresAt.toISOString() }, 201);
    if (result.reason === 'daily-links') return c.json({ message: DAILY_LINKS_MESSAGE }, 429);
    return c.json({ message: 'An account with this e-mail address already exists', fields: { email: ['An account with this e-mail address already exists'] } }, 409);
  })
  .post('/invitations/:id/revoke', validate('param', invitationParamSchema), async (c) => {
    const { id } = c.req.valid('param');
    if (!(await revokeInvitation(c.var.db, id))) return c.json({ message: NOT_PENDING }, 404);
    await audit(c, 'user.invitation-revoke', `invitation:${id}`);
    return c.json({ message: 'Invitation withdrawn; its link no longer works' }, 200);
  })
  .post('/invitations/:id/resend', validate('param', invitationParamSchema), async (c) => {
    const result = await resendInvitation(linkSender(c), c.req.valid('param').id);
    if (result.ok) return c.json({ message: `A new link was sent to ${result.email}; the old one no longer works`, expiresAt: result.expiresAt.toISOString() }, 200);
    if (result.reason === 'daily-links') return c.json({ message: DAILY_LINKS_MESSAGE }, 429);
    return c.json({ message: NOT_PENDING }, 404);
  })
  .post('/:id/password-reset', validate('param', userParamSchema), async (c) => {
    const result = await sendPasswordReset(linkSender(c), c.req.valid('param').id);
    if (result.ok) return c.json({ message: `A password-reset link was sent to ${result.email}`, expiresAt: result.expiresAt.toISOString() }, 200);
    switch (result.reason) {
      case 'not-found':
        return c.json({ message: 'User not found' }, 404);
      case 'deactivated':
        return c.json({ message: 'This account is deactivated: reactivate it first.' }, 409);
      case 'no-email':
        return c.json({ message: 'This account has no e-mail address to send a link to.' }, 409);
      case 'daily-links':
        return c.json({ message: DAILY_LINKS_MESSAGE }, 429);
    }
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
    const change = c.req.valid('json');
    // Replacing an address (not giving the first one) takes the password, checked as a sign-in attempt.
    const result = await updateProfile(c.env, c.var.db, adminRequest(c), c.var.adminUser, change);
    if (result.ok) return c.json({ name: change.name, email: change.email }, 200);
    switch (result.reason) {
      case 'no-account':
        return c.json({ message: 'Unauthorized' }, 401);
      case 'password-required':
        return c.json({ message: PROFILE_PASSWORD_REQUIRED, fields: { currentPassword: [PROFILE_PASSWORD_REQUIRED] } }, 400);
      case 'wrong':
        return c.json({ message: 'Password is incorrect', fields: { currentPassword: ['Password is incorrect'] } }, 400);
      case 'throttled':
        return c.json({ message: throttledMessage(result.refusal) }, 429, { 'Retry-After': String(result.refusal.retryAfterSeconds) });
      case 'email-taken':
        return c.json({ message: 'Another account already uses this e-mail address', fields: { email: ['Another account already uses this e-mail address'] } }, 409);
    }
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
