// `npm run bench:chat` (bench/chat.bench-run.ts): the chat assistant's answers, leaks and streaming
// latency, inside workerd like the `worker` project of vitest.config.ts (same plugin, bindings and
// migrations), but a config of its own so `npm test` never runs it: vitest.config.ts includes only
// tests/**, and this includes only bench/**/*.bench-run.ts.
import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-plugin';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const migrationsDir = fileURLToPath(new URL('./migrations', import.meta.url));

export default defineConfig({
  plugins: [
    cloudflareTest(async () => ({
      wrangler: { configPath: './wrangler.toml' },
      // Never the real Workers AI: the bench brings its own fake binding (bench/fake-model.ts).
      remoteBindings: false,
      miniflare: {
        bindings: {
          JWT_SECRET: 'test-secret-for-vitest-only-0123456789abcdef',
          ADMIN_USERNAME: 'admin',
          ADMIN_PASSWORD: 'correct-horse-battery',
          MAILCHANNELS_API_KEY: '',
          TEST_MIGRATIONS: await readD1Migrations(migrationsDir),
          // The fake model's pacing, e.g. `BENCH_CHAT_FIRST_TOKEN_MS=600 npm run bench:chat`
          // (empty: the defaults of bench/fake-model.ts, 250 ms then 15 ms per word).
          BENCH_CHAT_FIRST_TOKEN_MS: process.env.BENCH_CHAT_FIRST_TOKEN_MS ?? '',
          BENCH_CHAT_TOKEN_MS: process.env.BENCH_CHAT_TOKEN_MS ?? '',
        },
      },
    })),
  ],
  test: {
    include: ['bench/**/*.bench-run.ts'],
    setupFiles: ['./tests/harness/worker/apply-migrations.ts'],
    // Each path asks every question one after another, at model-like pace.
    testTimeout: 600_000,
  },
});
