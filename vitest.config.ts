import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-plugin';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { unstable_readConfig } from 'wrangler';

const migrationsDir = fileURLToPath(new URL('./migrations', import.meta.url));

export default defineConfig({
  test: {
    projects: [
      {
        // API tests inside workerd: real D1 (migrations applied once per file in the setup file, every
        // table back to its migrated state after each test) and real KV.
        plugins: [
          cloudflareTest(async () => ({
            wrangler: { configPath: './wrangler.toml' },
            // No Cloudflare login here or in CI: AI calls fail and the offline fallbacks answer.
            remoteBindings: false,
            miniflare: {
              bindings: {
                JWT_SECRET: 'test-secret-for-vitest-only-0123456789abcdef',
                ADMIN_USERNAME: 'admin',
                ADMIN_PASSWORD: 'correct-horse-battery',
                // Whatever a developer's .dev.vars holds, tests never send real mail: no key means
                // the outbox transport (MailChannels is tested against a fake at the fetch boundary).
                MAILCHANNELS_API_KEY: '',
                TEST_MIGRATIONS: await readD1Migrations(migrationsDir),
                TEST_KV_BINDINGS: unstable_readConfig({ config: './wrangler.toml' }, { hideWarnings: true }).kv_namespaces.map((kv: { binding: string }) => kv.binding),
              },
            },
          })),
        ],
        test: {
          name: 'worker',
          include: ['tests/worker/**/*.test.ts'],
          setupFiles: ['./tests/worker/apply-migrations.ts'],
        },
      },
      {
        // The production build as `wrangler deploy` would upload it (the run's one build, dist/client), the build's
        // scripts, and the import boundaries of the source tree (docs/architecture.md).
        test: {
          name: 'build',
          include: ['tests/build/**/*.test.ts'],
          environment: 'node',
          // The run's one production build (dist/client), shared with the scripts and e2e projects.
          globalSetup: ['./tests/shared-build.ts'],
          testTimeout: 60_000,
          hookTimeout: 240_000,
        },
      },
      {
        // Pure web modules (no DOM needed), e.g. the subscriber CSV builder, and the forms' component
        // tests (*.test.tsx), which choose happy-dom with a `// @vitest-environment happy-dom` line.
        test: { name: 'web', include: ['tests/web/**/*.test.ts', 'tests/web/**/*.test.tsx'], environment: 'node' },
      },
      {
        // The local tooling: `npm start` itself (scripts/start.ts) in a private state directory, with
        // its own server and cron, and the Chromium finder (scripts/lib/chromium.ts).
        test: {
          name: 'scripts',
          include: ['tests/scripts/**/*.test.ts'],
          environment: 'node',
          // `npm start` starts from a copy of the run's one build instead of building again.
          globalSetup: ['./tests/shared-build.ts'],
          testTimeout: 180_000,
          hookTimeout: 480_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['./tests/e2e/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 180_000,
          // expect.poll waits on the state itself; its 1 s default failed on a busy 2-core machine.
          expect: { poll: { timeout: 15_000 } },
          // One browser and one local server, shared: run the files one after another.
          fileParallelism: false,
        },
      },
    ],
  },
});
