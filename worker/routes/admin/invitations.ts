import { Hono } from 'hono';
import type { AppEnv } from '../../env';
import { clientNetwork } from '../../middleware/client-network';
import { validate } from '../../middleware/validate';
import { acceptInvitationSchema, completePasswordResetSchema, ENROLMENT_CODE_REQUIRED, invitationTokenSchema, passwordResetTokenSchema } from '#core/schemas/admin-accounts';
import * as z from 'zod/v4';
import {
  acceptInvitation,
  checkInvitation,
  completePasswordReset,
  findPasswordReset,
  INVITATION_MESSAGES,
  INVITATION_STATUS,
  otpauthUri,
  RESET_MESSAGES,
  RESET_STATUS,
  startInvitationTwoFactor,
} from '../../services/admin-auth';

const USERNAME_TAKEN = 'This username is taken. Choose another.';
const CODE_WRONG = 'That code did not match. Check the time on your phone and enter the current code.';

/**
 * Accepting an invitation and using a password-reset link (docs/product.md §6.8): public (the link
 * is the credential), mounted beside sign-in. Checking a link tells the page whom it is for;
 * accepting an invitation creates the account (with its second factor, enrolled on the same page,
 * while the owner requires one), after which the invitee signs in. An unknown link is 404, a used
 * one 409, a withdrawn or expired one 410, each with a message saying what to do.
 */
export const adminInvitationsApi = new Hono<AppEnv>()
  .post('/invitations/check', validate('json', z.object({ token: invitationTokenSchema })), async (c) => {
    const found = await checkInvitation(c.var.db, c.req.valid('json').token);
    if (!found.ok) return c.json({ message: INVITATION_MESSAGES[found.problem], reason: found.problem }, INVITATION_STATUS[found.problem]);
    const { name, email, role, twoFactorRequired } = found;
    return c.json({ name, email, role, twoFactorRequired }, 200);
  })
  // The invitee's authenticator, enrolled before the account exists: proven by the link's token,
  // never later by whoever holds the password.
  .post('/invitations/two-factor', validate('json', z.object({ token: invitationTokenSchema })), async (c) => {
    const started = await startInvitationTwoFactor(c.var.db, c.req.valid('json').token);
    if (!started.ok) return c.json({ message: INVITATION_MESSAGES[started.problem], reason: started.problem }, INVITATION_STATUS[started.problem]);
    return c.json({ secret: started.secret, otpauthUri: otpauthUri(started.secret, started.email) }, 200);
  })
  .post('/invitations/accept', validate('json', acceptInvitationSchema), async (c) => {
    // Under the owner's policy at the moment of acceptance; the new account records its own creation.
    const result = await acceptInvitation(c.env, c.var.db, c.req.valid('json'), clientNetwork(c));
    if (result.ok) {
      return c.json({ message: 'Your account is ready. Sign in with your username and password.', username: result.user.username, recoveryCodes: result.recoveryCodes }, 201);
    }
    switch (result.problem) {
      case 'username-taken':
        return c.json({ message: USERNAME_TAKEN, fields: { username: [USERNAME_TAKEN] } }, 409);
      case 'email-taken':
        return c.json({ message: 'An account with this e-mail address already exists. Sign in with it instead.' }, 409);
      case 'two-factor-required':
        return c.json({ message: 'The firm requires two-factor sign-in: set up your authenticator app on this page first.', fields: { code: [ENROLMENT_CODE_REQUIRED] }, twoFactorRequired: true }, 400);
      case 'code-wrong':
        return c.json({ message: CODE_WRONG, fields: { code: [CODE_WRONG] } }, 400);
      default:
        return c.json({ message: INVITATION_MESSAGES[result.problem], reason: result.problem }, INVITATION_STATUS[result.problem]);
    }
  })
  .post('/password-resets/check', validate('json', z.object({ token: passwordResetTokenSchema })), async (c) => {
    const found = await findPasswordReset(c.var.db, c.req.valid('json').token);
    if (!found.ok) return c.json({ message: RESET_MESSAGES[found.problem], reason: found.problem }, RESET_STATUS[found.problem]);
    return c.json({ username: found.username, name: found.name }, 200);
  })
  .post('/password-resets/complete', validate('json', completePasswordResetSchema), async (c) => {
    const result = await completePasswordReset(c.env, c.var.db, c.req.valid('json'), clientNetwork(c));
    if (!result.ok) return c.json({ message: RESET_MESSAGES[result.problem], reason: result.problem }, RESET_STATUS[result.problem]);
    return c.json({ message: 'Your new password is set, and your account is signed out everywhere. Sign in with it now.', username: result.username }, 200);
  });
