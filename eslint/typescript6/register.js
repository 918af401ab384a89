// typescript-eslint parses with TypeScript's JS API, which TypeScript 7 (the native compiler the
// project's `tsc` runs) no longer has; it supports TypeScript up to 6.0. So the lint process loads
// TypeScript 6.0 instead: this package's own dependency, installed under it (the project's own
// `typescript` takes the top-level name, so `tsc` stays TypeScript 7), and a resolve hook that
// answers every `typescript` import of the lint process with it (module.registerHooks: Node 22.15+,
// as npm scripts run the project's `node` devDependency). package.json's "overrides" lets
// typescript-eslint's peer range accept the project's TypeScript 7 at install time. Drop all three
// once typescript-eslint reads TypeScript 7 (typescript-eslint/typescript-eslint#10940).
import { createRequire, registerHooks } from 'node:module';
import { pathToFileURL } from 'node:url';

const typescript6 = pathToFileURL(createRequire(import.meta.url).resolve('typescript')).href;

registerHooks({
  resolve(specifier, context, nextResolve) {
    if (specifier === 'typescript') return { url: typescript6, format: 'commonjs', shortCircuit: true };
    return nextResolve(specifier, context);
  },
});
