import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { adminRecoveryCodes, adminSecuritySettings, adminSessions, adminUsers } from '../../db/schema';
import { isCommonPassword } from '#core/schemas/common-passwords';
import { MIN_PASSWORD_LENGTH } from '#core/schemas/admin';
import { hashPassword } from './passwords';
import { generateRecoveryCodes, generateTotpSecret, hashRecoveryCode, looksLikeTotpCode, verifyTotp } from './totp';

/**
 * The account of a username, whatever its case (`Admin` signs in as `admin`): one name is one
 * account, and the unique index on lower(username) both guarantees it and serves this lookup.
 */
export async function findAdminByUsername(db: Db, username: string) {
  return db.query.adminUsers.findFirst({ where: sql`lower(${adminUsers.username}) = lower(${username})` });
}

export async function findAdminById(db: Db, id: number) {
  return db.query.adminUsers.findFirst({ where: eq(adminUsers.id, id) });
}

/** Who an account is, as the back office shows and decides on it: the columns every account read selects. */
export const accountColumns = {
  id: adminUsers.id,
  username: adminUsers.username,
  name: adminUsers.name,
  email: adminUsers.email,
  role: adminUsers.role,
  canSendNewsletters: adminUsers.canSendNewsletters,
};

/**
 * The account a session token names, with what requireAdmin decides on, in ONE query: the token's
 * session row must still exist (signed out, signed out from the sessions list or deactivated: gone)
 * and the account be active; the owner's two-factor policy rides along. Undefined otherwise.
 */
export async function findAdminForSession(db: Db, id: number, jti: string) {
  return db
    .select({
      ...accountColumns,
      sessionVersion: adminUsers.sessionVersion,
      hasTwoFactor: sql<number>`${adminUsers.totpSecret} is not null`.mapWith(Boolean),
      sessionExpiresAt: adminSessions.expiresAt,
      requireTwoFactor: sql<number | null>`(select ${adminSecuritySettings.requireTwoFactor} from ${adminSecuritySettings} where ${adminSecuritySettings.id} = 1)`.mapWith(Boolean),
    })
    .from(adminSessions)
    .innerJoin(adminUsers, eq(adminUsers.id, adminSessions.adminUserId))
    .where(and(eq(adminSessions.id, jti), eq(adminUsers.id, id), eq(adminUsers.status, 'active')))
    .get();
}

/** True once any administrator exists: from then on the ADMIN_* secrets never create one. */
export async function anyAdminExists(db: Db): Promise<boolean> {
  return (await db.query.adminUsers.findFirst({ columns: { id: true } })) !== undefined;
}

/** The shortest ADMIN_PASSWORD that may create the first administrator (`npm start` generates 12). */
export const MIN_BOOTSTRAP_PASSWORD_LENGTH = MIN_PASSWORD_LENGTH;

/** The sample values in .dev.vars.example: never anyone's password, whatever their length. */
const PLACEHOLDER_PASSWORDS = new Set(['generated-by-npm-start']);

/**
 * Why ADMIN_PASSWORD must not create the first administrator, or null when it may. The guard that
 * keeps a missing, short, common or sample password from ever becoming a production admin's
 * password: the rules of a changed password (core/schemas/admin.ts) apply to it too.
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
 * Makes sure the first administrator exists (from ADMIN_USERNAME / ADMIN_PASSWORD), as an owner. Never
 * overwrites an existing account, so a password changed in the panel survives restarts.
 */
