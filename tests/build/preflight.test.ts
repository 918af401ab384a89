// The deploy preflight (scripts/preflight.ts): `npm run deploy` runs it before anything remote is
// written, and it stops with one line on each condition below. Each case runs the script on a
// wrangler.jsonc and migrations of its own in a temporary directory, with a stand-in wrangler that
// plays the account (`secret list`) and hands `d1 execute --local` to the real wrangler, so a
// migration that does not apply really fails on a fresh local D1.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeWrangler } from '../harness/fake-wrangler';
import { PRODUCTION_SECRETS } from '#core/go-live';
import { productionSecrets, requiredSecretNames, siteUrlProblem } from '#core/production-requirements';

const script = fileURLToPath(new URL('../../scripts/preflight.ts', import.meta.url));
const realWrangler = fileURLToPath(new URL('../../node_modules/.bin/wrangler', import.meta.url));
const main = fileURLToPath(new URL('../../worker/index.ts', import.meta.url));

type Config = Record<string, unknown> & { vars?: Record<string, string> };

const goodConfig = (): Config => ({
  name: 'preflight-test',
  main,
  compatibility_date: '2026-11-01',
  d1_databases: [{ binding: 'DB', database_name: 'preflight-test-db', migrations_dir: 'migrations' }],
  kv_namespaces: [{ binding: 'THROTTLE' }, { binding: 'PAGES' }],
  vars: { SITE_URL: 'https://www.firm-site.com', MAIL_FROM: 'no-reply@firm-site.com' },
  env: {
    staging: {
      d1_databases: [{ binding: 'DB', database_name: 'preflight-test-db-staging', migrations_dir: 'migrations' }],
      kv_namespaces: [{ binding: 'THROTTLE' }, { binding: 'PAGES' }],
      vars: { SITE_URL: 'https://preflight-test-staging.firm.workers.dev' },
    },
  },
});

describe('the production requirements (core/production-requirements.ts)', () => {
  it('require JWT_SECRET, and list every secret of .dev.vars.example the preflight names', () => {
    expect(requiredSecretNames).toEqual(['JWT_SECRET']);
    const example = readFileSync(fileURLToPath(new URL('../../.dev.vars.example', import.meta.url)), 'utf8');
    for (const secret of productionSecrets) expect(example, secret.name).toMatch(new RegExp(`^${secret.name}=`, 'm'));
  });

  it('take only a real https origin as SITE_URL', () => {
    expect(siteUrlProblem('https://www.firm-site.com')).toBeNull();
    expect(siteUrlProblem('https://warrendale-cpa.firm.workers.dev')).toBeNull();
    expect(siteUrlProblem(undefined)).toMatch(/not set/);
    expect(siteUrlProblem('')).toMatch(/not set/);
    expect(siteUrlProblem('http://www.firm-site.com')).toMatch(/https/);
    expect(siteUrlProblem('https://www.firm-site.com/home')).toMatch(/origin only/);
    for (const host of ['www.northgatecpa.example', 'example.com', 'www.example.org', 'localhost', 'site.test']) {
      expect(siteUrlProblem(`https://${host}`), host).toMatch(/placeholder/);
    }
  });
});

