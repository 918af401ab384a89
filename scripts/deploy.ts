// `npm run deploy` after the preflight (scripts/preflight.ts) and the build: the D1 database created
// if this is the first deploy, the remote D1 migrations, then `wrangler deploy`, and nothing is
// deployed unless every migration in migrations/ is applied on the remote database (README,
// "Deploying to Cloudflare"). Answering "no" at wrangler's migration prompt, or a migration that
// fails, stops here with exit code 1: code that needs the new schema never meets the old one.
// CLOUDFLARE_ENV=staging (npm run deploy:staging) reaches every wrangler call below: the staging
// Worker and its own database. SECRETS_FILE goes up with the version (`--secrets-file`).
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { appliedMigrationNames, unappliedMigrations } from './lib/remote-migrations.ts';
import { readWranglerConfig } from './lib/wrangler-config.ts';

const projectRoot = fileURLToPath(new URL('..', import.meta.url));
// The tests point WRANGLER at a stand-in that plays the operator's answers; deploys use the project's own.
const wrangler = process.env.WRANGLER || `${projectRoot}node_modules/.bin/wrangler`;
// CLOUDFLARE_ENV set, even empty, says which environment is meant: empty is the top level
// (production), without wrangler's warning that several environments are defined.
const env = { ...process.env, CLOUDFLARE_ENV: process.env.CLOUDFLARE_ENV ?? '', PATH: `${projectRoot}node_modules/.bin:${process.env.PATH ?? ''}` };

function stop(reason: string): never {
  console.error(`\nDeploy stopped: ${reason}\nNothing was deployed: the worker keeps the version it had, if any.`);
  process.exit(1);
}

// 0. The database. wrangler.jsonc names it without an id; `wrangler deploy` would provision it, but
// the migrations come first, so a first deploy creates it here (the deploy then links it by name).
const database = readWranglerConfig().d1_databases.find((db: { binding: string; database_name?: string; database_id?: string }) => db.binding === 'DB');
const databaseName = database?.database_name;
if (!databaseName) stop('wrangler.jsonc has no database_name for the DB binding.');
// A database named by its id (an install set up before the ids were dropped) exists already.
if (!database.database_id) {
  const list = spawnSync(wrangler, ['d1', 'list', '--json'], { cwd: projectRoot, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8', env });
  if (list.status !== 0) stop(`could not list the account's D1 databases (wrangler exited ${list.status ?? list.signal}).`);
  let databases: { name: string }[];
  try {
    databases = JSON.parse(list.stdout.slice(list.stdout.indexOf('['))) as { name: string }[];
  } catch {
    stop('could not read the list of D1 databases (`wrangler d1 list --json`).');
  }
  if (!databases.some((db) => db.name === databaseName)) {
    console.log(`First deploy: creating the D1 database ${databaseName} (Eastern North America, near the firm).`);
    const create = spawnSync(wrangler, ['d1', 'create', databaseName, '--location', 'enam'], { cwd: projectRoot, stdio: 'inherit', env });
    if (create.status !== 0) stop(`could not create the D1 database ${databaseName} (wrangler exited ${create.status ?? create.signal}).`);
  }
}

// 1. Apply: wrangler lists what is pending and asks before it changes the live database.
const apply = spawnSync(wrangler, ['d1', 'migrations', 'apply', 'DB', '--remote'], { cwd: projectRoot, stdio: 'inherit', env });
if (apply.status !== 0) stop(`the remote migrations failed (wrangler exited ${apply.status ?? apply.signal}).`);

// 2. Check: what the remote database has recorded, whatever wrangler's exit code said.
const query = spawnSync(wrangler, ['d1', 'execute', 'DB', '--remote', '--json', '--command', 'SELECT name FROM d1_migrations ORDER BY id'], {
  cwd: projectRoot,
  stdio: ['ignore', 'pipe', 'inherit'],
  encoding: 'utf8',
  env,
});
if (query.status !== 0) stop(`could not read the remote migrations table (wrangler exited ${query.status ?? query.signal}).`);
let pending: string[];
try {
  pending = unappliedMigrations(readdirSync(`${projectRoot}migrations`), appliedMigrationNames(query.stdout));
} catch (error) {
  stop(`could not read the remote migrations table: ${error instanceof Error ? error.message : String(error)}.`);
}
if (pending.length > 0) {
  stop(
    `${pending.length} migration(s) not applied on the remote database: ${pending.join(', ')}.\n` +
      'They were declined at the prompt or failed. Run `npm run deploy` again and answer "y", or fix the migration first.',
  );
}

// 3. Deploy the code that needs that schema.
// A first deploy also creates the KV namespaces ("<worker>-throttle", "<worker>-pages") and links them.
const secretsFile = process.env.SECRETS_FILE;
const deploy = spawnSync(wrangler, ['deploy', ...(secretsFile ? ['--secrets-file', secretsFile] : [])], { cwd: projectRoot, stdio: 'inherit', env });
process.exit(deploy.status ?? 1);
