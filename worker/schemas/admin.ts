import { z } from 'zod';

/** Longest username and password accepted anywhere (sign-in, new credentials, password change). */
export const ADMIN_LIMITS = { username: 64, password: 256 } as const;

/** Admin user schema (docs/product.md §9): the minimums apply to new credentials. */
export const adminUserSchema = z.object({
  username: z.string().trim().min(3, 'Username must be at least 3 characters').max(ADMIN_LIMITS.username),
  password: z.string().min(8, 'Password must be at least 8 characters').max(ADMIN_LIMITS.password),
});

/** Sign-in only needs both fields; wrong credentials get the same answer whatever their length. */
export const adminLoginSchema = z.object({
  username: z.string().trim().min(1, 'Username is required').max(ADMIN_LIMITS.username),
  password: z.string().min(1, 'Password is required').max(ADMIN_LIMITS.password),
});

export const changePasswordSchema = z.object({
  currentPassword: z.string().min(1, 'Please fill in both password fields').max(ADMIN_LIMITS.password),
  newPassword: adminUserSchema.shape.password,
});

export type AdminLogin = z.infer<typeof adminLoginSchema>;
export type ChangePassword = z.infer<typeof changePasswordSchema>;
