// The local state `npm start` and `npm run dev` share: .dev.vars (the worker's local secrets and
// overrides), the local D1 under .wrangler/state with its migrations applied, the local admin, and
// the banner that tells the developer where the site is, how to sign in and where mail goes (the
// local mailbox, scripts/lib/local-mailbox.ts).
import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isCommonPassword } from '#core/schemas/common-passwords';
import { hashPassword } from '../../worker/services/admin-auth/passwords.ts';
import { applyLocalMigrations, executeLocalSql, projectRoot } from './local-server.ts';

export interface LocalAdmin {
  username: string;
  password: string;
}

/** What `npm start` and `npm run dev` read from .dev.vars besides the admin. */
export interface LocalSettings extends LocalAdmin {
  /** SITE_URL from .dev.vars (e.g. a tunnel's public address); unset: the served address. */
  siteUrl?: string;
  /** MAILCHANNELS_API_KEY is set: real mail goes out instead of into the local mailbox. */
  mailChannels: boolean;
}

/**
 * Where `npm start` keeps its state: the checkout's .dev.vars, .wrangler/state and dist/client, or,
 * when LOCAL_STATE_DIR is set, that directory's .dev.vars, state/ and client/ (the test of
 * `npm start` runs it in a temporary directory, never touching the developer's state).
 */
export function localPaths(env: Record<string, string | undefined> = process.env): { devVars: string; persistTo?: string; assetsDir?: string } {
  const dir = env.LOCAL_STATE_DIR;
  if (!dir) return { devVars: `${projectRoot}.dev.vars` };
  mkdirSync(dir, { recursive: true });
  return { devVars: join(dir, '.dev.vars'), persistTo: join(dir, 'state'), assetsDir: join(dir, 'client') };
}

// Earlier .dev.vars files pinned SITE_URL to http://localhost:8787, which made every e-mailed link
// point there whatever PORT served; the scripts now pass the served address themselves.
const pinnedLocalSiteUrl = /^SITE_URL=[ \t]*"?http:\/\/(localhost|127\.0\.0\.1)(:\d+)?\/?"?[ \t]*(\r?\n|$)/m;

export function parseDevVars(text: string): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const match = /^\s*([A-Z0-9_]+)\s*=\s*"?(.*?)"?\s*$/.exec(line);
    if (match) vars[match[1]] = match[2];
  }
  return vars;
}

/**
 * Creates .dev.vars from .dev.vars.example when missing (a fresh JWT secret and admin password) and
 * returns the local admin's credentials and settings from it.
 */
export function prepareDevVars(devVarsPath = localPaths().devVars): LocalSettings {
  if (!existsSync(devVarsPath)) {
    copyFileSync(`${projectRoot}.dev.vars.example`, devVarsPath);
    const text = readFileSync(devVarsPath, 'utf8')
      .replace(/^JWT_SECRET=.*$/m, `JWT_SECRET=${randomBytes(32).toString('hex')}`)
      .replace(/^ADMIN_PASSWORD=.*$/m, `ADMIN_PASSWORD=${randomBytes(9).toString('base64url')}`);
    writeFileSync(devVarsPath, text);
    console.log('Created .dev.vars with a fresh JWT secret and local admin password.');
  }
  const original = readFileSync(devVarsPath, 'utf8');
  if (pinnedLocalSiteUrl.test(original)) {
    writeFileSync(devVarsPath, original.replace(pinnedLocalSiteUrl, ''));
    console.log('Removed the local SITE_URL from .dev.vars: e-mailed links now use the address actually served (PORT).');
  }
  const vars = parseDevVars(readFileSync(devVarsPath, 'utf8'));
  const username = vars.ADMIN_USERNAME || 'admin';
  const password = vars.ADMIN_PASSWORD;
  // The worker's rules for ADMIN_PASSWORD (worker/services/admin-auth/users.ts bootstrapPasswordProblem).
  if (!password || password.length < 12) throw new Error('.dev.vars: ADMIN_PASSWORD must be at least 12 characters');
  if (isCommonPassword(password)) throw new Error('.dev.vars: ADMIN_PASSWORD is one of the most common passwords; choose another');
  return { username, password, siteUrl: vars.SITE_URL || undefined, mailChannels: Boolean(vars.MAILCHANNELS_API_KEY) };
}

/**
 * Applies the pending migrations to the local D1 (.wrangler/state, or persistTo) and makes sure the
 * local admin exists. wrangler's own output is shown only when a step fails.
 */
export async function prepareLocalDatabase(admin: LocalAdmin, persistTo?: string): Promise<void> {
  console.log('Applying local D1 migrations...');
  applyLocalMigrations(persistTo);
  await seedLocalAdmin(admin, persistTo);
}

/**
 * Makes sure the local admin exists. Never overwrites an existing admin, so a password changed in
 * the panel is kept. The local admin is an owner (docs/product.md §6.8): it can invite the firm's
 * staff. Without `email` it has none, as the first account in production: the back office asks for
 * a name and an e-mail at its first sign-in ("Tell us who you are"); the browser tests' stacks give
 * one, so that only the test of that step meets it (tests/harness/e2e/global-setup.ts).
 */
export async function seedLocalAdmin(admin: LocalAdmin & { email?: string }, persistTo?: string): Promise<void> {
  const hash = await hashPassword(admin.password);
  const quote = (text: string) => `'${text.replace(/'/g, "''")}'`;
  const username = quote(admin.username);
  executeLocalSql(
    `INSERT INTO admin_users (username, password_hash, name, email, role) VALUES (${username}, '${hash}', ${username}, ${admin.email ? quote(admin.email) : 'NULL'}, 'owner') ON CONFLICT(username) DO NOTHING;`,
    persistTo,
  );
}

/**
 * The "running at" banner, printed once: the site, the admin panel, the local admin's credentials,
 * where e-mail goes and whether the local cron fires the scheduled handler.
 */
export function printRunning(url: string, settings: LocalSettings, options: { note?: string; cron: boolean; mailDir: string }): void {
  const mail = settings.mailChannels
    ? 'sent for real through MailChannels (MAILCHANNELS_API_KEY is set in .dev.vars)'
    : `not sent: each one is written as an .eml file into the local mailbox\n                ${options.mailDir}\n                (the admin panel's Email Log lists it without its links' tokens;\n                set MAILCHANNELS_API_KEY in .dev.vars to send real mail)`;
  const cron = options.cron
    ? 'the scheduled handler runs every minute, as on Cloudflare (reminders, newsletter\n                batches, the monthly issue); CRON=off turns it off'
    : 'off (CRON=off): reminders and newsletters wait for a call to /cdn-cgi/local/scheduled';
  console.log(`
  Northgate CPA is running at ${url}${options.note ? `  (${options.note})` : ''}
  Admin panel:  ${url}/admin
  Username:     ${settings.username}
  Password:     ${settings.password}   (from .dev.vars, unless you changed it in the panel)
  E-mail:       ${mail}
  E-mail links: ${settings.siteUrl ?? url}${settings.siteUrl ? '   (SITE_URL in .dev.vars)' : ''}
  Cron:         ${cron}
  Press Ctrl+C to stop.
`);
}
