// Routes are thin: a route validates, checks who may call it, and picks the status and the JSON
// shape; every query lives in a service of its domain (worker/services/<domain>/). This reads
// worker/routes/ as text and fails on a query built there.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The visitor write paths (POST /api/contact, POST /api/appointments, the chat hand-off): they hand
 * their table and their batch statements to storeSubmission (worker/services/limits/submission-limits.ts),
 * whose shape is being reworked; until then they name the table themselves.
 */
const visitorWritePaths = new Set(['worker/routes/appointments.ts', 'worker/routes/chat.ts', 'worker/routes/contact.ts']);

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
      .filter((file) => !visitorWritePaths.has(file))
      .flatMap((file) => {
        const text = readFileSync(join(root, file), 'utf8');
        return queryPatterns.filter(([pattern]) => pattern.test(text)).map(([, reason]) => `${file} ${reason}`);
      });
    expect(found).toEqual([]);
  });
});