export async function ensureAdmin(db: Db, username: string, password: string): Promise<boolean> {
  const passwordHash = await hashPassword(password);
  const inserted = await db
    .insert(adminUsers)
    .values({ username, passwordHash, name: username, role: 'owner' })
    // Any unique index: the exact name's, or its lower case's (a concurrent first sign-in).
    .onConflictDoNothing()
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

// The optional second factor (docs/product.md §6.1, worker/services/admin-auth/totp.ts).

type AdminUser = typeof adminUsers.$inferSelect;

/** Whether sign-in asks this administrator for a code. */
export const hasTwoFactor = (user: Pick<AdminUser, 'totpSecret'>) => user.totpSecret !== null;

/**
 * Starts (or restarts) enrolment: a new secret waits as pending until a code from it arrives;
 * sign-in does not ask for one yet. Refused (null) while the second factor is on: turning it off
 * takes the password and a code (disableTwoFactor).
 */
export async function startTwoFactorEnrolment(db: Db, id: number): Promise<string | null> {
  const secret = generateTotpSecret();
  const [row] = await db
    .update(adminUsers)
    .set({ totpPendingSecret: secret, updatedAt: new Date() })
    .where(and(eq(adminUsers.id, id), isNull(adminUsers.totpSecret)))
    .returning({ id: adminUsers.id });
  return row ? secret : null;
}

/**
 * Turns the second factor on when `code` is valid for the pending secret: the secret becomes the
 * active one (the code's step counts as used), ten new recovery codes replace any old ones, and the
 * session version goes up, which ends every other session (a session opened before the factor was
 * required). Returns those codes (shown once; only their hashes are kept) and the new session
 * version for the enabling browser's cookie, or null.
 */
export async function enableTwoFactor(db: Db, id: number, code: string, now: number): Promise<{ recoveryCodes: string[]; sessionVersion: number } | null> {
  const user = await findAdminById(db, id);
  const pending = user?.totpPendingSecret;
  if (!user || !pending || hasTwoFactor(user)) return null;
  const step = await verifyTotp(pending, code, now);
  if (step === null) return null;
  const codes = generateRecoveryCodes();
  const hashes = await Promise.all(codes.map(hashRecoveryCode));
  // Conditional on the pending secret still being the one checked: of two parallel enables, one
  // turns it on and only that one writes recovery codes.
  const activated = await db
    .update(adminUsers)
    .set({ totpSecret: pending, totpPendingSecret: null, totpLastStep: step, sessionVersion: sql`${adminUsers.sessionVersion} + 1`, updatedAt: new Date() })
    .where(and(eq(adminUsers.id, id), eq(adminUsers.totpPendingSecret, pending), isNull(adminUsers.totpSecret)))
    .returning({ id: adminUsers.id, sessionVersion: adminUsers.sessionVersion });
  if (activated.length === 0) return null;
  await db.batch([
    db.delete(adminRecoveryCodes).where(eq(adminRecoveryCodes.adminUserId, id)),
    db.insert(adminRecoveryCodes).values(hashes.map((codeHash) => ({ codeHash, adminUserId: id }))),
  ]);
  return { recoveryCodes: codes, sessionVersion: activated[0].sessionVersion };
}

/**
 * Checks a second-factor code at sign-in (or before turning it off): a TOTP code from the active
 * secret whose step is later than the last one used, or an unused recovery code. Either is
 * consumed in the same statement that accepts it, so two parallel requests with one code cannot
 * both pass.
 */
export async function consumeSecondFactor(db: Db, user: Pick<AdminUser, 'id' | 'totpSecret' | 'totpLastStep'>, code: string, now: number): Promise<boolean> {
  const secret = user.totpSecret;
  if (!secret || !code.trim()) return false;
  if (looksLikeTotpCode(code)) {
    const step = await verifyTotp(secret, code, now, user.totpLastStep);
    if (step === null) return false;
    const claimed = await db
      .update(adminUsers)
      .set({ totpLastStep: step })
      .where(
        and(
          eq(adminUsers.id, user.id),
          eq(adminUsers.totpSecret, secret),
          or(isNull(adminUsers.totpLastStep), lt(adminUsers.totpLastStep, step)),
        ),
      )
      .returning({ id: adminUsers.id });
    return claimed.length > 0;
  }
  const burnt = await db
    .delete(adminRecoveryCodes)
    .where(and(eq(adminRecoveryCodes.codeHash, await hashRecoveryCode(code)), eq(adminRecoveryCodes.adminUserId, user.id)))
    .returning({ codeHash: adminRecoveryCodes.codeHash });
  return burnt.length > 0;
}

/** Turns the second factor off: secret, pending secret, last step and recovery codes go. */
export async function disableTwoFactor(db: Db, id: number): Promise<void> {
  await db.batch([
    db
      .update(adminUsers)
      .set({ totpSecret: null, totpPendingSecret: null, totpLastStep: null, updatedAt: new Date() })
      .where(eq(adminUsers.id, id)),
    db.delete(adminRecoveryCodes).where(eq(adminRecoveryCodes.adminUserId, id)),
  ]);
}
