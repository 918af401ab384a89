// The second half of `npm run build`: renders every public route to static HTML (title, meta,
// canonical, Open Graph, JSON-LD and the page's content in the first response), writes a shell
// for client-only screens, the 404 page, the newsletter issue shell, robots.txt and .assetsignore
// (sitemap.xml is the worker's: worker/routes/site-pages.ts). Honours
// BUILD_OUT_DIR. `npm start`, the browser tests, `npm run check` and `npm run deploy` all run this
// same build (docs/decisions/0007-one-build-real-404s.md).
//
// Where the files go (Workers Static Assets, html_handling "auto-trailing-slash",
// not_found_handling "404-page"):
//   /            -> index.html       (prerendered home)
//   /services    -> services.html    (and likewise for every other public route)
//   /admin...    -> admin.html, admin/login.html, ... : the empty shell (noindex), never the home
//                                     page's content flashing before the admin screen renders.
//   anything else -> 404.html, served with status 404: the prerendered 404 page (noindex).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createHash } from 'node:crypto';
import Beasties from 'beasties';
import { build } from 'vite';
import { splitStylesheet } from './lib/late-css.ts';
import { htmlFileFor, ISSUE_PROBE, ISSUE_SHELL_PATH, ISSUE_SHELL_PLACEHOLDER, NOT_FOUND_PROBE, publicRoutes } from '#core/public-routes';

const projectRoot = fileURLToPath(new URL('..', import.meta.url));
const outDir = process.env.BUILD_OUT_DIR || join(projectRoot, 'dist/client');


interface ServerEntry {
  renderRoute(pathname: string): Promise<{ html: string; head: import('../web/lib/page-meta').HeadMeta | null; status: number }>;
  renderHeadTags(head: import('../web/lib/page-meta').HeadMeta): string;
  routes: import('react-router').RouteObject[];
  siteUrl: string;
  islands: Record<string, { module: string }>;
}

type Manifest = Record<string, { file: string; imports?: string[]; dynamicImports?: string[] }>;

/** The browser entry of the prerendered pages, as Vite's manifest names it (web/islands.tsx). */
const ISLANDS_ENTRY = 'islands.tsx';

/** The islands runtime (web/islands/runtime.tsx), which the entry imports after the first paint. */
const ISLANDS_RUNTIME = 'islands/runtime.tsx';

/**
 * The scripts of a prerendered page (docs/decisions/0009-islands-on-prerendered-pages.md): `tag` is
 * the islands entry and its static imports (fetchpriority="low"; it loads the rest after the page
 * has loaded, so nothing else is fetched early and nothing competes with the document); `files`
 * lists everything the page then loads before any interaction: the entry, the runtime with its
 * static imports, and the chunk of every island hydrated at once (with their static imports).
 * Islands hydrated when visible load later. scripts/check-budgets.ts sums `files` (written to the
 * build-only .vite/page-scripts.json).
 */
function islandScripts(manifest: Manifest, moduleChunks: Record<string, string>, islands: ServerEntry['islands'], html: string): { tag: string; files: string[] } {
  const entry = manifest[ISLANDS_ENTRY];
  if (!entry) throw new Error(`the manifest has no ${ISLANDS_ENTRY} entry`);
  if (!entry.dynamicImports?.includes(ISLANDS_RUNTIME)) throw new Error(`${ISLANDS_ENTRY} no longer imports ${ISLANDS_RUNTIME}`);
  const files = new Set<string>([entry.file]);
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk) throw new Error(`the manifest has no ${key}`);
    if (files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const imported of entry.imports ?? []) visit(imported);
  visit(ISLANDS_RUNTIME);
  const names = new Set([...html.matchAll(/<div data-island="([^"]+)"( data-hydrate="visible")?/g)].filter((m) => !m[2]).map((m) => m[1]));
  for (const name of names) {
    const module = Object.hasOwn(islands, name) ? islands[name].module : undefined;
    if (!module) throw new Error(`unknown island "${name}" (web/islands/registry.ts)`);
    // The chunk holding the island's module (vite.config.ts writes the map), as the manifest keys it.
    const file = moduleChunks[module];
    const key = Object.keys(manifest).find((k) => manifest[k].file === file);
    if (!key) throw new Error(`no chunk holds island module ${module}`);
    visit(key);
  }
  // The entry's own static imports (Vite's preload helper) are announced beside it, so they arrive
  // with it rather than one round trip later: the document's load event, which starts the runtime,
  // waits for them. They are fetched before the first paint either way.
  const preloads = (entry.imports ?? []).map((key) => `<link rel="modulepreload" crossorigin fetchpriority="low" href="/${manifest[key].file}">`);
  return { tag: [...preloads, `<script type="module" crossorigin fetchpriority="low" src="/${entry.file}"></script>`].join(''), files: [...files] };
}

