import { z } from 'zod';
import { adminUserSchema } from './admin';
import { emailField, nameField } from './fields';

// Staff accounts (docs/product.md §6.8): what the owner sends to invite, change and deactivate
// accounts, and what an invitee sends to accept. The users screen's forms use these same schemas.

export const ADMIN_ROLES = ['owner', 'staff'] as const;
export type AdminRole = (typeof ADMIN_ROLES)[number];

/** How long an invitation link works (docs/product.md §6.8). */
export const INVITATION_TTL_HOURS = 72;

const role = z.enum(ADMIN_ROLES, { error: 'Choose owner or staff' });

export const inviteUserSchema = z.object({
  name: nameField(),
  email: emailField('Email is required').transform((email) => email.toLowerCase()),
  role,
  canSendNewsletters: z.boolean().default(false),
});

/** What the owner may change of an account: its role and the newsletter permission. */
export const updateUserSchema = z
  .object({ role: role.optional(), canSendNewsletters: z.boolean().optional() })
  .refine((value) => value.role !== undefined || value.canSendNewsletters !== undefined, 'Nothing to change');

export const securitySettingsSchema = z.object({ requireTwoFactor: z.boolean({ error: 'requireTwoFactor must be true or false' }) });

/** An invitation link's token: 32 random bytes, base64url (worker/services/admin-auth/invitations.ts). */
export const invitationTokenSchema = z.string().trim().min(1, 'This invitation link is incomplete').max(100, 'This invitation link is not valid');

/** The invitee picks a username and a password, under the same rules as every admin password. */
export const acceptInvitationSchema = z.object({
  token: invitationTokenSchema,
  username: adminUserSchema.shape.username.regex(/^[A-Za-z0-9._@-]+$/, 'Use letters, digits and . _ @ - only'),
  password: adminUserSchema.shape.password,
});

export type InviteUser = z.infer<typeof inviteUserSchema>;
export type AcceptInvitation = z.infer<typeof acceptInvitationSchema>;

/** An account in the users API's paths (`/users/:id`). */
export const userParamSchema = z.object({ id: z.coerce.number({ error: 'Invalid user id' }).int('Invalid user id').positive('Invalid user id') });

/** One session of an account (`/users/:id/sessions/:sessionId`, `/account/sessions/:sessionId`). */
export const sessionParamSchema = z.object({ sessionId: z.string().uuid('Invalid session id') });
export const userSessionParamSchema = userParamSchema.extend(sessionParamSchema.shape);
