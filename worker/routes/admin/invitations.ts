import { Hono } from 'hono';
import { getDb } from '../../db/client';
import type { AppEnv } from '../../env';
import { validate } from '../../middleware/validate';
import { acceptInvitationSchema, invitationTokenSchema } from '#core/schemas/admin-accounts';
import { z } from 'zod';
import { acceptInvitation, findInvitation, INVITATION_MESSAGES } from '../../services/admin-auth/invitations';
import { recordAudit } from '../../services/audit/audit-log';
import { clientNetwork } from '../../services/limits/client-ip';

const USERNAME_TAKEN = 'This username is taken. Choose another.';

/**
 * Accepting an invitation (docs/product.md §6.8): public (the link is the credential), mounted
 * beside sign-in. Checking a link tells the page whom it invites; accepting it creates the account,
 * after which the invitee signs in (and sets up two-factor sign-in, optional unless the owner requires it).
 * An unknown link is 404, a used one 409, an expired one 410, each with a message saying what to do.
 */
export const adminInvitationsApi = new Hono<AppEnv>()
  .post('/invitations/check', validate('json', z.object({ token: invitationTokenSchema })), async (c) => {
    const found = await findInvitation(getDb(c.env.DB), c.req.valid('json').token);
    if (!found.ok) return c.json({ message: INVITATION_MESSAGES[found.problem], reason: found.problem }, found.problem === 'unknown' ? 404 : found.problem === 'used' ? 409 : 410);
    const { name, email, role } = found.invitation;
    return c.json({ name, email, role }, 200);
  })
  .post('/invitations/accept', validate('json', acceptInvitationSchema), async (c) => {
    const { token, username, password } = c.req.valid('json');
    const result = await acceptInvitation(c.env.DB, getDb(c.env.DB), token, username, password);
    if (result.ok) {
      // The new account records its own creation (the invitation named who asked for it).
      const { id, username: created } = result.user;
      await recordAudit(getDb(c.env.DB), { actor: { id, username: created }, action: 'user.create', record: `admin-user:${id}`, network: clientNetwork(c) });
      return c.json({ message: 'Your account is ready. Sign in with your username and password.', username: result.user.username }, 201);
    }
    switch (result.problem) {
      case 'username-taken':
        return c.json({ message: USERNAME_TAKEN, fields: { username: [USERNAME_TAKEN] } }, 409);
      case 'email-taken':
        return c.json({ message: 'An account with this e-mail address already exists. Sign in with it instead.' }, 409);
      case 'unknown':
        return c.json({ message: INVITATION_MESSAGES.unknown, reason: result.problem }, 404);
      case 'used':
        return c.json({ message: INVITATION_MESSAGES.used, reason: result.problem }, 409);
      case 'expired':
        return c.json({ message: INVITATION_MESSAGES.expired, reason: result.problem }, 410);
    }
  });
