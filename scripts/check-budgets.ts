// The size budgets (docs/operations.md), run at the end of `npm run check` after `npm run build` and
// `wrangler deploy --dry-run --outdir dist/worker-dry-run`. Sizes only, never timings, so the same
// build always gives the same answer:
//   - the worker bundle (every file wrangler wrote to the dry-run directory except source maps and
//     its README), raw and gzip: at most 320 KB gzip (docs/decisions/0016-published-content-serving.md);
//   - each prerendered public route's JavaScript before any interaction: the files its HTML loads
//     (every <script type="module" src> and <link rel="modulepreload" href>) and those the
//     prerender recorded it loads after the first paint (.vite/page-scripts.json), plus their static
//     imports as Vite's manifest lists them (`imports`, never `dynamicImports`: those load on first
//     use), each gzip-compressed at level 6 and summed: home at most 80 KB, any route at most 100 KB.
// Prints a table; exits 1 only when a budget is exceeded or a referenced file is missing.
// KB are 1024 bytes, as wrangler and scripts/bench-lighthouse.ts print them.
//
//   node scripts/check-budgets.ts
//   BUILD_OUT_DIR=/tmp/x node scripts/check-budgets.ts           another build's dist/client
//   WORKER_DRY_RUN_DIR=/tmp/y node scripts/check-budgets.ts      another dry run's --outdir
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { htmlFileFor, publicRoutes } from '#core/public-routes';

const projectRoot = fileURLToPath(new URL('..', import.meta.url));
const clientDir = process.env.BUILD_OUT_DIR || join(projectRoot, 'dist/client');
const workerDir = process.env.WORKER_DRY_RUN_DIR || join(projectRoot, 'dist/worker-dry-run');

const KB = 1024;
const WORKER_BUDGET_KB = 320;
const HOME_BUDGET_KB = 80;
const ROUTE_BUDGET_KB = 100;

type Manifest = Record<string, { file: string; imports?: string[] }>;

class MissingFile extends Error {}

const gzipSize = (bytes: Uint8Array) => gzipSync(bytes, { level: 6 }).length;
const kb = (bytes: number) => (bytes / KB).toFixed(1);

/** Every file under dir (recursively), as paths relative to dir. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)));
}

/** The worker as uploaded: wrangler's bundle and its extra modules, without source maps or README. */
function workerSize(): { raw: number; gzip: number } {
  if (!existsSync(workerDir)) throw new MissingFile(`${workerDir} is missing: run \`wrangler deploy --dry-run --outdir dist/worker-dry-run\` first`);
  const modules = filesUnder(workerDir).filter((file) => !file.endsWith('.map') && file !== 'README.md');
  if (modules.length === 0) throw new MissingFile(`${workerDir} holds no worker modules`);
  let raw = 0;
  let gzip = 0;
  for (const file of modules) {
    const bytes = readFileSync(join(workerDir, file));
    raw += bytes.length;
    gzip += gzipSize(bytes);
  }
  return { raw, gzip };
}

/** The value of attribute name in one start tag, or null. */
function attribute(tag: string, name: string): string | null {
  const match = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i').exec(tag);
  return match ? (match[1] ?? match[2] ?? match[3]) : null;
}

/** The scripts an HTML page loads up front: module scripts and modulepreloads, as build-relative paths. */
function scriptsLoadedBy(html: string): string[] {
  const urls: string[] = [];
  for (const [tag] of html.matchAll(/<script\b[^>]*>/gi)) {
    const src = attribute(tag, 'src');
    if (src && attribute(tag, 'type')?.toLowerCase() === 'module') urls.push(src);
  }
  for (const [tag] of html.matchAll(/<link\b[^>]*>/gi)) {
    const href = attribute(tag, 'href');
    const rel = attribute(tag, 'rel')?.toLowerCase().split(/\s+/) ?? [];
    if (href && rel.includes('modulepreload')) urls.push(href);
  }
  // Same-origin root-relative URLs ("/assets/x.js") name files in the build directory.
  return urls.map((url) => new URL(url, 'https://site.invalid/').pathname.slice(1));
}

