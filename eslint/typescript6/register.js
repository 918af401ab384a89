// typescript-eslint parses with TypeScript's JS API, which TypeScript 7 (the native compiler the
// project's `tsc` runs) no longer has; it supports TypeScript up to 6.0. So the lint process loads
// TypeScript 6.0 instead: this package's own dependency, installed under it (the project's own
// `typescript` takes the top-level name, so `tsc` stays TypeScript 7), and a resolve hook that
// answers every `typescript` import of the lint process with it (module.registerHooks: Node 22.15+,
// as npm scripts run the project's `node` devDependency). package.json's "overrides" lets
// typescript-eslint's peer range accept the project's TypeScript 7 at install time. Drop all three
// once typescript-eslint reads TypeScript 7 (typescript-eslint/typescript-eslint#10940).
import { createRequire, registerHooks } from 'node:module';
import { dirname, extname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

// Resolved once, here: a require.resolve inside the hook would run the hook again.
const typescript6 = dirname(createRequire(import.meta.url).resolve('typescript/package.json'));

registerHooks({
  resolve(specifier, context, nextResolve) {
    if (specifier === 'typescript') return { url: pathToFileURL(join(typescript6, 'lib/typescript.js')).href, format: 'commonjs', shortCircuit: true };
    if (specifier.startsWith('typescript/')) {
      // e.g. typescript/lib/tsserverlibrary, which typescript-eslint's project service loads.
      const file = join(typescript6, specifier.slice('typescript/'.length));
      return { url: pathToFileURL(extname(file) ? file : `${file}.js`).href, format: 'commonjs', shortCircuit: true };
    }
    return nextResolve(specifier, context);
  },
});