/** The shell's own scripts (the single-page app's entry and its preloads), which a prerendered page replaces. */
const SPA_SCRIPTS = /\s*<script type="module" crossorigin src="[^"]+"><\/script>|\s*<link rel="modulepreload" crossorigin href="[^"]+">/g;

async function main() {
  const ssrDir = mkdtempSync(join(tmpdir(), 'cpa-prerender-'));
  try {
    await build({
      configFile: join(projectRoot, 'vite.config.ts'),
      logLevel: 'warn',
      // Everything bundled into one file, so it runs from a temporary directory.
      ssr: { noExternal: true },
      build: { ssr: 'entry-server.tsx', outDir: ssrDir, emptyOutDir: true, sourcemap: false, minify: false },
    });
    const entry = (await import(pathToFileURL(join(ssrDir, 'entry-server.js')).href)) as ServerEntry;
    const template = readFileSync(join(outDir, 'index.html'), 'utf8');
    const manifestPath = join(outDir, '.vite/manifest.json');
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
    const moduleChunks = JSON.parse(readFileSync(join(outDir, '.vite/module-chunks.json'), 'utf8')) as Record<string, string>;
    const headBlock = /<!--app-head-->[\s\S]*?<!--\/app-head-->/;
    if (!headBlock.test(template) || !template.includes('<div id="root"></div>')) {
      throw new Error('web/index.html lost its <!--app-head-->...<!--/app-head--> block or its empty <div id="root"></div>');
    }
    // The shell keeps index.html's default title and description.
    const shell = template.replace(headBlock, (block) => block.replace(/<!--\/?app-head-->/g, '') + '\n    <meta name="robots" content="noindex" />');

    // Client-only screens (admin, e-mail links): the shell, under their own file names.
    const children = entry.routes[0]?.children ?? [];
    const publicPaths = new Set<string>(publicRoutes.map((r) => r.path));
    for (const child of children) {
      if (child.index || !child.path || child.path.includes(':') || child.path.includes('*')) continue;
      const pathname = `/${child.path}`;
      if (publicPaths.has(pathname)) continue;
      writeFile(htmlFileFor(pathname), shell);
    }

    // A prerendered page: its head, its HTML, the islands entry in place of the single-page app's,
    // and its critical CSS inlined (the rules its HTML uses: the first paint waits for no
    // stylesheet); what islands render later comes in the page's late stylesheet (scripts/lib/late-css.ts).
    const beasties = new Beasties({
      path: outDir,
      publicPath: '/',
      preload: 'body',
      pruneSource: false,
      inlineFonts: false,
      keyframes: 'critical',
      logLevel: 'warn',
      // Tailwind writes its spacing utilities (space-y-*, divide-*) as :where(...) selectors, which
      // beasties cannot match against the HTML: kept, or the page would shift when the full sheet lands.
      allowRules: [/:where\(/, /:is\(/, /:not\(/],
    });
    const pageScripts: Record<string, string[]> = {};
    const prerenderedPage = async (file: string, head: import('../web/lib/page-meta').HeadMeta, html: string, prerenderedPath: string) => {
      const scripts = islandScripts(manifest, moduleChunks, entry.islands, html);
      pageScripts[file] = scripts.files;
      // The markers stay: the worker puts the published content's head and HTML between them
      // (worker/services/content/published-pages.ts).
      const page = template
        .replace(headBlock, () => `<!--app-head-->${entry.renderHeadTags(head)}<!--/app-head-->`)
        .replace(SPA_SCRIPTS, '')
        .replace('</head>', () => `  ${scripts.tag}\n  </head>`)
        .replace('<div id="root"></div>', () => `<div id="root" data-prerendered="${prerenderedPath}"><!--app-html-->${html}<!--/app-html--></div>`);
      return inlineCriticalCss(page, await beasties.process(page));
    };

    for (const route of publicRoutes) {
      const { html, head, status } = await entry.renderRoute(route.path);
      if (status !== 200) throw new Error(`${route.path} rendered with status ${status}`);
      if (!head) throw new Error(`${route.path} did not call usePageMeta`);
      writeFile(htmlFileFor(route.path), await prerenderedPage(htmlFileFor(route.path), head, html, route.path));
    }

    // The 404 page: rendered through the route table's catch-all, so it is the same component the
    // client shows after a client-side navigation to an unknown path; served for any unknown path.
    const notFound = await entry.renderRoute(NOT_FOUND_PROBE);
    if (!notFound.head?.noindex) throw new Error('the 404 page must be noindex');
    writeFile('404.html', await prerenderedPage('404.html', notFound.head, notFound.html, '*'));

    // A newsletter issue's page (/newsletter/:id): the issue page in its loading state, which is the
    // same for every issue. The worker serves it for a sent issue only, with the issue's title and
    // description in the head and its path in data-prerendered (worker/routes/site-pages.ts); an
    // unknown id gets 404.html with status 404. Its island reads the id from the address.
    const issue = await entry.renderRoute(ISSUE_PROBE);
    if (!issue.head || issue.head.noindex) throw new Error('the newsletter issue page must call usePageMeta and be indexable');
    writeFile(htmlFileFor(ISSUE_SHELL_PATH), await prerenderedPage(htmlFileFor(ISSUE_SHELL_PATH), issue.head, issue.html, ISSUE_SHELL_PLACEHOLDER));
    // Build-only (never uploaded): what each page loads before interaction, for scripts/check-budgets.ts.
    writeFile('.vite/page-scripts.json', JSON.stringify(pageScripts, null, 1));

    // No sitemap.xml here: it lists the sent newsletter issues, which are data, so the worker
    // serves it (worker/routes/site-pages.ts, wrangler.jsonc run_worker_first).
    const siteUrl = entry.siteUrl;
    writeFile('robots.txt', `User-agent: *\nAllow: /\nDisallow: /admin\nDisallow: /api/\n\nSitemap: ${siteUrl}/sitemap.xml\n`);
    // Build-only files stay on disk for inspection but are never uploaded or served: wrangler reads
    // .assetsignore (gitignore syntax) in the assets directory, in `wrangler deploy` and `wrangler dev`.
    writeFile('.assetsignore', '# Build-only files (scripts/prerender.ts): never uploaded, never served.\n.vite/\n');
    await buildPageRenderer(manifestPath);
    console.log(`prerendered ${publicRoutes.length} routes and the 404 page into ${outDir}, and built the worker's page renderer`);
  } finally {
    rmSync(ssrDir, { recursive: true, force: true });
  }
}

/**
 * The worker's page renderer (web/entry-worker.tsx; docs/decisions/0016-published-content-serving.md):
 * the public pages with the published content or a draft, built here with the same Vite config and
 * defines as the prerender (site URL, build year, Turnstile), for workerd, into one file that the
 * worker's bundle takes in as '#page-renderer' (package.json "imports"). Beside it, build-id.js names
 * this build (the client's manifest and the renderer), so pages rendered by an earlier deploy, which
 * name its scripts, are never served by this one.
 */
async function buildPageRenderer(manifestPath: string) {
  const dir = join(projectRoot, 'dist/page-renderer');
  await build({
    configFile: join(projectRoot, 'vite.config.ts'),
    logLevel: 'warn',
    ssr: { noExternal: true, target: 'webworker', resolve: { conditions: ['workerd', 'worker', 'browser'], externalConditions: ['workerd', 'worker', 'browser'] } },
    publicDir: false,
    // renderToString alone: react-dom/server would bring the streaming renderer too.
    resolve: { alias: { 'react-dom/server': join(projectRoot, 'node_modules/react-dom/cjs/react-dom-server-legacy.browser.production.js') } },
    plugins: [clientOnlyImports()],
    build: {
      ssr: 'entry-worker.tsx',
      outDir: dir,
      emptyOutDir: true,
      manifest: false,
      sourcemap: false,
      minify: true,
      // zod and the kernel (core/) come from the worker's own bundle, once (wrangler bundles this file in).
      rolldownOptions: { external: [/^zod(\/|$)/, /^#core\//], output: { codeSplitting: false } },
    },
  });
  const renderer = readFileSync(join(dir, 'entry-worker.js'));
  const id = createHash('sha256').update(readFileSync(manifestPath)).update(renderer).digest('base64url').slice(0, 16);
  writeFileSync(join(dir, 'build-id.js'), `// Written by scripts/prerender.ts: names the build the page renderer belongs to.
export const buildId = ${JSON.stringify(id)};
`);
}

/**
 * What the web code loads with import() (the chat panel, the booking calendar, form validation, the
 * toasts, the API client) runs in the browser only, after an interaction: never while a page is
 * rendered to HTML. The page renderer leaves it out (an import() there fails if ever called), which
 * keeps the date picker, zod's schemas and the rest out of the worker's bundle.
 */
function clientOnlyImports(): import('vite').Plugin {
  return {
    name: 'page-renderer-client-only-imports',
    enforce: 'pre',
    transform(code, id) {
      if (!/[\\/]web[\\/].*\.tsx?$/.test(id) || !code.includes('import(')) return null;
      return code.replace(/\bimport\((['"][^'"]+['"])\)/g, (_, specifier: string) => `Promise.reject(new Error('client-only import ' + ${specifier}))`);
    },
  };
}

/**
 * The page with its critical CSS (the rules beasties found its HTML uses) inlined where the
 * stylesheet link was, and its late stylesheet (what the critical CSS lacks, scripts/lib/late-css.ts)
 * written under assets/ by its content's hash and named in the root's data-stylesheet: the islands
 * runtime links it after the page has loaded (web/islands/runtime.tsx), so it never competes with
 * the first paint. Without JavaScript, a <noscript> link loads the whole stylesheet. Only beasties'
 * <style> is taken, so the rest of the page keeps the markup the prerender wrote (beasties
 * reserialises the whole document).
 */
function inlineCriticalCss(page: string, processed: string): string {
  const link = /\s*<link rel="stylesheet" crossorigin href="(\/assets\/[^"]+\.css)">/;
  const href = link.exec(page)?.[1];
  const found = [...processed.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1]).join('');
  if (!href || !found) throw new Error('the prerendered page lost its stylesheet link, or beasties found no critical CSS');
  const { critical, late } = splitStylesheet(readFileSync(join(outDir, href), 'utf8'), found);
  const lateHref = `/assets/late-${createHash('sha256').update(late).digest('base64url').slice(0, 10)}.css`;
  writeFile(lateHref, late);
  return page
    .replace(link, () => `\n    <style>${critical}</style>`)
    .replace(/<div id="root"( data-prerendered="[^"]*")>/, (_, prerendered: string) => `<div id="root"${prerendered} data-stylesheet="${lateHref}">`)
    .replace('</body>', () => `  <noscript><link rel="stylesheet" crossorigin href="${href}"></noscript>\n  </body>`);
}

function writeFile(name: string, content: string) {
  const target = join(outDir, name);
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, content);
}

await main();
// Rendering leaves timers behind (React Query's cache collection, 5 minutes): the build is done,
// so end the process rather than wait for them.
process.exit(0);