/** The files plus everything they import statically, transitively, each once. */
function withStaticImports(files: string[], manifest: Manifest): string[] {
  const keyOfFile = new Map(Object.entries(manifest).map(([key, chunk]) => [chunk.file, key]));
  const seen = new Set<string>();
  const visitFile = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const key = keyOfFile.get(file);
    for (const imported of (key && manifest[key].imports) || []) {
      const chunk = manifest[imported];
      if (chunk) visitFile(chunk.file);
    }
  };
  for (const file of files) visitFile(file);
  return [...seen];
}

/** Gzip bytes of a route's JavaScript before interaction, and how many files that is. */
function routeJs(path: string, manifest: Manifest, gzipOf: (file: string) => number): { files: number; gzip: number } {
  const htmlPath = join(clientDir, htmlFileFor(path));
  if (!existsSync(htmlPath)) throw new MissingFile(`${htmlPath} is missing: run \`npm run build\` first`);
  // What the page loads before interaction: the HTML's own script references, plus what the
  // prerender recorded it loads after the first paint (scripts/prerender.ts, .vite/page-scripts.json:
  // the islands runtime and the page's islands, imported by the entry rather than linked).
  const recorded = pageScripts()[htmlFileFor(path)] ?? [];
  const files = withStaticImports([...scriptsLoadedBy(readFileSync(htmlPath, 'utf8')), ...recorded], manifest);
  return { files: files.length, gzip: files.reduce((sum, file) => sum + gzipOf(file), 0) };
}

let pageScriptsCache: Record<string, string[]> | undefined;
/** The prerender's record of each page's scripts (absent in builds without islands: then {}). */
function pageScripts(): Record<string, string[]> {
  if (!pageScriptsCache) {
    const path = join(clientDir, '.vite/page-scripts.json');
    pageScriptsCache = existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as Record<string, string[]>) : {};
  }
  return pageScriptsCache;
}

function readManifest(): Manifest {
  const manifestPath = join(clientDir, '.vite/manifest.json');
  if (!existsSync(manifestPath)) throw new MissingFile(`${manifestPath} is missing: run \`npm run build\` first`);
  return JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
}

function printTable(header: string[], rows: string[][]) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ').trimEnd();
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows) console.log(line(row));
}

function main(): number {
  const manifest = readManifest();
  const gzipCache = new Map<string, number>();
  const gzipOf = (file: string) => {
    let size = gzipCache.get(file);
    if (size === undefined) {
      const path = join(clientDir, file);
      if (!existsSync(path)) throw new MissingFile(`${path} is referenced by the build but missing`);
      size = gzipSize(readFileSync(path));
      gzipCache.set(file, size);
    }
    return size;
  };

  const over: string[] = [];
  const worker = workerSize();
  if (worker.gzip > WORKER_BUDGET_KB * KB) over.push(`worker bundle ${kb(worker.gzip)} KB gzip > ${WORKER_BUDGET_KB} KB`);

  const rows: string[][] = [['worker bundle', kb(worker.raw), kb(worker.gzip), String(WORKER_BUDGET_KB), worker.gzip > WORKER_BUDGET_KB * KB ? 'OVER' : '']];
  for (const route of publicRoutes) {
    const budget = route.path === '/' ? HOME_BUDGET_KB : ROUTE_BUDGET_KB;
    const js = routeJs(route.path, manifest, gzipOf);
    const exceeded = js.gzip > budget * KB;
    if (exceeded) over.push(`${route.path} JavaScript ${kb(js.gzip)} KB gzip > ${budget} KB`);
    rows.push([`${route.path} JS (${js.files} files)`, '', kb(js.gzip), String(budget), exceeded ? 'OVER' : '']);
  }

  console.log('\nSize budgets (KB = 1024 bytes; gzip level 6; route JS = module scripts, modulepreloads, recorded page scripts and their static imports)\n');
  printTable(['', 'KB raw', 'KB gzip', 'budget', ''], rows);
  if (over.length === 0) return 0;
  console.error(`\nOver budget:\n${over.map((line) => `  ${line}`).join('\n')}`);
  return 1;
}

try {
  process.exitCode = main();
} catch (error) {
  if (!(error instanceof MissingFile)) throw error;
  console.error(`check-budgets: ${error.message}`);
  process.exitCode = 1;
}
