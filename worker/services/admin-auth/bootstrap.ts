import type { Db } from '../../db/client';
import type { Bindings } from '../../env';
import { anyAdminExists, bootstrapPasswordProblem, ensureAdmin, MIN_BOOTSTRAP_PASSWORD_LENGTH } from './users';

/** Constant-time equality of two secrets (compares their SHA-256 digests). */
async function sameSecret(a: string, b: string): Promise<boolean> {
  const digest = async (text: string) => new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  const [x, y] = await Promise.all([digest(a), digest(b)]);
  let difference = 0;
  for (let i = 0; i < x.length; i++) difference |= x[i] ^ y[i];
  return difference === 0;
}

/**
 * Creates the first administrator from the ADMIN_USERNAME / ADMIN_PASSWORD secrets, on a sign-in
 * that presents exactly those credentials while no administrator exists at all (a failed attempt
 * writes nothing; once one admin exists the secrets are never read again). Refused, with the
 * reason logged and never the password, when ADMIN_PASSWORD is unset, too short or a placeholder:
 * that sign-in then fails like any other. True when it created the account (or a concurrent
 * sign-in just did).
 */
export async function bootstrapFirstAdmin(env: Pick<Bindings, 'ADMIN_USERNAME' | 'ADMIN_PASSWORD'>, db: Db, username: string, password: string): Promise<boolean> {
  const { ADMIN_USERNAME: adminUsername, ADMIN_PASSWORD: adminPassword } = env;
  if (!adminUsername || username !== adminUsername) return false;
  if (await anyAdminExists(db)) return false;
  const problem = bootstrapPasswordProblem(adminPassword);
  if (problem !== null) {
    console.error(
      `[admin] First administrator not created: ${problem}. Set one of at least ${MIN_BOOTSTRAP_PASSWORD_LENGTH} random characters with \`wrangler secret put ADMIN_PASSWORD\`, then sign in again.`,
    );
    return false;
  }
  if (!adminPassword || !(await sameSecret(password, adminPassword))) return false;
  await ensureAdmin(db, adminUsername, adminPassword);
  return true;
}
