// The deploy preflight: what `npm run deploy` checks before anything remote is written (before the
// remote migrations of scripts/deploy.ts and before `wrangler deploy`). It stops at the first
// problem with one line that says what and how to fix it, exit code 1:
//   - a placeholder resource id left in wrangler.jsonc (an id of zeros, any environment): with it a
//     deploy would migrate one database and then fail on the namespace, leaving migrated data and
//     old code; without ids the first deploy provisions the resources and links them;
//   - SITE_URL unset, not an https origin, or a placeholder host (core/production-requirements.ts);
//   - a migration that would not apply: one edited or unsealed (migrations/shipped.sha256,
//     docs/architecture.md "Migrations"), or the migrations failing on a fresh local D1 (their SQL
//     run by `wrangler d1 execute --local` in a temporary directory);
//   - a required secret missing on the Worker (`wrangler secret list`) and not in SECRETS_FILE
//     (the file `wrangler deploy --secrets-file` uploads with the version, scripts/deploy.ts).
// `--offline` (run by `npm run check`) skips what needs the Cloudflare account (the secrets) and
// only notes a placeholder SITE_URL, which the repository as committed carries.
// CLOUDFLARE_ENV=staging checks the staging environment (wrangler.jsonc "env.staging").
// The tests point WRANGLER at a stand-in and PREFLIGHT_CONFIG at another wrangler.jsonc.
//
//   node scripts/preflight.ts [--offline]
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { productionSecrets, requiredSecretNames, siteUrlProblem } from '#core/production-requirements';
import { migrationNames } from './lib/remote-migrations.ts';
import { readRawWranglerConfig, readWranglerConfig, wranglerConfigPath } from './lib/wrangler-config.ts';

const projectRoot = fileURLToPath(new URL('..', import.meta.url));
const wrangler = process.env.WRANGLER || `${projectRoot}node_modules/.bin/wrangler`;
const configPath = process.env.PREFLIGHT_CONFIG ? resolve(process.env.PREFLIGHT_CONFIG) : wranglerConfigPath;
const offline = process.argv.includes('--offline');
const envName = process.env.CLOUDFLARE_ENV || undefined;
const where = envName ? ` (environment "${envName}")` : '';

function stop(problem: string): never {
  console.error(`Preflight stopped the deploy${where}: ${problem}`);
  process.exit(1);
}

/** An id that stands for "fill me in": all zeros, maybe with a last digit (0000…0001). */
const placeholderId = (id: unknown) => typeof id === 'string' && /^[0-]*[0-9]$/.test(id) && /^[0-]+/.test(id);

interface RawBindings {
  d1_databases?: { binding: string; database_id?: string }[];
  kv_namespaces?: { binding: string; id?: string }[];
  r2_buckets?: { binding: string; bucket_name?: string }[];
}

// 1. Placeholder ids, in the top level and in every environment.
const raw = readRawWranglerConfig(configPath) as RawBindings & { env?: Record<string, RawBindings> };
for (const [scope, section] of [['top level', raw], ...Object.entries(raw.env ?? {}).map(([name, s]) => [`env.${name}`, s] as const)] as const) {
  for (const db of section.d1_databases ?? []) {
    if (placeholderId(db.database_id)) stop(`wrangler.jsonc ${scope}: D1 binding ${db.binding} has the placeholder database_id "${db.database_id}"; delete the line (the first deploy creates the database and links it) or put the real id.`);
  }
  for (const kv of section.kv_namespaces ?? []) {
    if (placeholderId(kv.id)) stop(`wrangler.jsonc ${scope}: KV binding ${kv.binding} has the placeholder id "${kv.id}"; delete the line (the first deploy creates the namespace and links it) or put the real id.`);
  }
}

// 2. SITE_URL of the environment being deployed.
const config = readWranglerConfig(envName, configPath);
const siteUrl = siteUrlProblem(config.vars.SITE_URL);
// Offline (`npm run check`, on the repository as committed) a placeholder is only noted: the
// template's own SITE_URL is one until the firm sets its address.
if (siteUrl && offline && / is a placeholder$/.test(siteUrl)) console.log(`Preflight note: ${siteUrl}; \`npm run deploy\` stops until it is the real address.`);
else if (siteUrl) stop(`${siteUrl}; set "vars".SITE_URL in wrangler.jsonc to the address visitors use (README, "SITE_URL: the workers.dev address first").`);

