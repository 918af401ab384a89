// No service reads the request (docs/architecture.md, "Doors and the floor"): a use case takes plain
// values (the client's network, the cookies, the database, the bindings) and returns a result the
// route maps; only worker/routes/ and worker/middleware/ speak Hono. This reads worker/services/ as
// text and fails on an import of 'hono' or any of its modules (Context, cookies, HTTPException).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

const serviceFiles = readdirSync(join(root, 'worker/services'), { recursive: true, encoding: 'utf8' })
  .filter((name) => name.endsWith('.ts'))
  .map((name) => `worker/services/${name.replace(/\\/g, '/')}`);

describe('services without Hono', () => {
  it('reads the service files', () => {
    expect(serviceFiles.length).toBeGreaterThan(30);
  });

  it('import nothing of hono in worker/services/: routes and middleware pick the request apart', () => {
    const found = serviceFiles.filter((file) => /from\s+['"]hono(\/[^'"]*)?['"]/.test(readFileSync(join(root, file), 'utf8')));
    expect(found).toEqual([]);
  });
});
