// The local state `npm start` and `npm run dev` share: .dev.vars (the worker's local secrets and
// overrides), the local D1 under .wrangler/state with its migrations applied, the local admin, and
// the banner that tells the developer where the site is and how to sign in.
import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { isCommonPassword } from '../../worker/schemas/common-passwords.ts';
import { hashPassword } from '../../worker/services/passwords.ts';
import { applyLocalMigrations, executeLocalSql, projectRoot } from './local-server.ts';

const devVarsPath = `${projectRoot}.dev.vars`;

export interface LocalAdmin {
  username: string;
  password: string;
}

function parseDevVars(text: string): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const match = /^\s*([A-Z0-9_]+)\s*=\s*"?(.*?)"?\s*$/.exec(line);
    if (match) vars[match[1]] = match[2];
  }
  return vars;
}

/**
 * Creates .dev.vars from .dev.vars.example when missing (a fresh JWT secret and admin password) and
 * returns the local admin's credentials from it.
 */
export function prepareDevVars(): LocalAdmin {
  if (!existsSync(devVarsPath)) {
    copyFileSync(`${projectRoot}.dev.vars.example`, devVarsPath);
    const text = readFileSync(devVarsPath, 'utf8')
      .replace(/^JWT_SECRET=.*$/m, `JWT_SECRET=${randomBytes(32).toString('hex')}`)
      .replace(/^ADMIN_PASSWORD=.*$/m, `ADMIN_PASSWORD=${randomBytes(9).toString('base64url')}`);
    writeFileSync(devVarsPath, text);
    console.log('Created .dev.vars with a fresh JWT secret and local admin password.');
  }
  const vars = parseDevVars(readFileSync(devVarsPath, 'utf8'));
  const username = vars.ADMIN_USERNAME || 'admin';
  const password = vars.ADMIN_PASSWORD;
  // The worker's rules for ADMIN_PASSWORD (worker/services/admin-users.ts bootstrapPasswordProblem).
  if (!password || password.length < 12) throw new Error('.dev.vars: ADMIN_PASSWORD must be at least 12 characters');
  if (isCommonPassword(password)) throw new Error('.dev.vars: ADMIN_PASSWORD is one of the most common passwords; choose another');
  return { username, password };
}

/** Applies the pending migrations to the local D1 (.wrangler/state) and makes sure the local admin exists. */
export async function prepareLocalDatabase(admin: LocalAdmin): Promise<void> {
  console.log('Applying local D1 migrations...');
  applyLocalMigrations();
  // Never overwrites an existing admin, so a password changed in the panel is kept.
  const hash = await hashPassword(admin.password);
  executeLocalSql(
    `INSERT INTO admin_users (username, password_hash) VALUES ('${admin.username.replace(/'/g, "''")}', '${hash}') ON CONFLICT(username) DO NOTHING;`,
  );
}

/** The "running at" banner: the site, the admin panel and the local admin's credentials. */
export function printRunning(url: string, admin: LocalAdmin, note?: string): void {
  console.log(`
  Northgate CPA is running at ${url}${note ? `  (${note})` : ''}
  Admin panel:  ${url}/admin
  Username:     ${admin.username}
  Password:     ${admin.password}   (from .dev.vars, unless you changed it in the panel)
  Press Ctrl+C to stop.
`);
}
