import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-plugin';
import { accessSync, constants, statfsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { unstable_readConfig } from 'wrangler';

const migrationsDir = fileURLToPath(new URL('./migrations', import.meta.url));

/**
 * The run's throwaway state goes where os.tmpdir() says: each local stack's D1 and copy of the build,
 * workerd's storage for the worker tests, `npm start`'s private state, Chromium's profile. Where /tmp
 * is on disk (ext4 on the 2-CPU machine), the writes of those SQLite files and the files made and
 * removed for each test and stack go through the disk's file system; on a machine with a memory file
 * system at /dev/shm (Linux) with room to spare, the run keeps that state in memory instead, and its
 * child processes inherit the choice. A TMPDIR set by whoever runs the tests is kept. Measured in
 * docs/operations.md "The test suite's time".
 */
function keepTestStateInMemory(): void {
  if (process.env.TMPDIR) return;
  try {
    accessSync('/dev/shm', constants.W_OK);
    const { bavail, bsize } = statfsSync('/dev/shm');
    if (bavail * bsize >= 1024 ** 3) process.env.TMPDIR = '/dev/shm';
  } catch {
    // No /dev/shm (macOS, Windows): the system's temporary directory.
  }
}
keepTestStateInMemory();

/**
 * The `worker` project's runtime: workerd with wrangler.jsonc's bindings and the test secrets, the
 * migrations and KV bindings tests/harness/worker/apply-migrations.ts resets to, and `bindings` on top.
 * vitest.bench-chat.config.ts runs the chat bench in the same runtime.
 */
export function workerPool(bindings: Record<string, string> = {}) {
  return cloudflareTest(async () => ({
    wrangler: { configPath: './wrangler.jsonc' },
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
        TEST_KV_BINDINGS: unstable_readConfig({ config: './wrangler.jsonc' }, { hideWarnings: true }).kv_namespaces.map((kv: { binding: string }) => kv.binding),
        // The moved clock of scripts/test-dates.ts (tests/harness/worker/moved-clock-setup.ts), when set.
        ...(process.env.TEST_CLOCK_OFFSET_MS ? { TEST_CLOCK_OFFSET_MS: process.env.TEST_CLOCK_OFFSET_MS } : {}),
        ...bindings,
      },
    },
  }));
}

/**
 * The longest files, longest first, started first in their project whatever vitest knows: on a fresh
 * clone it has no timings and orders by file size, which would start the three small fuzz files (a
 * few lines each, minutes of work each) last and leave them running alone at the end, and start the
 * back-office navigation's file (its overlap check opens every screen four times) after a dozen others.
 */
const LONGEST = [
  'tests/admin/admin-accessibility.e2e',
  'tests/admin/admin-nav.e2e',
  'tests/site/public-site.e2e',
  'tests/site/accessibility-sweep.e2e',
  'tests/build/preflight',
  'tests/security/fuzz',
];

/**
 * The order files start in. Vitest would run the projects one after another (alphabetically); here
 * every project's files share the worker slots at once: first `npm start`'s test (mostly waiting on
 * its server), then the browser files, the build files (the preflight's, which spawns the deploy
 * preflight a dozen times, before the quick ones) and the worker files (each the slowest known first), and
 * the quick web files last, to fill the gaps at the end. Each project's files come one
 * after another because a slot keeps its runner (`isolate: false`: the browser files' Node process,
 * the worker files' workerd with its modules loaded) only while the next file in the queue is of
 * the same project: taken in turn, every file started a runner of its own (docs/operations.md "The
 * test suite's time").
 */
class ProjectBlocksSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification) => {
      const at = LONGEST.findIndex((path) => spec.moduleId.includes(path));
      return at === -1 ? LONGEST.length : at;
    };
    const of = (name: string) => sorted.filter((spec) => spec.project.name === name).sort((a, b) => rank(a) - rank(b));
    const order = ['scripts', 'e2e', 'build', 'worker', 'web'];
    const rest = sorted.filter((spec) => !order.includes(spec.project.name));
    return [...order.flatMap(of), ...rest];
  }
}

export default defineConfig({
  test: {
    // Two cores, but much of a run waits on servers and browsers: three files at a time (vitest's
    // default here would be one). Each browser test file gets its own local stack per slot
    // (tests/harness/e2e/global-setup.ts), so these may run beside each other too.
    maxWorkers: 3,
    sequence: { sequencer: ProjectBlocksSequencer },
    projects: [
      {
        // API tests inside workerd: real D1 (migrations applied once per file in the setup file, every
        // table back to its migrated state after each test) and real KV.
        plugins: [workerPool()],
        test: {
          name: 'worker',
          include: ['tests/**/*.worker.test.ts'],
          setupFiles: ['./tests/harness/worker/moved-clock-setup.ts', './tests/harness/worker/apply-migrations.ts'],
          // One runtime per worker slot for all its files, rather than a new one (a workerd process
          // and the whole module graph) per file: that start-up was half of this project's time.
          // Every file still starts from the migrated database and empty KV (the setup file's
          // hooks), and the files pass in any order (checked with --sequence.shuffle.files).
          isolate: false,
          // Three files run at once on two cores beside browsers: the 5 s default timed out a parallel
          // burst of 50 sign-ins and a streamed chat under that load. Tests wait on their own state.
          testTimeout: 30_000,
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
          globalSetup: ['./tests/harness/shared-build.ts'],
          testTimeout: 60_000,
          hookTimeout: 240_000,
        },
      },
      {
        // Pure web modules (no DOM needed), e.g. the subscriber CSV builder, and the forms' component
        // tests (*.test.tsx), which choose happy-dom with a `// @vitest-environment happy-dom` line.
        // 30 s like the worker tests: the 5 s default timed out 35 component tests in a full run on a
        // loaded machine (they render and wait on their own state, never on a clock).
        test: {
          name: 'web',
          include: ['tests/**/*.web.test.ts', 'tests/**/*.web.test.tsx'],
          environment: 'node',
          setupFiles: ['./tests/harness/moved-clock-setup.ts', './tests/harness/web/setup.ts'],
          testTimeout: 30_000,
        },
      },
      {
        // The local tooling: `npm start` itself (scripts/start.ts) in a private state directory, with
        // its own server and cron, and the Chromium finder (scripts/lib/chromium.ts).
        test: {
          name: 'scripts',
          include: ['tests/scripts/**/*.test.ts'],
          environment: 'node',
          // `npm start` starts from a copy of the run's one build instead of building again.
          globalSetup: ['./tests/harness/shared-build.ts'],
          testTimeout: 180_000,
          hookTimeout: 480_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/**/*.e2e.test.ts'],
          // One Node process per slot for all its files, as in the worker project: each file still
          // connects to the browser and signs in on its own (tests/harness/e2e/browser.ts).
          isolate: false,
          environment: 'node',
          globalSetup: ['./tests/harness/e2e/global-setup.ts'],
          // The moved clock of scripts/test-dates.ts, when set (tests/harness/moved-clock.ts).
          setupFiles: ['./tests/harness/moved-clock-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 180_000,
          // expect.poll waits on the state itself; its 1 s default failed on a busy 2-core machine.
          expect: { poll: { timeout: 15_000 } },
        },
      },
    ],
  },
});
