// A migration that has shipped is never edited (docs/architecture.md "Migrations", which also tells
// the one white-space edit, resealed, that changed no database's schema): wrangler records
// applied migrations by file name only, so an edit never reaches a database that already applied the
// file, and fresh installs would build another schema than the live one. migrations/shipped.sha256
// seals each migration (in `sha256sum` format: `cd migrations && sha256sum -c shipped.sha256`).
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { migrationNames } from '../../scripts/lib/remote-migrations';

const dir = fileURLToPath(new URL('../../migrations/', import.meta.url));
const sealed = new Map(
  readFileSync(`${dir}shipped.sha256`, 'utf8')
    .trim()
    .split('\n')
    .map((line) => {
      const [hash, name] = line.split(/\s+\*?/);
      return [name, hash] as const;
    }),
);

describe('the shipped migrations', () => {
  it('are each sealed in migrations/shipped.sha256, and none is missing', () => {
    const files = migrationNames(readdirSync(dir));
    const unsealed = files.filter((name) => !sealed.has(name));
    expect(unsealed, 'a new migration, once final: `cd migrations && sha256sum <file> >> shipped.sha256`').toEqual([]);
    expect([...sealed.keys()].filter((name) => !files.includes(name)), 'a shipped migration was removed or renamed').toEqual([]);
  });

  it('are byte for byte as they shipped', () => {
    const changed = [...sealed].filter(([name, hash]) => createHash('sha256').update(readFileSync(`${dir}${name}`)).digest('hex') !== hash);
    expect(changed.map(([name]) => name), 'a shipped migration was edited: put the change in a new migration instead').toEqual([]);
  });
});
