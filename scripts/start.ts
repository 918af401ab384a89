// `npm start`: build the SPA, prepare .dev.vars, migrate the local D1, make sure the local admin
// exists, print how to sign in, and serve everything on http://localhost:8787 (wrangler dev --local).
import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { hashPassword } from '../worker/services/passwords.ts';
import { applyLocalMigrations, buildSpa, executeLocalSql, projectRoot, startDevServer } from './lib/local-server.ts';

const devVarsPath = `${projectRoot}.dev.vars`;

function parseDevVars(text: string): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const match = /^\s*([A-Z0-9_]+)\s*=\s*"?(.*?)"?\s*$/.exec(line);
    if (match) vars[match[1]] = match[2];
  }
  return vars;
}

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
if (!password || password.length < 8) throw new Error('.dev.vars: ADMIN_PASSWORD must be at least 8 characters');

console.log('Building the site...');
buildSpa();
console.log('Applying local D1 migrations...');
applyLocalMigrations();
// Never overwrites an existing admin, so a password changed in the panel is kept.
const hash = await hashPassword(password);
executeLocalSql(
  `INSERT INTO admin_users (username, password_hash) VALUES ('${username.replace(/'/g, "''")}', '${hash}') ON CONFLICT(username) DO NOTHING;`,
);

const port = Number(process.env.PORT ?? 8787);
const server = await startDevServer({ port, host: 'localhost', quiet: false });
console.log(`
  Northgate CPA is running at http://localhost:${port}
  Admin panel:  http://localhost:${port}/admin
  Username:     ${username}
  Password:     ${password}   (from .dev.vars, unless you changed it in the panel)
  Press Ctrl+C to stop.
`);
const shutdown = () => server.stop().then(() => process.exit(0));
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
server.process.on('exit', (code) => process.exit(code ?? 0));
