// `npm run lint` (the first step of `npm run check`): typescript-eslint's recommended rules, React's
// hooks rules, jsx-a11y, and the directions of the source tree's imports (docs/architecture.md, "Lint").
// Must come first: the lint process's `typescript` is TypeScript 6.0 (see the file).
import './eslint/typescript6/register.js';
import { existsSync, readdirSync } from 'node:fs';
import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const root = import.meta.dirname;

/** The web features (web/features/<name>/), each its own zone: none reaches into another. */
const features = readdirSync(`${root}/web/features`, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/**
 * The worker's two tiers (docs/architecture.md, "Doors and the floor"): the floor, which every
 * domain stands on, and the domains, every other folder of worker/services. A domain is entered
 * only through its door (its index.ts) from anywhere outside it; the floor imports no domain.
 * tests/build/lint.test.ts holds every domain to having a door.
 */
export const WORKER_FLOOR = ['email', 'limits', 'audit', 'platform'];
const workerFolders = readdirSync(`${root}/worker/services`, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const workerDomains = workerFolders.filter((folder) => !WORKER_FLOOR.includes(folder) && existsSync(`${root}/worker/services/${folder}/index.ts`));
const workerOutside = ['./worker/routes', './worker/middleware', './worker/index.ts', './worker/cron.ts', './worker/db'];
const workerZones = [
  ...workerDomains.map((domain) => ({
    target: [...workerOutside, ...workerFolders.filter((folder) => folder !== domain).map((folder) => `./worker/services/${folder}`)],
    from: `./worker/services/${domain}`,
    except: ['./index.ts'],
    message: `Enter the ${domain} domain through its door, worker/services/${domain}/index.ts.`,
  })),
  {
    target: WORKER_FLOOR.map((folder) => `./worker/services/${folder}`),
    from: workerFolders.filter((folder) => !WORKER_FLOOR.includes(folder)).map((folder) => `./worker/services/${folder}`),
    message: 'The floor (email, limits, audit, platform) imports no domain: a domain hands it what it needs.',
  },
];

/**
 * bulletproof-react's `import/no-restricted-paths` zones: a file under `target` may not import
 * anything under `from`. Imports run one way: core <- worker, core <- web; routes -> services -> db;
 * app shell and pages -> features -> components -> lib. web/lib/api.ts's type-only import of the
 * worker's AppType is the one crossing, allowed below.
 */
const zones = [
  { target: './core', from: ['./worker', './web', './scripts'], message: 'core/ is the shared kernel: it imports nothing of the project outside it.' },
  { target: './worker', from: './web', message: 'The worker never imports the SPA.' },
  { target: './web', from: './worker', message: 'The SPA reaches the API only through the typed client, web/lib/api.ts.' },
  { target: './worker/db', from: ['./worker/services', './worker/routes', './worker/middleware'], message: 'db/ is the bottom of the worker: routes -> services -> db.' },
  { target: './worker/services', from: ['./worker/routes', './worker/middleware'], message: 'Services never import routes or middleware: routes -> services -> db.' },
  { target: './web/lib', from: ['./web/app', './web/pages', './web/features', './web/components', './web/islands'], message: 'web/lib/ imports no UI: pages -> features -> components -> lib.' },
  {
    target: './web/components',
    from: ['./web/app', './web/pages', './web/features', './web/islands/registry.ts', './web/islands/runtime.tsx'],
    message: 'Components never import features or pages: pages -> features -> components -> lib.',
  },
  { target: './web/features', from: ['./web/app', './web/pages', './web/islands/registry.ts', './web/islands/runtime.tsx'], message: 'Features never import pages: pages -> features -> components -> lib.' },
  ...features.map((feature) => ({
    target: `./web/features/${feature}`,
    from: './web/features',
    except: [`./${feature}`],
    message: 'A feature never reaches into another feature: what two features share belongs in web/components or web/lib.',
  })),
  ...workerZones,
];

export default tseslint.config(
  {
    ignores: ['dist/', '.wrangler/', '**/node_modules/', 'coverage/', 'test-results/', 'tests/harness/e2e/.artifacts/', 'worker/worker-configuration.d.ts'],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module' },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      // Resolves relative imports without their extension and #core/* through package.json "imports".
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js'] })],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: root, zones }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // The sanitizers (e-mail HTML, iCalendar text) strip control characters on purpose.
      'no-control-regex': 'off',
    },
  },
  {
    // Routes stay thin (docs/architecture.md, "Doors and the floor"): a handler validates, picks the
    // request's facts, calls one use case and maps its result; whatever is longer is a use case.
    files: ['worker/routes/**/*.ts'],
    rules: { 'max-lines-per-function': ['error', { max: 25 }] },
  },
  {
    // A service knows no HTTP framework: it takes plain values and returns results the route maps.
    files: ['worker/services/**/*.ts'],
    rules: {
      'max-lines': ['error', { max: 300 }],
      'no-restricted-imports': ['error', { patterns: [{ regex: '^hono($|/)', message: 'Services take plain values, never a Hono Context: the route picks them off the request.' }] }],
    },
  },
  {
    // The Cron Trigger is a table of jobs (worker/services/platform/jobs.ts runs it): a new job is one row.
    files: ['worker/cron.ts'],
    rules: { 'max-lines': ['error', { max: 50 }] },
  },
  {
    // Hono RPC: the chained app exists for `typeof routes`, the AppType (docs/decisions/0008-typed-api-contract.md).
    files: ['worker/index.ts'],
    rules: { '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^(_|routes$)', caughtErrors: 'none' }] },
  },
  {
    // zod's `z` from the package root is one namespace object holding every locale, which esbuild
    // cannot shake out: about 260 KB raw in the worker that no request used. The namespace import of
    // 'zod/v4' lets the bundler keep only what is used (docs/decisions/0016-published-content-serving.md).
    files: ['core/**/*.ts', 'worker/**/*.ts', 'web/**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { paths: [{ name: 'zod', importNames: ['z'], allowTypeImports: true, message: "Use `import * as z from 'zod/v4'`: the root's `z` carries every locale into the worker." }] },
      ],
    },
  },
  {
    // The typed client: its import of the worker is type-only (docs/decisions/0008-typed-api-contract.md).
    files: ['web/lib/api.ts'],
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: root, zones: zones.filter((zone) => zone.from !== './worker') }],
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: [{ group: ['**/worker/**'], allowTypeImports: true, message: 'Only `import type` of the worker.' }] }],
    },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    ...reactHooks.configs.flat.recommended,
    rules: {
      ...reactHooks.configs.flat.recommended.rules,
      // Two React Compiler rules, which this project does not build with, flag sound code without it:
      // the Turnstile handle and form refs read while rendering (12 places), and the loading state an
      // effect sets as it starts a fetch (8 places).
      'react-hooks/refs': 'off',
      'react-hooks/set-state-in-effect': 'off',
    },
  },
  {
    files: ['web/**/*.tsx'],
    ...jsxA11y.flatConfigs.recommended,
  },
);
