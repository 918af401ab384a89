import * as z from 'zod/v4';
import { ADMIN_LIMITS, adminUserSchema } from './admin';
import { emailField, nameField } from './fields';

// Staff accounts (docs/product.md §6.8): what the owner sends to invite, change and deactivate
// accounts, and what an invitee sends to accept. The users screen's forms use these same schemas.

export const ADMIN_ROLES = ['owner', 'staff'] as const;
export type AdminRole = (typeof ADMIN_ROLES)[number];

/** How long an invitation link works (docs/product.md §6.8). */
export const INVITATION_TTL_HOURS = 72;

/** How long a password-reset link works (docs/product.md §6.8): a working day, and a night. */
export const PASSWORD_RESET_TTL_HOURS = 24;

/**
 * What a name may not hold beyond nameField's one line (no control character, line break or line
 * separator: core/schemas/fields.ts): the bidirectional overrides that make a name read as
 * another. A name goes into e-mail headers ("To: Sam Staff <...>") and onto every screen that lists
 * accounts (issue 48).
 */
const DIRECTION_OVERRIDES = /[\u202A-\u202E\u2066-\u2069]/u;
export const NAME_CONTROL_CHARACTERS = 'Name must not contain line breaks, control characters or direction overrides';

/** A person's name on an account or invitation: trimmed, 1 to 100 characters, one line, no direction override. */
export const accountNameField = () => nameField().refine((name) => !DIRECTION_OVERRIDES.test(name), NAME_CONTROL_CHARACTERS);

const role = z.enum(ADMIN_ROLES, { error: 'Choose owner or staff' });

export const inviteUserSchema = z.object({
  name: accountNameField(),
  email: emailField('Email is required').transform((email) => email.toLowerCase()),
  role,
  canSendNewsletters: z.boolean().default(false),
});

/** What the owner may change of an account: its role and the newsletter permission. */
export const updateUserSchema = z
  .object({ role: role.optional(), canSendNewsletters: z.boolean().optional() })
  .refine((value) => value.role !== undefined || value.canSendNewsletters !== undefined, 'Nothing to change');

/** What the profile route answers when an e-mail address is replaced without the password. */
export const PROFILE_PASSWORD_REQUIRED = 'Enter your current password to change your e-mail address';

/**
 * The signed-in account's own name and e-mail (docs/product.md §6.8 "Tell us who you are"): asked
 * of an account that has none (the first owner, created from ADMIN_USERNAME), editable by anyone
 * for their own account. The same field rules as an invitation's. Replacing an e-mail the account
 * already has also takes the current password (a password-reset link goes to that address, so a
 * stolen session must not be able to redirect it); the first one does not.
 */
export const accountProfileSchema = z.object({
  name: accountNameField(),
  email: emailField('Email is required').transform((email) => email.toLowerCase()),
  currentPassword: z.string().max(ADMIN_LIMITS.password, 'Password is incorrect').optional(),
});

export const securitySettingsSchema = z.object({ requireTwoFactor: z.boolean({ error: 'requireTwoFactor must be true or false' }) });

/** An invitation link's token: 32 random bytes, base64url (worker/services/admin-auth/invitations.ts). */
export const invitationTokenSchema = z.string().trim().min(1, 'This invitation link is incomplete').max(100, 'This invitation link is not valid');

/** A chosen username: ASCII letters, digits and . _ @ - (so its case folds the same in SQLite's lower() as anywhere). */
export const chosenUsernameField = () => adminUserSchema.shape.username.regex(/^[A-Za-z0-9._@-]+$/, 'Use letters, digits and . _ @ - only');

/** A code from the authenticator the invitee is enrolling (required while the owner requires two-factor sign-in). */
export const ENROLMENT_CODE_REQUIRED = 'Enter the 6-digit code from your authenticator app';

/**
 * The invitee picks a username and a password, under the same rules as every admin password, and,
 * while the owner requires two-factor sign-in, sends a code from the authenticator enrolled on the page.
 */
export const acceptInvitationSchema = z.object({
  token: invitationTokenSchema,
  username: chosenUsernameField(),
  password: adminUserSchema.shape.password,
  code: z.string().trim().max(64).optional(),
});

/** A password-reset link's token: 32 random bytes, base64url (worker/services/admin-auth/password-resets.ts). */
export const passwordResetTokenSchema = z.string().trim().min(1, 'This password-reset link is incomplete').max(100, 'This password-reset link is not valid');

/** Choosing a new password through a reset link: the same rules as every admin password. */
export const completePasswordResetSchema = z.object({ token: passwordResetTokenSchema, password: adminUserSchema.shape.password });

/** A pending invitation in the users API's paths (`/users/invitations/:id/...`). */
export const invitationParamSchema = z.object({ id: z.coerce.number({ error: 'Invalid invitation id' }).int('Invalid invitation id').positive('Invalid invitation id') });

export type InviteUser = z.infer<typeof inviteUserSchema>;
export type AcceptInvitation = z.infer<typeof acceptInvitationSchema>;

/** An account in the users API's paths (`/users/:id`). */
export const userParamSchema = z.object({ id: z.coerce.number({ error: 'Invalid user id' }).int('Invalid user id').positive('Invalid user id') });

/** One session of an account (`/users/:id/sessions/:sessionId`, `/account/sessions/:sessionId`). */
export const sessionParamSchema = z.object({ sessionId: z.string().uuid('Invalid session id') });
export const userSessionParamSchema = userParamSchema.extend(sessionParamSchema.shape);
