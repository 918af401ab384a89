// The admin-auth domain's door (docs/architecture.md, "Doors and the floor"): everything outside
// worker/services/admin-auth/ imports it from here. Sign-in, sign-out and the password change as
// use cases; the e-mailed links (invitations, password resets); the owner's account management;
// the second factor; the session check the admin guard runs; the permission table; its prunes.

// Signing in and out, the session and who it is (sign-in.ts, current-admin.ts, session.ts, known-device.ts, request.ts).
export { signIn, signOut, signedInView, type SignInRequest, type SignInResult } from './sign-in';
export type { Acting, AdminRequest } from './request';
export { currentAdminOf } from './current-admin';
export { type CookieToSet, endSessionOf, listSessions, sessionCookie } from './session';
export { throttledMessage, type LoginRefusal } from './login-throttle';

// The signed-in admin's own account and second factor (own-account.ts, second-factor.ts).
export { changePassword, type Me, type PasswordChange, type ProfileChange, updateProfile } from './own-account';
export { setUpTwoFactor, turnOffTwoFactor, turnOnTwoFactor, twoFactorStatus } from './second-factor';

// The owner's accounts and security settings (accounts.ts).
export { deactivateAccount, listAccounts, reactivateAccount, readSecuritySettings, saveSecuritySettings, twoFactorPolicy, updateAccount } from './accounts';

// The e-mailed links: the owner sends them (owner-links.ts, with the e-mails of emails.ts), the
// person opens them (link-use-cases.ts); their records (invitations.ts, password-resets.ts).
export { inviteUser, type LinkSender, resendInvitation, sendPasswordReset } from './owner-links';
export { acceptInvitation, checkInvitation, completePasswordReset } from './link-use-cases';
export { DAILY_LINKS_MESSAGE, INVITATION_MESSAGES, INVITATION_STATUS, listPendingInvitations, revokeInvitation, startInvitationTwoFactor } from './invitations';
export { findPasswordReset, RESET_MESSAGES, RESET_STATUS } from './password-resets';
export { otpauthUri } from './totp';

// Who may use which admin route (permissions.ts, docs/product.md §6.8).
export { accessFor, DURING_ENROLMENT, mayUse, refusalMessage } from './permissions';

// The cron's housekeeping: sign-in attempt windows and expired sessions (prunes.ts).
export { prunes } from './prunes';
