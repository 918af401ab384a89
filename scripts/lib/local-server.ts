// Shared by `npm start` and the browser tests: the real local stack (wrangler dev in local mode,
// workerd + local D1 + local KV) with migrations applied, never a mock server.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startLocalMailbox } from './local-mailbox.ts';
import { migrationNames } from './remote-migrations.ts';

export const projectRoot = fileURLToPath(new URL('../..', import.meta.url));
const wranglerBin = `${projectRoot}node_modules/.bin/wrangler`;
// The project's own Node (the `node` devDependency) first on PATH, so wrangler runs on a supported
// Node even when this script was started outside npm.
const childEnv = (): NodeJS.ProcessEnv => ({
  ...process.env,
  PATH: `${projectRoot}node_modules/.bin:${process.env.PATH ?? ''}`,
  WRANGLER_SEND_METRICS: 'false',
});

/**
 * Runs a step; its output is shown only when it fails (the start-up shows what a person needs).
 * Returns what it printed on success (its warnings).
 */
function run(bin: string, args: string[], label: string, env: NodeJS.ProcessEnv = childEnv()): string {
  const result = spawnSync(bin, args, { cwd: projectRoot, stdio: ['ignore', 'pipe', 'pipe'], env, maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) {
    process.stdout.write(result.stdout ?? '');
    process.stderr.write(result.stderr ?? '');
    throw new Error(`${label} failed (exit ${result.status})`);
  }
  // Warnings stay visible even when the step succeeds.
  if (result.stderr?.length) process.stderr.write(result.stderr);
  return result.stderr?.toString() ?? '';
}

/**
 * `npm run build` (the SPA and everything the build step produces), optionally into another
 * directory, with `env` added to the build's environment. Vite's chunk table is not shown; warnings
 * and errors are. Returns what it printed.
 */
export function buildSpa(outDir?: string, env: Record<string, string> = {}): string {
  return run('npm', ['run', 'build', '--silent'], 'npm run build', { ...childEnv(), ...env, ...(outDir ? { BUILD_OUT_DIR: outDir } : {}) });
}

export function applyLocalMigrations(persistTo?: string): void {
  const args = ['d1', 'migrations', 'apply', 'DB', '--local'];
  if (persistTo) args.push('--persist-to', persistTo);
  run(wranglerBin, args, 'wrangler d1 migrations apply');
}

/**
 * A fresh local D1 (in `persistTo`, which no migration has touched) with every migration applied as
 * `wrangler d1 migrations apply` applies them (each migration's statements, then its row in
 * d1_migrations, in order), in one `wrangler d1 execute`: the apply command starts a workerd for each
 * migration, about 9 s for 19 of them against under 2 s. For the private stacks; `npm start` keeps
 * the apply command, which also brings an existing database up to date.
 */
export function migrateFreshDatabase(persistTo: string): void {
  const dir = join(projectRoot, 'migrations');
  const migrations = migrationNames(readdirSync(dir));
  const sql = [
    // wrangler's own bookkeeping table (its getCreateMigrationsTableQuery), then what its
    // buildMigrationQuery runs for each migration.
    'CREATE TABLE IF NOT EXISTS "d1_migrations"(\n\t\tid         INTEGER PRIMARY KEY AUTOINCREMENT,\n\t\tname       TEXT UNIQUE,\n\t\tapplied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL\n);',
    ...migrations.map((name) => `${readFileSync(join(dir, name), 'utf8')}\nINSERT INTO "d1_migrations" (name) values ('${name.replace(/'/g, "''")}');`),
  ].join('\n');
  const file = join(mkdtempSync(join(tmpdir(), 'cpa-migrations-')), 'all.sql');
  writeFileSync(file, sql);
  try {
    run(wranglerBin, ['d1', 'execute', 'DB', '--local', '--persist-to', persistTo, '--file', file], 'wrangler d1 execute (the migrations)');
  } finally {
    rmSync(dirname(file), { recursive: true, force: true });
  }
}

export function executeLocalSql(sql: string, persistTo?: string): void {
  const args = ['d1', 'execute', 'DB', '--local', '--command', sql];
  if (persistTo) args.push('--persist-to', persistTo);
  run(wranglerBin, args, 'wrangler d1 execute');
}

export interface DevServerOptions {
  /** wrangler dev's port (not used with `direct`). */
  port: number;
  /** Interface to listen on: tests use 127.0.0.1; `npm start` uses localhost as the README says. */
  host?: string;
  persistTo?: string;
  /** Serve the SPA from this directory instead of wrangler.jsonc's dist/client. */
  assetsDir?: string;
  vars?: Record<string, string>;
  /**
   * No output but errors: stdout is dropped and wrangler is told to log errors only. Otherwise it
   * formats a line for every request and every console call of the worker (about 2 ms of CPU a
   * request in its Node process), only for the lines to be thrown away.
   */
  quiet?: boolean;
  /** Expose /__scheduled (wrangler dev --test-scheduled) so a script can fire the Cron Trigger. */
  testScheduled?: boolean;
  /** Another wrangler config file (e.g. one without [assets], so /__scheduled reaches the worker). */
  configPath?: string;
  /** Pipe wrangler's stdout/stderr to the caller (child.stdout) instead of this terminal. */
  pipeOutput?: boolean;
  /** The administrator account and the session-signing secret (JWT_SECRET) for this run. */
  admin?: { username: string; password: string; jwtSecret: string };
  /**
   * Secrets from this file instead of the developer's .dev.vars (wrangler reads one or the other):
   * a private stack must not pick up a local SITE_URL, mail key or admin password.
   */
  envFile?: string;
  /**
   * Answer at the worker's own address instead of wrangler dev's proxy, which reloads the worker on
   * an edit and costs about as much CPU per request again (scripts/lib/direct-worker.ts). The
   * address is then one the OS picks: `port` is not used. Quiet, and no
   * terminal output: for the browser tests.
   */
  direct?: boolean;
  /**
   * The local mailbox's folder: a mail sink writes every message there as an .eml file
   * (scripts/lib/local-mailbox.ts), for a worker without a MailChannels key. Unset: no mailbox,
   * and the worker keeps mail in its D1 outbox only, without the links' secrets.
   */
  mailDir?: string;
}

/** The worker's variables: the administrator account and session secret, then `vars`. */
function workerVars(options: DevServerOptions): Record<string, string> {
  const admin: Record<string, string> = options.admin ? { JWT_SECRET: options.admin.jwtSecret, ADMIN_USERNAME: options.admin.username, ADMIN_PASSWORD: options.admin.password } : {};
  return { ...admin, ...options.vars };
}

/** A started stack: its address, its process, and how to stop it (and its mailbox). */
export interface DevServer {
  url: string;
  process: ChildProcess;
  stop: () => Promise<void>;
}

/**
 * Starts `wrangler dev --local` (or, with `direct`, the worker without its proxy), with the local
 * mailbox when `mailDir` is given; resolves once /api/health answers.
 */
export async function startDevServer(options: DevServerOptions): Promise<DevServer> {
  if (!options.mailDir) return startWorker(options);
  const mailbox = await startLocalMailbox(options.mailDir);
  try {
    const server = await startWorker({ ...options, vars: { ...options.vars, LOCAL_MAILBOX_URL: mailbox.url } });
    return { ...server, stop: () => server.stop().finally(() => mailbox.stop()) };
  } catch (error) {
    await mailbox.stop();
    throw error;
  }
}

async function startWorker(options: DevServerOptions): Promise<DevServer> {
  if (options.direct) return startDirectWorker(options);
  const host = options.host ?? '127.0.0.1';
  const args = ['dev', '--local', '--port', String(options.port), '--ip', host, '--show-interactive-dev-session=false'];
  if (options.persistTo) args.push('--persist-to', options.persistTo);
  if (options.assetsDir) args.push('--assets', options.assetsDir);
  for (const [key, value] of Object.entries(workerVars(options))) args.push('--var', `${key}:${value}`);
  if (options.quiet) args.push('--log-level', 'error');
  if (options.testScheduled) args.push('--test-scheduled');
  if (options.configPath) args.push('--config', options.configPath);
  if (options.envFile) args.push('--env-file', options.envFile);
  const child = spawn(wranglerBin, args, {
    cwd: projectRoot,
    stdio: options.pipeOutput ? ['ignore', 'pipe', 'pipe'] : options.quiet ? ['ignore', 'ignore', 'inherit'] : 'inherit',
    env: childEnv(),
    detached: process.platform !== 'win32',
  });
  return untilHealthy(`http://${host}:${options.port}`, child, 'wrangler dev');
}

/** The stack of startDevServer's `direct` option: scripts/lib/direct-worker.ts in a process of its own. */
async function startDirectWorker(options: DevServerOptions): Promise<DevServer> {
  const settings = {
    host: options.host ?? '127.0.0.1',
    configPath: options.configPath,
    envFile: options.envFile,
    assetsDir: options.assetsDir,
    persistTo: options.persistTo,
    vars: workerVars(options),
    testScheduled: options.testScheduled,
  };
  const child = spawn(`${projectRoot}node_modules/.bin/node`, [fileURLToPath(new URL('./direct-worker.ts', import.meta.url)), JSON.stringify(settings)], {
    cwd: projectRoot,
    // stdin stays open: the worker stops when this process goes (direct-worker.ts).
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...childEnv(), WRANGLER_LOG: 'error' },
    detached: process.platform !== 'win32',
  });
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const ready = /^ready (\S+)$/m.exec(output);
      if (ready) resolve(ready[1]);
    });
    child.once('exit', (code) => reject(new Error(`the worker exited with ${code} before it was ready: ${output}`)));
    setTimeout(() => reject(new Error(`the worker was not ready within 90 s: ${output}`)), 90_000).unref();
  }).catch(async (error: unknown) => {
    if (child.exitCode === null) process.kill(-child.pid!, 'SIGTERM');
    throw error;
  });
  return untilHealthy(url, child, 'the worker');
}

