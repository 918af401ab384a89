// The lint's import zones bite (eslint.config.js, docs/architecture.md "Lint"): a snippet linted as
// if it were a file at a given place in the tree, through ESLint's Node API with the project's own
// config, is refused exactly where an import runs against the tree's directions, and passes where
// it runs with them. `npm run lint` (in `npm run check`) then holds the real tree to the same zones.
import { ESLint } from 'eslint';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

let eslint: ESLint;

beforeAll(async () => {
  eslint = new ESLint({ cwd: root, overrideConfigFile: join(root, 'eslint.config.js') });
  // The first lint loads the config, TypeScript and the plugins: paid here, not by one test.
  await eslint.lintText('export {};\n', { filePath: join(root, 'worker/routes/lint-probe.ts') });
});

/** The rules that fired on `code` placed at `file` (repo-relative), with their messages. */
async function findings(file: string, code: string) {
  const [result] = await eslint.lintText(code, { filePath: join(root, file) });
  return result.messages.map((message) => `${message.ruleId}: ${message.message}`);
}

const restricted = (importPath: string) => expect.stringContaining(`import-x/no-restricted-paths: Unexpected path "${importPath}" imported in restricted zone.`);

describe('the import zones', () => {
  it('a worker route may not import the SPA', async () => {
    expect(await findings('worker/routes/lint-probe.ts', "export { api } from '../../web/lib/api';\n")).toEqual([restricted('../../web/lib/api')]);
  });

  it('db/ may not import services, and services may not import routes or middleware', async () => {
    expect(await findings('worker/db/lint-probe.ts', "export { safeErrorSummary } from '../services/platform/log-safe';\n")).toEqual([restricted('../services/platform/log-safe')]);
    expect(await findings('worker/services/lint-probe.ts', "export { health } from '../routes/health';\n")).toEqual([restricted('../routes/health')]);
    expect(await findings('worker/services/platform/lint-probe.ts', "export { httpsOnly } from '../../middleware/https-only';\n")).toEqual([
      restricted('../../middleware/https-only'),
    ]);
  });

  it('core/ may not import the worker or the SPA', async () => {
    expect(await findings('core/lint-probe.ts', "export type { AppEnv } from '../worker/env';\n")).toEqual([restricted('../worker/env')]);
  });

  it('web/lib may not import features, and components may not import pages', async () => {
    expect(await findings('web/lib/lint-probe.ts', "export { ChatLauncher } from '../features/chat/components/chat-launcher';\n")).toEqual([
      restricted('../features/chat/components/chat-launcher'),
    ]);
    expect(await findings('web/components/ui/lint-probe.ts', "export { default } from '../../pages/not-found';\n")).toEqual([restricted('../../pages/not-found')]);
  });

  it('a feature may not reach into another feature', async () => {
    expect(await findings('web/features/contact/components/lint-probe.ts', "export { loadTagManager } from '../../cookie-consent/consent';\n")).toEqual([
      restricted('../../cookie-consent/consent'),
    ]);
  });

  it('web/lib/api.ts may import the worker for its types only', async () => {
    expect(await findings('web/lib/api.ts', "import type { AppType } from '../../worker/index';\nexport type Api = AppType;\n")).toEqual([]);
    expect(await findings('web/lib/api.ts', "import { default as worker } from '../../worker/index';\nexport const app = worker;\n")).toEqual([
      expect.stringContaining('@typescript-eslint/no-restricted-imports'),
    ]);
  });

  it('passes imports that run with the directions, #core/ aliases included', async () => {
    expect(await findings('worker/routes/lint-probe.ts', "export { safeErrorSummary } from '../services/platform/log-safe';\nexport { firm } from '#core/content/firm';\n")).toEqual([]);
    expect(await findings('web/pages/lint-probe.ts', "export { ChatLauncher } from '../features/chat/components/chat-launcher';\n")).toEqual([]);
    expect(await findings('web/features/contact/components/lint-probe.ts', "export { hasConsent } from '../../../lib/consent';\nexport { MapEmbed } from './map-embed';\n")).toEqual([]);
  });
});

describe("the worker's tiers", () => {
  it('every folder of worker/services is on the floor or a domain with a door', async () => {
    const config: string = '../../eslint.config.js';
    const { WORKER_FLOOR } = (await import(config)) as { WORKER_FLOOR: string[] };
    const folders = readdirSync(join(root, 'worker/services'), { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
    expect(folders).toEqual(expect.arrayContaining(WORKER_FLOOR));
    const doorless = folders.filter((folder) => !WORKER_FLOOR.includes(folder) && !existsSync(join(root, 'worker/services', folder, 'index.ts')));
    expect(doorless).toEqual([]);
  });

  it('a domain is entered only through its door, from a route as from another domain', async () => {
    expect(await findings('worker/routes/lint-probe.ts', "export { book } from '../services/appointments/book';\n")).toEqual([restricted('../services/appointments/book')]);
    expect(await findings('worker/services/chat/lint-probe.ts', "export { publishedContent } from '../content/published';\n")).toEqual([restricted('../content/published')]);
    expect(await findings('worker/routes/lint-probe.ts', "export { book } from '../services/appointments';\n")).toEqual([]);
    expect(await findings('worker/services/appointments/lint-probe.ts', "export { book } from './book';\n")).toEqual([]);
  });

  it('the floor imports no domain, even through its door', async () => {
    expect(await findings('worker/services/email/lint-probe.ts', "export { publishedContent } from '../content';\n")).toEqual([restricted('../content')]);
    expect(await findings('worker/services/platform/lint-probe.ts', "export { escapeHtml } from './html';\nexport { recordAudit } from '../audit/audit-log';\n")).toEqual([]);
  });

  it('no service imports Hono, no route handler runs past 25 lines, the cron stays a table', async () => {
    expect(await findings('worker/services/platform/lint-probe.ts', "import type { Context } from 'hono';\nexport type C = Context;\n")).toEqual([
      expect.stringContaining('no-restricted-imports'),
    ]);
    // A handler of `lines` lines in all: its first line, the headers it sets, its answer and its end.
    const route = (lines: number) =>
      `import { Hono } from 'hono';\nexport const r = new Hono().get('/', (c) => {\n${Array.from({ length: lines - 3 }, (_, i) => `  c.header('x-${i}', '${i}');`).join('\n')}\n  return c.json({});\n});\n`;
    expect(await findings('worker/routes/lint-probe.ts', route(25))).toEqual([]);
    expect(await findings('worker/routes/lint-probe.ts', route(26))).toEqual([expect.stringContaining('max-lines-per-function')]);
    expect(await findings('worker/cron.ts', `${Array.from({ length: 51 }, (_, i) => `export const v${i} = ${i};`).join('\n')}\n`)).toEqual([expect.stringContaining('max-lines')]);
  });
});