describe('npm run deploy stops before any remote write (scripts/preflight.ts)', () => {
  let dir = '';

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'preflight-test-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** Writes the project (config, migrations sealed unless `unsealed`) and runs the preflight. */
  function run(options: {
    config?: Config;
    migrations?: Record<string, string>;
    edit?: Record<string, string>;
    unsealed?: string[];
    /** The Worker's secrets as `wrangler secret list` shows them; null: the Worker does not exist. */
    secrets?: string[] | null;
    secretsFile?: string;
    offline?: boolean;
    env?: string;
  }) {
    const migrationsDir = join(dir, 'migrations');
    mkdirSync(migrationsDir, { recursive: true });
    const migrations = options.migrations ?? { '0000_init.sql': 'CREATE TABLE notes (id integer PRIMARY KEY, body text);\n' };
    const seals: string[] = [];
    for (const [name, sql] of Object.entries(migrations)) {
      writeFileSync(join(migrationsDir, name), sql);
      if (!options.unsealed?.includes(name)) seals.push(`${createHash('sha256').update(sql).digest('hex')}  ${name}`);
    }
    writeFileSync(join(migrationsDir, 'shipped.sha256'), `${seals.join('\n')}\n`);
    for (const [name, sql] of Object.entries(options.edit ?? {})) writeFileSync(join(migrationsDir, name), sql);
    const configPath = join(dir, 'wrangler.jsonc');
    writeFileSync(configPath, `// a test config\n${JSON.stringify(options.config ?? goodConfig(), null, 2)}\n`);

    const secrets = options.secrets === undefined ? ['JWT_SECRET', 'ADMIN_USERNAME', 'ADMIN_PASSWORD'] : options.secrets;
    const fake = fakeWrangler(
      dir,
      `if (args[0] === 'secret' && args[1] === 'list') {
  const secrets = ${JSON.stringify(secrets)};
  if (secrets === null) { console.error('✘ [ERROR] A request to the Cloudflare API failed. This Worker does not exist on your account. [code: 10007]'); process.exit(1); }
  console.log(JSON.stringify(secrets.map((name) => ({ name, type: 'secret_text' }))));
  process.exit(0);
}
if (args[0] === 'd1' && args[1] === 'execute' && args.includes('--local')) {
  const real = spawnSync(${JSON.stringify(realWrangler)}, args, { stdio: 'inherit' });
  process.exit(real.status ?? 1);
}`,
    );
    const env: NodeJS.ProcessEnv = { ...process.env, WRANGLER: fake.path, PREFLIGHT_CONFIG: configPath };
    delete env.SECRETS_FILE;
    delete env.CLOUDFLARE_ENV;
    if (options.secretsFile) env.SECRETS_FILE = options.secretsFile;
    if (options.env) env.CLOUDFLARE_ENV = options.env;
    const result = spawnSync(process.execPath, [script, ...(options.offline ? ['--offline'] : [])], { encoding: 'utf8', env });
    const ran = fake.calls();
    const stopLines = result.stderr.split('\n').filter((line) => line.startsWith('Preflight stopped'));
    return { status: result.status, stdout: result.stdout, stderr: result.stderr, stopLines, ran };
  }

  /** Every call the stand-in saw was local or read-only: nothing was written to the account. */
  const nothingRemoteWritten = (ran: string[]) => ran.every((call) => call.startsWith('secret list') || (call.startsWith('d1 execute') && call.includes('--local')));

  it('passes a complete configuration, having only read the account', () => {
    const { status, stdout, ran } = run({});
    expect(status).toBe(0);
    expect(stdout).toContain('Preflight passed.');
    expect(ran.some((call) => call.startsWith('d1 execute DB --local'))).toBe(true);
    expect(ran.some((call) => call.startsWith('secret list'))).toBe(true);
    expect(nothingRemoteWritten(ran)).toBe(true);
  }, 60_000);

  it('stops on a placeholder D1 id', () => {
    const config = goodConfig();
    config.d1_databases = [{ binding: 'DB', database_name: 'x', database_id: '00000000-0000-0000-0000-000000000000', migrations_dir: 'migrations' }];
    const { status, stopLines, ran } = run({ config });
    expect(status).toBe(1);
    expect(stopLines).toEqual([expect.stringMatching(/D1 binding DB has the placeholder database_id "0{8}-/)]);
    expect(ran).toEqual([]);
  });

  it("stops on a placeholder KV id, in an environment's bindings too", () => {
    const config = goodConfig();
    (config.env as { staging: Config }).staging.kv_namespaces = [{ binding: 'THROTTLE' }, { binding: 'PAGES', id: '00000000000000000000000000000001' }];
    const { status, stopLines, ran } = run({ config });
    expect(status).toBe(1);
    expect(stopLines).toEqual([expect.stringMatching(/env\.staging: KV binding PAGES has the placeholder id "0+1"/)]);
    expect(ran).toEqual([]);
  });

  it('stops on a placeholder SITE_URL, and on a missing one', () => {
    const placeholder = goodConfig();
    placeholder.vars!.SITE_URL = 'https://www.northgatecpa.example';
    const first = run({ config: placeholder });
    expect(first.status).toBe(1);
    expect(first.stopLines).toEqual([expect.stringContaining('SITE_URL "https://www.northgatecpa.example" is a placeholder')]);

    const missing = goodConfig();
    delete missing.vars!.SITE_URL;
    const second = run({ config: missing });
    expect(second.status).toBe(1);
    expect(second.stopLines).toEqual([expect.stringContaining('SITE_URL is not set')]);
    expect(second.ran).toEqual([]);
  });

  it("checks the deployed environment's SITE_URL (CLOUDFLARE_ENV=staging)", () => {
    const config = goodConfig();
    (config.env as { staging: Config }).staging.vars = { SITE_URL: 'https://staging.example.com' };
    expect(run({ config }).status).toBe(0);
    const { status, stopLines } = run({ config, env: 'staging' });
    expect(status).toBe(1);
    expect(stopLines).toEqual([expect.stringMatching(/\(environment "staging"\): SITE_URL "https:\/\/staging\.example\.com" is a placeholder/)]);
  }, 60_000);

  it('stops on a shipped migration that was edited, and on one not sealed', () => {
    const edited = run({ edit: { '0000_init.sql': 'CREATE TABLE notes (id integer PRIMARY KEY, body text, extra text);\n' } });
    expect(edited.status).toBe(1);
    expect(edited.stopLines).toEqual([expect.stringContaining('migration 0000_init.sql was edited after it shipped')]);
    expect(edited.ran).toEqual([]);

    const unsealed = run({ migrations: { '0000_init.sql': 'CREATE TABLE a (x);\n', '0001_next.sql': 'CREATE TABLE b (x);\n' }, unsealed: ['0001_next.sql'] });
    expect(unsealed.status).toBe(1);
    expect(unsealed.stopLines).toEqual([expect.stringContaining('migration 0001_next.sql is not sealed')]);
  });

  it('stops on migrations that do not apply to a fresh database', () => {
    const { status, stopLines, ran } = run({ migrations: { '0000_init.sql': 'CREATE TABLE notes (id integer);\n', '0001_again.sql': 'CREATE TABLE notes (id integer);\n' } });
    expect(status).toBe(1);
    expect(stopLines).toEqual([expect.stringContaining('the migrations do not apply to a fresh local D1')]);
    expect(ran.some((call) => call.startsWith('secret list'))).toBe(false);
  }, 60_000);

  it('stops on a missing required secret, naming the command that sets it', () => {
    const { status, stopLines, ran } = run({ secrets: ['ADMIN_USERNAME', 'ADMIN_PASSWORD'] });
    expect(status).toBe(1);
    expect(stopLines).toEqual([expect.stringContaining('the secret JWT_SECRET is not set')]);
    expect(stopLines[0]).toContain('wrangler secret put JWT_SECRET');
    expect(nothingRemoteWritten(ran)).toBe(true);
  }, 60_000);

  it('on a first deploy (no Worker yet) takes the secrets from SECRETS_FILE, and stops without it', () => {
    const without = run({ secrets: null });
    expect(without.status).toBe(1);
    expect(without.stopLines).toEqual([expect.stringContaining('the secret JWT_SECRET is not set')]);

    const file = join(dir, 'first.env');
    writeFileSync(file, 'JWT_SECRET=0123456789abcdef0123456789abcdef\nADMIN_USERNAME=owner\n');
    const withFile = run({ secrets: null, secretsFile: file });
    expect(withFile.status).toBe(0);
    expect(withFile.stdout).toContain('Preflight note: ADMIN_PASSWORD is not set');
  }, 60_000);

  it('stops on TURNSTILE_SECRET without the site key (every form submission would be refused)', () => {
    const { status, stopLines } = run({ secrets: ['JWT_SECRET', 'TURNSTILE_SECRET'] });
    expect(status).toBe(1);
    expect(stopLines).toEqual([expect.stringContaining('TURNSTILE_SECRET is set but "vars".TURNSTILE_SITE_KEY is not')]);
  }, 60_000);

  it('offline (npm run check) never asks the account, and only notes the template placeholder SITE_URL', () => {
    const config = goodConfig();
    config.vars!.SITE_URL = 'https://www.northgatecpa.example';
    const { status, stdout, ran } = run({ config, offline: true });
    expect(status).toBe(0);
    expect(stdout).toContain('Preflight note: SITE_URL "https://www.northgatecpa.example" is a placeholder');
    expect(ran.some((call) => call.startsWith('secret'))).toBe(false);
  }, 60_000);
});

describe('one list of production settings', () => {
  it('the preflight and the go-live checklist name the same secrets (core/production-requirements.ts, core/go-live.ts)', () => {
    const preflight = productionSecrets.filter((s) => s.level !== 'first-sign-in').map((s) => s.name);
    expect([...preflight].sort()).toEqual([...PRODUCTION_SECRETS].sort());
  });
});