/** Resolves once `url`/api/health answers (within 90 s), with a stop that ends the process and its workerd. */
async function untilHealthy(url: string, child: ChildProcess, label: string): Promise<DevServer> {
  const stop = async () => {
    if (child.exitCode !== null) return;
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      child.kill('SIGTERM');
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  };
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${label} exited with ${child.exitCode}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) return { url, process: child, stop };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await stop();
  throw new Error(`${label} did not become ready within 90 s`);
}

export interface PrivateStack {
  workDir: string;
  assetsDir: string;
  persistTo: string;
  /** Where the stack's local mailbox would write (scripts/lib/local-mailbox.ts): pass it to `start` as `mailDir` to have one. */
  mailDir: string;
  /** `wrangler dev --local` (or the direct worker) serving this stack's build and database. */
  start: (options: Omit<DevServerOptions, 'assetsDir' | 'persistTo'>) => Promise<DevServer>;
  /** Deletes the work directory (build and database). */
  remove: () => void;
}

/**
 * A private build and a fresh local D1 (migrations applied) in a new temporary directory, so parallel
 * runs (browser tests, benchmarks) never share state. With `prebuilt` (a build's client directory,
 * e.g. the one `npm test` builds once for every suite) that build is copied instead of building again;
 * with `migratedFrom` (another stack's state directory, migrated and not yet served) that database is
 * copied instead of applying the migrations again.
 */
export function preparePrivateStack(prefix: string, options: { prebuilt?: string; migratedFrom?: string } = {}): PrivateStack {
  const workDir = mkdtempSync(join(tmpdir(), prefix));
  const assetsDir = join(workDir, 'client');
  const persistTo = join(workDir, 'state');
  const mailDir = join(workDir, 'mail');
  // Empty: what the run needs comes from its options, never from the checkout's .dev.vars.
  const envFile = join(workDir, 'private.env');
  writeFileSync(envFile, '');
  if (options.prebuilt) cpSync(options.prebuilt, assetsDir, { recursive: true });
  else buildSpa(assetsDir);
  if (options.migratedFrom) cpSync(options.migratedFrom, persistTo, { recursive: true });
  else migrateFreshDatabase(persistTo);
  return {
    workDir,
    assetsDir,
    persistTo,
    mailDir,
    start: (options) => startDevServer({ ...options, assetsDir, persistTo, envFile }),
    remove: () => rmSync(workDir, { recursive: true, force: true }),
  };
}

/** A port nothing listens on right now (the OS picks it), so parallel runs never collide. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
