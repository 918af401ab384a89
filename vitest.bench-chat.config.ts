// `npm run bench:chat` (bench/chat.bench-run.ts): the chat assistant's answers, leaks and streaming
// latency, inside workerd like the `worker` project of vitest.config.ts (same plugin, bindings and
// migrations), but a config of its own so `npm test` never runs it: vitest.config.ts includes only
// tests/**, and this includes only bench/**/*.bench-run.ts.
import { defineConfig } from 'vitest/config';
import { workerPool } from './vitest.config.ts';

export default defineConfig({
  plugins: [
    // Never the real Workers AI (no remote bindings): the bench brings its own fake binding (bench/fake-model.ts).
    workerPool({
      // The fake model's pacing, e.g. `BENCH_CHAT_FIRST_TOKEN_MS=600 npm run bench:chat`
      // (empty: the defaults of bench/fake-model.ts, 250 ms then 15 ms per word).
      BENCH_CHAT_FIRST_TOKEN_MS: process.env.BENCH_CHAT_FIRST_TOKEN_MS ?? '',
      BENCH_CHAT_TOKEN_MS: process.env.BENCH_CHAT_TOKEN_MS ?? '',
    }),
  ],
  test: {
    include: ['bench/**/*.bench-run.ts'],
    setupFiles: ['./tests/harness/worker/apply-migrations.ts'],
    // Each path asks every question one after another, at model-like pace.
    testTimeout: 600_000,
  },
});