// 3. The migrations: sealed and unchanged, and they apply to a fresh database.
const d1 = config.d1_databases.find((db: { binding: string; database_name?: string; migrations_dir?: string }) => db.binding === 'DB');
if (!d1) stop('wrangler.jsonc has no D1 binding named DB.');
const migrationsDir = resolve(dirname(configPath), d1.migrations_dir ?? 'migrations');
const sealFile = join(migrationsDir, 'shipped.sha256');
if (!existsSync(sealFile)) stop(`${sealFile} is missing: the shipped migrations cannot be checked.`);
const sealed = new Map(
  readFileSync(sealFile, 'utf8')
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [hash, name] = line.split(/\s+\*?/);
      return [name, hash] as const;
    }),
);
for (const name of migrationNames(readdirSync(migrationsDir))) {
  const hash = sealed.get(name);
  if (!hash) stop(`migration ${name} is not sealed in migrations/shipped.sha256; once it is final: cd migrations && sha256sum ${name} >> shipped.sha256 (docs/architecture.md, "Migrations").`);
  if (createHash('sha256').update(readFileSync(join(migrationsDir, name))).digest('hex') !== hash) {
    stop(`migration ${name} was edited after it shipped (migrations/shipped.sha256 no longer matches); put the change in a new migration instead.`);
  }
}
// Every migration's SQL, in order, on a fresh local D1 in a temporary directory, in one
// `wrangler d1 execute` (what `d1 migrations apply` runs, without a workerd start per migration:
// seconds instead of most of a minute; scripts/lib/local-server.ts migrateFreshDatabase).
const fresh = mkdtempSync(join(tmpdir(), 'preflight-d1-'));
try {
  const sqlFile = join(fresh, 'all.sql');
  writeFileSync(sqlFile, migrationNames(readdirSync(migrationsDir)).map((name) => readFileSync(join(migrationsDir, name), 'utf8')).join('\n'));
  const apply = spawnSync(wrangler, ['d1', 'execute', 'DB', '--local', '--persist-to', join(fresh, 'state'), '--config', configPath, '--file', sqlFile], {
    cwd: projectRoot,
    encoding: 'utf8',
    env: { ...process.env, CI: '1' },
  });
  if (apply.status !== 0) {
    const reason = `${apply.stdout ?? ''}\n${apply.stderr ?? ''}`.split('\n').find((line) => /error|✘|failed/i.test(line))?.trim();
    stop(`the migrations do not apply to a fresh local D1 (wrangler exited ${apply.status ?? apply.signal}${reason ? `: ${reason}` : ''}); run \`npx wrangler d1 migrations apply DB --local\` to see which.`);
  }
} finally {
  rmSync(fresh, { recursive: true, force: true });
}

// 4. The secrets, on the Worker or in the file uploaded with this deploy.
if (!offline) {
  const fromFile = new Set<string>();
  const secretsFile = process.env.SECRETS_FILE;
  if (secretsFile) {
    if (!existsSync(secretsFile)) stop(`SECRETS_FILE ${secretsFile} does not exist.`);
    const text = readFileSync(secretsFile, 'utf8');
    if (text.trimStart().startsWith('{')) {
      for (const [name, value] of Object.entries(JSON.parse(text) as Record<string, unknown>)) if (value) fromFile.add(name);
    } else {
      for (const match of text.matchAll(/^\s*(?:export\s+)?([A-Za-z0-9_]+)\s*=\s*(\S.*)$/gm)) fromFile.add(match[1]);
    }
  }
  const list = spawnSync(wrangler, ['secret', 'list', '--format', 'json', '--config', configPath], { cwd: projectRoot, encoding: 'utf8', env: process.env });
  const output = `${list.stdout ?? ''}\n${list.stderr ?? ''}`;
  let onWorker: Set<string>;
  if (list.status === 0) {
    try {
      const json = list.stdout.slice(list.stdout.indexOf('['));
      onWorker = new Set((JSON.parse(json) as { name: string }[]).map((secret) => secret.name));
    } catch {
      stop(`could not read \`wrangler secret list\`: ${list.stdout.trim().split('\n')[0] ?? '(no output)'}`);
    }
  } else if (/10007|does not exist|not found/i.test(output)) {
    // The first deploy: the Worker does not exist yet, so it has no secrets. They go up with the
    // first version from SECRETS_FILE (never `wrangler secret put` first: on a Worker that does not
    // exist it creates a placeholder Worker without asking when its input is piped).
    onWorker = new Set();
  } else {
    stop(`\`wrangler secret list\` failed (exit ${list.status ?? list.signal}): ${output.trim().split('\n').find(Boolean) ?? 'no output'}; is wrangler logged in (npx wrangler login) or CLOUDFLARE_API_TOKEN set?`);
  }
  const has = (name: string) => onWorker.has(name) || fromFile.has(name);
  for (const name of requiredSecretNames) {
    if (!has(name)) {
      const secret = productionSecrets.find((s) => s.name === name)!;
      stop(`the secret ${name} is not set (without it ${secret.without}); ${secret.fix}, or on a first deploy put it in a file and run SECRETS_FILE=<file> npm run deploy.`);
    }
  }
  if (has('TURNSTILE_SECRET') && !config.vars.TURNSTILE_SITE_KEY) {
    stop('the secret TURNSTILE_SECRET is set but "vars".TURNSTILE_SITE_KEY is not, so every form submission would be refused; add the site key to wrangler.jsonc or delete the secret.');
  }
  for (const secret of productionSecrets) {
    if (secret.level !== 'required' && !has(secret.name)) console.log(`Preflight note: ${secret.name} is not set (${secret.without}).`);
  }
}

console.log(`Preflight passed${where}${offline ? ' (offline: the secrets were not checked)' : ''}.`);
