import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The tests are grouped by feature (README.md, "Tests"): tests/<feature>/ holds that feature's API,
// component and browser tests side by side, and the file's suffix picks its suite in
// vitest.config.ts. A test file named or placed otherwise would match no suite and silently never
// run: this finds it.

const testsDir = fileURLToPath(new URL('..', import.meta.url));
const files = readdirSync(testsDir, { recursive: true, encoding: 'utf8' }).map((f) => f.replaceAll('\\', '/'));
const TOOLING = ['build/', 'scripts/'];
const SUITE_SUFFIX = /\.(worker|web|e2e)\.test\.tsx?$|\.web\.test-d\.ts$/;

describe('the tests folder', () => {
  const testFiles = files.filter((f) => /\.test(-d)?\.tsx?$/.test(f) && !f.includes('node_modules/'));

  it('names every feature test with its suite (.worker, .web or .e2e), so each one runs', () => {
    const unmatched = testFiles.filter((f) => !TOOLING.some((dir) => f.startsWith(dir)) && !SUITE_SUFFIX.test(f));
    expect(unmatched).toEqual([]);
  });

  it('keeps tests in a feature folder, one level deep, and none in the harness', () => {
    const misplaced = testFiles.filter((f) => !TOOLING.some((dir) => f.startsWith(dir)) && (f.split('/').length !== 2 || f.startsWith('harness/')));
    expect(misplaced).toEqual([]);
    expect(testFiles.length).toBeGreaterThan(100);
  });
});
