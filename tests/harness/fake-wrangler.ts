import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A stand-in for wrangler, for the scripts that shell out to it (they run `$WRANGLER` when set):
 * an executable node script in `dir` that records each call's arguments, one line per call, then
 * runs `answers` (script text that reads `args`, the call's arguments, and exits with an answer;
 * `spawnSync` is at hand to hand a call on to the real wrangler). A call it does not answer exits 99.
 * `calls()` reads back what was called, in order.
 */
export function fakeWrangler(dir: string, answers: string): { path: string; calls: () => string[] } {
  const log = join(dir, 'calls.log');
  writeFileSync(log, '');
  const path = join(dir, 'wrangler');
  writeFileSync(
    path,
    `#!/usr/bin/env node
const { appendFileSync } = require('node:fs');
const { spawnSync } = require('node:child_process');
const args = process.argv.slice(2);
appendFileSync(${JSON.stringify(log)}, args.join(' ') + '\\n');
${answers}
process.exit(99);
`,
  );
  chmodSync(path, 0o755);
  return { path, calls: () => readFileSync(log, 'utf8').trim().split('\n').filter(Boolean) };
}
