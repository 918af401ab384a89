// Routes are thin: a route validates, checks who may call it, and picks the status and the JSON
// shape; every query lives in a service of its domain (worker/services/<domain>/), the visitor
// forms' one-call writes included (docs/architecture.md, "Doors and the floor"). This reads
// worker/routes/ as text and fails on a query built there.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** What building a query looks like in a route, each with the reason it is one. */
const queryPatterns: [RegExp, string][] = [
  [/from\s+['"]drizzle-orm(\/[^'"]*)?['"]/, 'imports drizzle-orm'],
  [/from\s+['"][./]*db\/(schema|granted-batch|built-once)['"]/, 'imports a table or a batch helper of worker/db/'],
  [/\.prepare\(/, 'prepares a D1 statement'],
  [/\bsql`/, 'writes SQL'],
  [/\.query\.\w+\.find(First|Many)\(/, "uses Drizzle's query API"],
  // Drizzle's builders take a table or nothing; Hono's .delete() takes a path string.
  [/\.(select|insert|update|delete)\(\s*(?!['"`])/, "uses Drizzle's query builder"],
];

const routeFiles = readdirSync(join(root, 'worker/routes'), { recursive: true, encoding: 'utf8' })
  .filter((name) => name.endsWith('.ts'))
  .map((name) => `worker/routes/${name.replace(/\\/g, '/')}`);

describe('thin routes', () => {
  it('reads the route files', () => {
    expect(routeFiles.length).toBeGreaterThan(15);
  });

  it('build no query in worker/routes/: the services of each domain do', () => {
    const found = routeFiles
      .flatMap((file) => {
        const text = readFileSync(join(root, file), 'utf8');
        return queryPatterns.filter(([pattern]) => pattern.test(text)).map(([, reason]) => `${file} ${reason}`);
      });
    expect(found).toEqual([]);
  });
});
