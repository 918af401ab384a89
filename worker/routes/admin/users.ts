import { Hono } from 'hono';
import { getDb } from '../../db/client';
import type { AppEnv } from '../../env';
import { validate } from '../../middleware/validate';
import { inviteUserSchema, securitySettingsSchema, updateUserSchema, userParamSchema, userSessionParamSchema } from '#core/schemas/admin-accounts';
import { deactivateAccount, listAccounts, reactivateAccount, readSecuritySettings, saveSecuritySettings, updateAccount } from '../../services/admin-auth/accounts';
import { createInvitation, emailInUse, invitationEmail } from '../../services/admin-auth/invitations';
import { endSessionOf, listSessions } from '../../services/admin-auth/session';
import { sendAfterAnswer } from '../../services/email/send-email';
import { siteOrigin } from '../../services/newsletter/template';
import { audit } from '../../services/audit/audit-log';

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
    const db = getDb(c.env.DB);
    const [users, settings] = await Promise.all([listAccounts(db), readSecuritySettings(db)]);
    return c.json({ users: users.map((u) => ({ ...u, createdAt: u.createdAt.toISOString() })), settings }, 200);
  })
  .post('/invitations', validate('json', inviteUserSchema), async (c) => {
    const invite = c.req.valid('json');
    const db = getDb(c.env.DB);
    if (await emailInUse(db, invite.email)) return c.json({ message: 'An account with this e-mail address already exists', fields: { email: ['An account with this e-mail address already exists'] } }, 409);
    const inviter = c.get('adminUser');
    const { id, token, expiresAt } = await createInvitation(db, invite, inviter.id);
    await audit(c, 'user.invite', `invitation:${id}`);
    // Through the outbox (logged first, then sent after the answer): nothing is lost if the send fails.
    await sendAfterAnswer(c.env, c.executionCtx, [invitationEmail(siteOrigin(c.env, c.req.url), invite, inviter.name || inviter.username, token)]);
    return c.json({ message: `Invitation sent to ${invite.email}`, expiresAt: expiresAt.toISOString() }, 201);
  })
  .patch('/:id', validate('param', userParamSchema), validate('json', updateUserSchema), async (c) => {
    const { id } = c.req.valid('param');
    const change = c.req.valid('json');
    const result = await updateAccount(getDb(c.env.DB), id, change);
    if (!result.ok) return c.json({ message: result.message }, result.status);
    await audit(c, change.role !== undefined ? 'user.role-change' : 'user.update', `admin-user:${id}`);
    return c.json({ message: 'User updated' }, 200);
  })
  .post('/:id/deactivate', validate('param', userParamSchema), async (c) => {
    const result = await deactivateAccount(getDb(c.env.DB), c.req.valid('param').id);
    if (!result.ok) return c.json({ message: result.message }, result.status);
    await audit(c, 'user.deactivate', `admin-user:${c.req.valid('param').id}`);
    return c.json({ message: 'User deactivated; all their sessions have ended' }, 200);
  })
  .post('/:id/reactivate', validate('param', userParamSchema), async (c) => {
    const result = await reactivateAccount(getDb(c.env.DB), c.req.valid('param').id);
    if (!result.ok) return c.json({ message: result.message }, result.status);
    await audit(c, 'user.reactivate', `admin-user:${c.req.valid('param').id}`);
    return c.json({ message: 'User reactivated' }, 200);
  })
  .get('/:id/sessions', validate('param', userParamSchema), async (c) => {
    const sessions = await listSessions(getDb(c.env.DB), c.req.valid('param').id);
    return c.json(sessions.map((s) => toSession(s, c.get('adminSession').jti)), 200);
  })
  .delete('/:id/sessions/:sessionId', validate('param', userSessionParamSchema), async (c) => {
    const { id, sessionId } = c.req.valid('param');
    if (!(await endSessionOf(getDb(c.env.DB), id, sessionId))) return c.json({ message: 'Session not found; it may have ended already' }, 404);
    await audit(c, 'user.session-end', `admin-user:${id}`);
    return c.json({ message: 'Signed out of that session' }, 200);
  });

/** The owner's security settings (docs/product.md §6.8); read with the users list. */
export const adminSecuritySettingsApi = new Hono<AppEnv>().put('/security-settings', validate('json', securitySettingsSchema), async (c) => {
  const settings = c.req.valid('json');
  await saveSecuritySettings(getDb(c.env.DB), settings);
  await audit(c, 'settings.security', null);
  return c.json({ settings }, 200);
});

/** The signed-in account's own sessions (any role), mounted at /account. */
export const adminAccountApi = new Hono<AppEnv>()
  .get('/sessions', async (c) => {
    const sessions = await listSessions(getDb(c.env.DB), c.get('adminUser').id);
    return c.json(sessions.map((s) => toSession(s, c.get('adminSession').jti)), 200);
  })
  .delete('/sessions/:sessionId', validate('param', userSessionParamSchema.pick({ sessionId: true })), async (c) => {
    if (!(await endSessionOf(getDb(c.env.DB), c.get('adminUser').id, c.req.valid('param').sessionId))) {
      return c.json({ message: 'Session not found; it may have ended already' }, 404);
    }
    await audit(c, 'user.session-end', `admin-user:${c.get('adminUser').id}`);
    return c.json({ message: 'Signed out of that session' }, 200);
  });
