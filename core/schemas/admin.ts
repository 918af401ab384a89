import * as z from 'zod/v4';
import { isCommonPassword } from './common-passwords';

/** Longest username and password accepted anywhere (sign-in, new credentials, password change). */
export const ADMIN_LIMITS = { username: 64, password: 256 } as const;

/** The shortest new admin password (OWASP ASVS 2.1.1), ADMIN_PASSWORD included. */
export const MIN_PASSWORD_LENGTH = 12;
export const PASSWORD_TOO_SHORT = `Password must be at least ${MIN_PASSWORD_LENGTH} characters`;
export const PASSWORD_TOO_COMMON = 'This password is too common and would be guessed early. Choose a longer phrase of unrelated words.';

/**
 * Why a new admin password is refused, or null when it may be used: the one rule for the
 * change-password form, its dialog and the first-admin bootstrap (worker/services/admin-auth/users.ts).
 */
export function newPasswordProblem(password: string): string | null {
  if (password.length < MIN_PASSWORD_LENGTH) return PASSWORD_TOO_SHORT;
  if (isCommonPassword(password)) return PASSWORD_TOO_COMMON;
  return null;
}

/** Admin user schema (docs/product.md §9): the minimums apply to new credentials. */
export const adminUserSchema = z.object({
  username: z.string().trim().min(3, 'Username must be at least 3 characters').max(ADMIN_LIMITS.username),
  password: z
    .string()
    .min(MIN_PASSWORD_LENGTH, PASSWORD_TOO_SHORT)
    .max(ADMIN_LIMITS.password)
    .refine((password) => password.length < MIN_PASSWORD_LENGTH || !isCommonPassword(password), PASSWORD_TOO_COMMON),
});

/** Sign-in only needs both fields; wrong credentials get the same answer whatever their length. */
export const adminLoginSchema = z.object({
  username: z.string().trim().min(1, 'Username is required').max(ADMIN_LIMITS.username),
  password: z.string().min(1, 'Password is required').max(ADMIN_LIMITS.password),
  /** The second factor, once the admin has turned it on: a 6-digit code or a recovery code. */
  code: z.string().trim().max(64).optional(),
});

export const changePasswordSchema = z.object({
  currentPassword: z.string().min(1, 'Please fill in both password fields').max(ADMIN_LIMITS.password),
  newPassword: adminUserSchema.shape.password,
});

/** The admin's current password, asked again before the second factor is set up, turned on or off. */
const currentPassword = z.string({ error: 'Password is required' }).min(1, 'Password is required').max(ADMIN_LIMITS.password);

/** Setting up the second factor (a new pending secret) takes the password. */
export const setupTwoFactorSchema = z.object({ password: currentPassword });

/** Turning the second factor on: the password and a code from the pending secret. */
export const enableTwoFactorSchema = z.object({
  password: currentPassword,
  code: z.string().trim().min(1, 'Enter the 6-digit code from your authenticator app').max(64),
});

/** Turning the second factor off takes the password and a code (or a recovery code). */
export const disableTwoFactorSchema = z.object({
  password: currentPassword,
  code: z.string().trim().min(1, 'Enter a code from the app or a recovery code').max(64),
});

export type AdminLogin = z.infer<typeof adminLoginSchema>;
export type ChangePassword = z.infer<typeof changePasswordSchema>;
