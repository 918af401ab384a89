// One production build per test run, shared by every suite that needs one: the build tests read it
// where `wrangler deploy` would (dist/client), the browser tests serve a copy of it, and the test of
// `npm start` starts from a copy of it (LOCAL_PREBUILT_CLIENT). A global setup of each of those
// projects; vitest runs every project's global setup in this one process, so the first one builds
// and the others reuse its result.
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildSpa, projectRoot } from '../../scripts/lib/local-server';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's production build: `npm run build`'s client directory (dist/client). */
    buildDir: string;
    /** What that `npm run build` printed on success (its warnings; never Vite's chunk table). */
    buildOutput: string;
  }
}

interface SharedBuild {
  dir: string;
  output: string;
}

const key = Symbol.for('cpa.tests.sharedBuild');

/** Builds the site once per process (the first caller builds; the others get the same result). */
export function sharedBuild(): SharedBuild {
  const store = globalThis as { [key]?: SharedBuild };
  if (!store[key]) {
    const started = Date.now();
    // Exactly what `npm run build` writes for `wrangler deploy`: wrangler.jsonc's directory (no
    // BUILD_OUT_DIR), and no Tag Manager container from this machine's environment (wrangler.jsonc
    // configures none).
    const output = buildSpa(undefined, { BUILD_OUT_DIR: '', GTM_ID: '' });
    store[key] = { dir: join(projectRoot, 'dist/client'), output };
    console.log(`npm test: built the site once for every suite in ${Math.round((Date.now() - started) / 1000)} s`);
  }
  return store[key];
}

export default function setup(project: TestProject) {
  const build = sharedBuild();
  project.provide('buildDir', build.dir);
  project.provide('buildOutput', build.output);
}
