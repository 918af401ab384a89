// scripts/check-budgets.ts (the size budgets of `npm run check`) against small hand-made builds: a
// client directory with its Vite manifest and a wrangler dry-run directory, so what it counts
// (what the HTML loads plus static imports, never dynamic ones) is checked without a real build.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { htmlFileFor, publicRoutes } from '#core/public-routes';

const script = fileURLToPath(new URL('../../scripts/check-budgets.ts', import.meta.url));

let dir = '';
let clientDir = '';
let workerDir = '';

const write = (base: string, path: string, content: string | Uint8Array) => {
  mkdirSync(dirname(join(base, path)), { recursive: true });
  writeFileSync(join(base, path), content);
};
const gzipKb = (...contents: Array<string | Uint8Array>) => (contents.reduce((sum, c) => sum + gzipSync(c, { level: 6 }).length, 0) / 1024).toFixed(1);
/** Random bytes: gzip cannot shrink them, so their gzip size is about their size. */
const incompressible = (kb: number) => randomBytes(kb * 1024);

const entry = 'import "./runtime.js"; export const entry = 1;'.repeat(20);
const runtime = 'export const runtime = () => 0;'.repeat(30);
const homePage = 'import "./runtime.js"; export const home = "hero";'.repeat(40);
const lazyChat = incompressible(150);

/** Every public route loads the entry; the home page also preloads its page chunk. */
function writeBuild(htmlFor: (path: string) => string) {
  write(clientDir, 'assets/entry-A1.js', entry);
  write(clientDir, 'assets/runtime-B2.js', runtime);
  write(clientDir, 'assets/home-C3.js', homePage);
  write(clientDir, 'assets/chat-D4.js', lazyChat);
  write(clientDir, '.vite/manifest.json', JSON.stringify({
    'index.html': { file: 'assets/entry-A1.js', isEntry: true, imports: ['_runtime-B2.js'], dynamicImports: ['pages/home.tsx', 'chat.tsx'] },
    '_runtime-B2.js': { file: 'assets/runtime-B2.js' },
    'pages/home.tsx': { file: 'assets/home-C3.js', isDynamicEntry: true, imports: ['_runtime-B2.js', 'index.html'] },
    'chat.tsx': { file: 'assets/chat-D4.js', isDynamicEntry: true },
  }));
  for (const route of publicRoutes) write(clientDir, htmlFileFor(route.path), htmlFor(route.path));
}

const page = (...tags: string[]) => `<!doctype html><html><head>${tags.join('')}</head><body><script type="application/ld+json">{}</script></body></html>`;
const entryScript = '<script type="module" crossorigin src="/assets/entry-A1.js"></script>';

function run() {
  const result = spawnSync(process.execPath, [script], {
    env: { ...process.env, BUILD_OUT_DIR: clientDir, WORKER_DRY_RUN_DIR: workerDir },
    encoding: 'utf8',
  });
  return { status: result.status, out: `${result.stdout}\n${result.stderr}` };
}

/** The printed row for a label: its cells, split on runs of spaces. */
const rowOf = (out: string, label: string) => out.split('\n').find((line) => line.startsWith(`${label} `))?.trim().split(/\s{2,}/) ?? [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cpa-budgets-'));
  clientDir = join(dir, 'client');
  workerDir = join(dir, 'worker');
  write(workerDir, 'index.js', 'export default { fetch() { return new Response("ok"); } };'.repeat(100));
  // Neither counts: wrangler writes them next to the bundle, neither is uploaded as code.
  write(workerDir, 'index.js.map', incompressible(400));
  write(workerDir, 'README.md', 'built output');
});

afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('scripts/check-budgets.ts', () => {
  it('counts what the HTML loads and its static imports once each, never dynamic imports, and passes within budget', () => {
    writeBuild((path) => page(entryScript, path === '/' ? '<link rel="modulepreload" crossorigin href="/assets/home-C3.js">' : ''));
    const { status, out } = run();
    expect(out).not.toContain('Over budget');
    expect(status).toBe(0);
    // Home: entry + runtime (the entry's static import, also imported by the page chunk) + page chunk.
    expect(rowOf(out, '/ JS (3 files)')).toEqual(['/ JS (3 files)', gzipKb(entry, runtime, homePage), '80']);
    expect(rowOf(out, '/faq JS (2 files)')).toEqual(['/faq JS (2 files)', gzipKb(entry, runtime), '100']);
    const workerJs = 'export default { fetch() { return new Response("ok"); } };'.repeat(100);
    expect(rowOf(out, 'worker bundle')).toEqual(['worker bundle', (workerJs.length / 1024).toFixed(1), gzipKb(workerJs), '320']);
  });

  it('fails on a route over 100 KB, naming it, and on a home page over 80 KB', () => {
    write(clientDir, 'assets/big-E5.js', incompressible(90));
    writeBuild((path) =>
      path === '/contact' || path === '/'
        ? page(entryScript, `<script src="/assets/big-E5.js" type="module"></script>`, '<script type="module" src="/assets/chat-D4.js"></script>')
        : page(entryScript),
    );
    const { status, out } = run();
    expect(status).toBe(1);
    expect(out).toMatch(/^ {2}\/ JavaScript \d+\.\d KB gzip > 80 KB$/m);
    expect(out).toMatch(/^ {2}\/contact JavaScript \d+\.\d KB gzip > 100 KB$/m);
    expect(out).not.toMatch(/\/faq JavaScript/);
  });

  it('fails on a worker bundle over 320 KB gzip', () => {
    writeBuild(() => page(entryScript));
    write(workerDir, 'index.js', incompressible(330));
    const { status, out } = run();
    expect(status).toBe(1);
    expect(out).toMatch(/worker bundle \d+\.\d KB gzip > 320 KB/);
  });

  it('also counts what the prerender recorded a page loads after its first paint (.vite/page-scripts.json)', () => {
    // The islands entry imports its runtime (and the page its chat) dynamically: invisible in the
    // HTML, recorded by scripts/prerender.ts.
    writeBuild(() => page(entryScript));
    write(clientDir, '.vite/page-scripts.json', JSON.stringify({ 'contact.html': ['assets/entry-A1.js', 'assets/chat-D4.js'] }));
    const { status, out } = run();
    expect(status).toBe(1);
    expect(rowOf(out, '/contact JS (3 files)')[1]).toBe(gzipKb(entry, runtime, lazyChat));
    expect(out).toMatch(/^ {2}\/contact JavaScript \d+\.\d KB gzip > 100 KB$/m);
    expect(rowOf(out, '/faq JS (2 files)')[1]).toBe(gzipKb(entry, runtime));
  });

  it('fails when the HTML references a script the build does not have', () => {
    writeBuild((path) => page(entryScript, path === '/about' ? '<link rel="modulepreload" href="/assets/gone-F6.js">' : ''));
    const { status, out } = run();
    expect(status).toBe(1);
    expect(out).toContain('assets/gone-F6.js is referenced by the build but missing');
  });
});
