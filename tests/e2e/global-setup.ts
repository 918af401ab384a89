import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { applyLocalMigrations, buildSpa, startDevServer } from '../../scripts/lib/local-server';

export const E2E_ADMIN = { username: 'e2e-admin', password: 'e2e-password-2026' };

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    admin: { username: string; password: string };
    /** The run's local state directory (D1 SQLite files), for reading the e-mail outbox. */
    persistTo: string;
  }
}

/**
 * Starts the real local stack once for all browser tests: the built SPA served by
 * `wrangler dev --local` with a fresh D1 (migrations applied) in a temporary directory.
 */
export default async function setup(project: TestProject) {
  // A private build and database per run, so parallel runs never share state.
  const workDir = mkdtempSync(join(tmpdir(), 'cpa-e2e-'));
  const assetsDir = join(workDir, 'client');
  const persistTo = join(workDir, 'state');
  buildSpa(assetsDir);
  applyLocalMigrations(persistTo);
  const port = Number(process.env.E2E_PORT ?? 8790 + Math.floor(Math.random() * 200));
  const server = await startDevServer({
    port,
    persistTo,
    assetsDir,
    quiet: true,
    vars: {
      JWT_SECRET: 'e2e-secret-0123456789abcdef0123456789abcdef',
      ADMIN_USERNAME: E2E_ADMIN.username,
      ADMIN_PASSWORD: E2E_ADMIN.password,
      // Throttles are generous so a test run never trips them by accident.
      SUBMISSIONS_PER_IP_PER_WINDOW: '1000',
      DAILY_SUBMISSION_CAP: '100000',
    },
  });
  project.provide('baseUrl', server.url);
  project.provide('admin', E2E_ADMIN);
  project.provide('persistTo', persistTo);
  return async () => {
    await server.stop();
    rmSync(workDir, { recursive: true, force: true });
  };
}
