import { and, eq, notExists, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { adminUsers, revokedSessions } from '../db/schema';
import { isCommonPassword } from '../schemas/common-passwords';
import { MIN_PASSWORD_LENGTH } from '../schemas/admin';
import { hashPassword } from './passwords';

export async function findAdminByUsername(db: Db, username: string) {
  return db.query.adminUsers.findFirst({ where: eq(adminUsers.username, username) });
}

export async function findAdminById(db: Db, id: number) {
  return db.query.adminUsers.findFirst({ where: eq(adminUsers.id, id) });
}

/** The administrator a session token names, unless that token was revoked at sign-out (one query). */
export async function findAdminForSession(db: Db, id: number, jti: string) {
  return db.query.adminUsers.findFirst({
    where: and(eq(adminUsers.id, id), notExists(db.select({ jti: revokedSessions.jti }).from(revokedSessions).where(eq(revokedSessions.jti, jti)))),
  });
}

/** The shortest ADMIN_PASSWORD that may create the first administrator (`npm start` generates 12). */
export const MIN_BOOTSTRAP_PASSWORD_LENGTH = MIN_PASSWORD_LENGTH;

/** The sample values in .dev.vars.example: never anyone's password, whatever their length. */
const PLACEHOLDER_PASSWORDS = new Set(['generated-by-npm-start']);

/**
 * Why ADMIN_PASSWORD must not create the first administrator, or null when it may. The guard that
 * keeps a missing, short, common or sample password from ever becoming a production admin's
 * password: the rules of a changed password (worker/schemas/admin.ts) apply to it too.
 */
export function bootstrapPasswordProblem(password: string | undefined): string | null {
  if (!password) return 'ADMIN_PASSWORD is not set';
  if (PLACEHOLDER_PASSWORDS.has(password.trim().toLowerCase())) return 'ADMIN_PASSWORD is still the placeholder from .dev.vars.example';
  if (password.length < MIN_BOOTSTRAP_PASSWORD_LENGTH) {
    return `ADMIN_PASSWORD is shorter than ${MIN_BOOTSTRAP_PASSWORD_LENGTH} characters`;
  }
  if (isCommonPassword(password)) return 'ADMIN_PASSWORD is one of the most common passwords (or one of them with digits added)';
  return null;
}

/**
 * Makes sure the first administrator exists (from ADMIN_USERNAME / ADMIN_PASSWORD). Never
 * overwrites an existing account, so a password changed in the panel survives restarts.
 */
export async function ensureAdmin(db: Db, username: string, password: string): Promise<boolean> {
  const passwordHash = await hashPassword(password);
  const inserted = await db
    .insert(adminUsers)
    .values({ username, passwordHash })
    .onConflictDoNothing({ target: adminUsers.username })
    .returning({ id: adminUsers.id });
  return inserted.length > 0;
}

/** Sets a new password and bumps the session version, which ends every other session. */
export async function updateAdminPassword(db: Db, id: number, newPassword: string) {
  const passwordHash = await hashPassword(newPassword);
  const [updated] = await db
    .update(adminUsers)
    .set({
      passwordHash,
      sessionVersion: sql`${adminUsers.sessionVersion} + 1`,
      updatedAt: new Date(),
    })
    .where(eq(adminUsers.id, id))
    .returning();
  return updated;
}
