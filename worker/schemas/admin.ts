import { z } from 'zod';

/** Admin user schema (docs/product.md §9): the minimums apply to new credentials. */
export const adminUserSchema = z.object({
  username: z.string().trim().min(3, 'Username must be at least 3 characters').max(64),
  password: z.string().min(8, 'Password must be at least 8 characters').max(256),
});

/** Sign-in only needs both fields; wrong credentials get the same answer whatever their length. */
export const adminLoginSchema = z.object({
  username: z.string().trim().min(1, 'Username is required').max(64),
  password: z.string().min(1, 'Password is required').max(256),
});

export const changePasswordSchema = z.object({
  currentPassword: z.string().min(1, 'Please fill in both password fields').max(256),
  newPassword: adminUserSchema.shape.password,
});

export type AdminLogin = z.infer<typeof adminLoginSchema>;
export type ChangePassword = z.infer<typeof changePasswordSchema>;
