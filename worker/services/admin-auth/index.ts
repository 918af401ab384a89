// The admin-auth domain's door (docs/architecture.md, "Doors and the floor"): everything outside
// worker/services/admin-auth/ imports it from here. Sign-in, sign-out and the password change as
// use cases; the e-mailed links (invitations, password resets); the owner's account management;
// the second factor; the session check the admin guard runs; the permission table; its prunes.

// Signing in and out, the session (sign-in.ts, change-password.ts, session.ts, known-device.ts).
export { signIn, signOut, signedInView, type SignInRequest, type SignInResult } from './sign-in';
export { changePassword, type PasswordChange } from './change-password';
export { checkAdminPassword } from './password-check';
export type { AdminRequest } from './known-device';
export { type CookieToSet, endSessionOf, listSessions, renewSession, sessionCookie, verifySessionToken } from './session';
export { throttledMessage, type LoginRefusal } from './login-throttle';

// Accounts, the security settings and the second factor (accounts.ts, users.ts, totp.ts).
export { deactivateAccount, listAccounts, reactivateAccount, readSecuritySettings, saveSecuritySettings, twoFactorPolicy, updateAccount, updateOwnProfile } from './accounts';
export { consumeSecondFactor, disableTwoFactor, enableTwoFactor, findAdminById, findAdminForSession, hasTwoFactor, startTwoFactorEnrolment } from './users';
export { otpauthUri } from './totp';

// Invitations and password-reset links, and their e-mails (invitations.ts, password-resets.ts, link-use-cases.ts).
export { acceptInvitation, checkInvitation, completePasswordReset } from './link-use-cases';
export {
  claimOwnerLink,
  createInvitation,
  DAILY_LINKS_MESSAGE,
  emailInUse,
  INVITATION_MESSAGES,
  INVITATION_STATUS,
  invitationEmail,
  listPendingInvitations,
  renewInvitation,
  revokeInvitation,
  startInvitationTwoFactor,
} from './invitations';
export { createPasswordReset, findPasswordReset, passwordResetEmail, RESET_MESSAGES, RESET_STATUS, resetTarget } from './password-resets';

// Who may use which admin route (permissions.ts, docs/product.md §6.8).
export { accessFor, DURING_ENROLMENT, mayUse, refusalMessage } from './permissions';

// The cron's housekeeping: sign-in attempt windows and expired sessions (prunes.ts).
export { prunes } from './prunes';
