import { and, asc, count, eq, isNull, ne, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { adminInvitations, adminSecuritySettings, adminSessions, adminUsers } from '../../db/schema';
import type { AdminRole } from '#core/schemas/admin-accounts';
import { accountColumns } from './users';

// The owner's side of accounts (docs/product.md §6.8): the list, role and newsletter permission,
// deactivation, and the security settings. "The last active owner can never be removed or
// demoted" holds under concurrency: each change that could take away an owner is ONE conditional
// UPDATE that counts the other active owners in the same statement.

/** Every account, owners first, then by name: what the users screen lists. */
export async function listAccounts(db: Db) {
  return db
    .select({
      ...accountColumns,
      status: adminUsers.status,
      twoFactor: sql<number>`${adminUsers.totpSecret} is not null`.mapWith(Boolean),
      createdAt: adminUsers.createdAt,
    })
    .from(adminUsers)
    .orderBy(asc(adminUsers.role), asc(adminUsers.name), asc(adminUsers.id));
}

/** True while another active owner than `id` exists (SQL, for the conditional UPDATEs below). */
const anotherActiveOwner = (id: number) =>
  sql`exists (select 1 from ${adminUsers} as others where others.role = 'owner' and others.status = 'active' and others.id <> ${id})`;

export type AccountChange = { ok: true } | { ok: false; status: 404 | 409; message: string };

export const LAST_OWNER = 'This is the last active owner: make another account an owner first.';

/** Why an UPDATE that matched nothing did not apply: the account is not there, or it is the last owner. */
async function accountRefusal(db: Db, id: number): Promise<AccountChange> {
  const exists = await db.query.adminUsers.findFirst({ columns: { id: true }, where: eq(adminUsers.id, id) });
  return exists ? { ok: false, status: 409, message: LAST_OWNER } : { ok: false, status: 404, message: 'User not found' };
}

/**
 * Withdraws the pending invitations an account sent, in the caller's batch, when (after the
 * statement before it) the account holds `state`: an invitation is the owner's word, and it goes
 * with the owner (docs/product.md §6.8). A refused demotion or deactivation leaves them.
 */
const revokeInvitationsOf = (db: Db, id: number, state: SQL) =>
  db
    .update(adminInvitations)
    .set({ revokedAt: new Date() })
    .where(and(eq(adminInvitations.invitedBy, id), isNull(adminInvitations.acceptedAt), isNull(adminInvitations.revokedAt), sql`exists (select 1 from ${adminUsers} where ${adminUsers.id} = ${id} and ${state})`));

/**
 * Changes an account's role and/or newsletter permission; demoting the last active owner is refused
 * (409). A demotion withdraws the account's pending invitations in the same batch.
 */
export async function updateAccount(db: Db, id: number, change: { role?: AdminRole; canSendNewsletters?: boolean }): Promise<AccountChange> {
  const demotion = change.role === 'staff';
  const update = db
    .update(adminUsers)
    .set({ ...change, updatedAt: new Date() })
    .where(and(eq(adminUsers.id, id), demotion ? sql`(${adminUsers.role} <> 'owner' or ${anotherActiveOwner(id)})` : undefined))
    .returning({ id: adminUsers.id });
  const [updated] = demotion ? await db.batch([update, revokeInvitationsOf(db, id, sql`${adminUsers.role} = 'staff'`)]) : [await update];
  return updated.length > 0 ? { ok: true } : accountRefusal(db, id);
}

/**
 * Deactivates an account and ends all its sessions and withdraws its pending invitations at once
 * (one batch): its cookies are refused from the next request, its links no longer work. The last
 * active owner cannot be deactivated (409).
 */
export async function deactivateAccount(db: Db, id: number): Promise<AccountChange> {
  const deactivated = sql`${adminUsers.status} = 'deactivated'`;
  const [updated] = await db.batch([
    db
      .update(adminUsers)
      .set({ status: 'deactivated', updatedAt: new Date() })
      .where(and(eq(adminUsers.id, id), sql`(${adminUsers.role} <> 'owner' or ${anotherActiveOwner(id)})`))
      .returning({ id: adminUsers.id }),
    // Runs in the same transaction; when the UPDATE refused, the account's status is unchanged
    // and its sessions are only ended if it was already deactivated (it had none left).
    db
      .delete(adminSessions)
      .where(and(eq(adminSessions.adminUserId, id), sql`exists (select 1 from ${adminUsers} where ${adminUsers.id} = ${id} and ${deactivated})`)),
    revokeInvitationsOf(db, id, deactivated),
  ]);
  return updated.length > 0 ? { ok: true } : accountRefusal(db, id);
}

/** Lets a deactivated account sign in again (it starts without sessions). */
export async function reactivateAccount(db: Db, id: number): Promise<AccountChange> {
  const updated = await db
    .update(adminUsers)
    .set({ status: 'active', updatedAt: new Date() })
    .where(and(eq(adminUsers.id, id), ne(adminUsers.status, 'active')))
    .returning({ id: adminUsers.id });
  if (updated.length > 0) return { ok: true };
  const exists = await db.query.adminUsers.findFirst({ columns: { id: true }, where: eq(adminUsers.id, id) });
  return exists ? { ok: true } : { ok: false, status: 404, message: 'User not found' };
}

/** The security settings (no row yet: the defaults). */
export async function readSecuritySettings(db: Db): Promise<{ requireTwoFactor: boolean }> {
  const row = await db.query.adminSecuritySettings.findFirst({ where: eq(adminSecuritySettings.id, 1) });
  return { requireTwoFactor: row?.requireTwoFactor ?? false };
}

/**
 * The owner's two-factor policy and how far the owners follow it, for the go-live checklist
 * (docs/product.md §6.10): whether it is required, how many active owners, how many have a second factor.
 */
export async function twoFactorPolicy(db: Db): Promise<{ required: boolean; owners: number; ownersWithTwoFactor: number }> {
  const [{ requireTwoFactor }, [owners]] = await Promise.all([
    readSecuritySettings(db),
    db
      .select({ all: count(), withCode: count(adminUsers.totpSecret) })
      .from(adminUsers)
      .where(and(eq(adminUsers.role, 'owner'), eq(adminUsers.status, 'active'))),
  ]);
  return { required: requireTwoFactor, owners: owners?.all ?? 0, ownersWithTwoFactor: owners?.withCode ?? 0 };
}

export async function saveSecuritySettings(db: Db, settings: { requireTwoFactor: boolean }): Promise<void> {
  await db
    .insert(adminSecuritySettings)
    .values({ id: 1, ...settings, updatedAt: new Date() })
    .onConflictDoUpdate({ target: adminSecuritySettings.id, set: { ...settings, updatedAt: new Date() } });
}

/**
 * The account's own name and e-mail (PATCH /api/admin/account/profile). 'email-taken' when another
 * account has that address (it is how invitations and password resets reach a person, so unique:
 * admin_users_email_uq); the unique index decides a race between two saves.
 */
export async function updateOwnProfile(db: Db, id: number, profile: { name: string; email: string }): Promise<'saved' | 'email-taken'> {
  const other = await db.query.adminUsers.findFirst({ columns: { id: true }, where: and(eq(adminUsers.email, profile.email), ne(adminUsers.id, id)) });
  if (other) return 'email-taken';
  try {
    await db.update(adminUsers).set({ name: profile.name, email: profile.email, updatedAt: new Date() }).where(eq(adminUsers.id, id));
  } catch (error) {
    if (/UNIQUE constraint failed/i.test(String((error as Error)?.message ?? error))) return 'email-taken';
    throw error;
  }
  return 'saved';
}
