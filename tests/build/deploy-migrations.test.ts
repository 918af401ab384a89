// `npm run deploy` (scripts/deploy.ts, after the build): the remote migrations, then `wrangler
// deploy` only when every migration in migrations/ is recorded on the remote D1. wrangler's own
// `d1 migrations apply` exits 0 when the operator answers "no", so the script checks the table.
// The decision logic is tested on its own, and the script end to end against a stand-in wrangler.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeWrangler } from '../harness/fake-wrangler';
import { appliedMigrationNames, migrationNames, unappliedMigrations } from '../../scripts/lib/remote-migrations';

const script = fileURLToPath(new URL('../../scripts/deploy.ts', import.meta.url));
const localMigrations = migrationNames(readdirSync(fileURLToPath(new URL('../../migrations', import.meta.url))));

/** What `wrangler d1 execute --json` prints for SELECT name FROM d1_migrations. */
const executeOutput = (names: string[]) => JSON.stringify([{ results: names.map((name) => ({ name })), success: true, meta: { duration: 1 } }], null, 2);

describe('the remote-migration decision', () => {
  it('reads the applied names from wrangler --json output', () => {
    expect(appliedMigrationNames(executeOutput(['0000_init.sql', '0001_a.sql']))).toEqual(['0000_init.sql', '0001_a.sql']);
    expect(appliedMigrationNames(`some banner\n${executeOutput([])}`)).toEqual([]);
  });

  it('refuses output it cannot read or a failed query', () => {
    expect(() => appliedMigrationNames('')).toThrow(/no JSON/);
    expect(() => appliedMigrationNames('[not json')).toThrow(/not JSON/);
    expect(() => appliedMigrationNames(JSON.stringify([{ results: [], success: false }]))).toThrow(/did not succeed/);
    expect(() => appliedMigrationNames(JSON.stringify({ results: [] }))).toThrow();
  });

  it('lists the local migrations the remote has not recorded, in order, ignoring other files', () => {
    const local = ['0001_b.sql', 'meta', '0000_a.sql', '0002_c.sql', 'README.md'];
    expect(unappliedMigrations(local, ['0000_a.sql'])).toEqual(['0001_b.sql', '0002_c.sql']);
    expect(unappliedMigrations(local, ['0000_a.sql', '0001_b.sql', '0002_c.sql'])).toEqual([]);
    expect(unappliedMigrations(local, [])).toEqual(['0000_a.sql', '0001_b.sql', '0002_c.sql']);
  });
});

describe('npm run deploy after the build (scripts/deploy.ts)', () => {
  let dir = '';

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'deploy-test-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /**
   * A stand-in for wrangler: records each call, lets `migrations apply` exit with `applyExit` after
   * recording `applied` (what the operator's answer left in the remote table), and answers the
   * d1_migrations query with those names.
   */
  function runDeploy(options: { applied: string[]; applyExit?: number; queryExit?: number; databases?: string[]; secretsFile?: string }) {
    const fake = fakeWrangler(
      dir,
      `if (args[0] === 'd1' && args[1] === 'list') {
  console.log(${JSON.stringify(JSON.stringify((options.databases ?? ['warrendale-cpa-db']).map((name) => ({ name, uuid: 'x' }))))});
  process.exit(0);
}
if (args[0] === 'd1' && args[1] === 'create') process.exit(0);
if (args[0] === 'd1' && args[1] === 'migrations') process.exit(${options.applyExit ?? 0});
if (args[0] === 'd1' && args[1] === 'execute') {
  if (${options.queryExit ?? 0}) process.exit(${options.queryExit ?? 0});
  console.log(${JSON.stringify(executeOutput(options.applied))});
  process.exit(0);
}
if (args[0] === 'deploy') process.exit(0);`,
    );
    const env: NodeJS.ProcessEnv = { ...process.env, WRANGLER: fake.path };
    delete env.CLOUDFLARE_ENV;
    if (options.secretsFile) env.SECRETS_FILE = options.secretsFile;
    else delete env.SECRETS_FILE;
    const result = spawnSync(process.execPath, [script], { encoding: 'utf8', env });
    const ran = fake.calls();
    return { status: result.status, stderr: result.stderr, ran };
  }

  it('deploys when every migration is applied', () => {
    const { status, ran } = runDeploy({ applied: localMigrations });
    expect(status).toBe(0);
    expect(ran).toEqual(['d1 list --json', 'd1 migrations apply DB --remote', 'd1 execute DB --remote --json --command SELECT name FROM d1_migrations ORDER BY id', 'deploy']);
  });

  it('creates the database on the first deploy, before the migrations, and uploads the secrets file with the version', () => {
    const { status, ran } = runDeploy({ applied: localMigrations, databases: ['another-site-db'], secretsFile: '/tmp/first.env' });
    expect(status).toBe(0);
    expect(ran.slice(0, 3)).toEqual(['d1 list --json', 'd1 create warrendale-cpa-db --location enam', 'd1 migrations apply DB --remote']);
    expect(ran.at(-1)).toBe('deploy --secrets-file /tmp/first.env');
  });

  it('stops, exit 1 and no deploy, when the prompt was declined (wrangler exits 0, the newest migration missing)', () => {
    const newest = localMigrations.at(-1)!;
    const { status, stderr, ran } = runDeploy({ applied: localMigrations.slice(0, -1) });
    expect(status).toBe(1);
    expect(ran).not.toContain('deploy');
    expect(stderr).toContain('Deploy stopped: 1 migration(s) not applied on the remote database');
    expect(stderr).toContain(newest);
  });

  it('stops when a migration failed (wrangler exits non-zero)', () => {
    const { status, stderr, ran } = runDeploy({ applied: [], applyExit: 1 });
    expect(status).toBe(1);
    expect(ran).toEqual(['d1 list --json', 'd1 migrations apply DB --remote']);
    expect(stderr).toContain('the remote migrations failed (wrangler exited 1)');
  });

  it('stops when the remote table cannot be read', () => {
    const { status, ran } = runDeploy({ applied: localMigrations, queryExit: 2 });
    expect(status).toBe(1);
    expect(ran).not.toContain('deploy');
  });
});
