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
import { build } from 'vite';
import { htmlFileFor, ISSUE_SHELL_PATH, ISSUE_SHELL_PLACEHOLDER, publicRoutes } from './lib/public-routes.ts';

const projectRoot = fileURLToPath(new URL('..', import.meta.url));
const outDir = process.env.BUILD_OUT_DIR || join(projectRoot, 'dist/client');


interface ServerEntry {
  renderRoute(pathname: string): Promise<{ html: string; head: import('../web/lib/page-meta').HeadMeta | null; status: number }>;
  renderHeadTags(head: import('../web/lib/page-meta').HeadMeta): string;
  routes: import('react-router').RouteObject[];
  siteUrl: string;
}

type Manifest = Record<string, { file: string; imports?: string[]; isEntry?: boolean }>;

/**
 * modulepreload links for a page's lazy chunk and everything it imports statically (and the
 * per-page React Query wrapper when the page uses it), so the browser fetches them in parallel
 * with the entry instead of discovering them one level at a time before hydration.
 */
function preloadLinks(manifest: Manifest, page: string, alreadyLinked: string): string {
  const files = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || chunk.isEntry || files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit(page);
  if (manifest['lib/with-query-client.tsx'] && usesQueryClient.has(page)) visit('lib/with-query-client.tsx');
  return [...files]
    .filter((file) => !alreadyLinked.includes(`/${file}"`))
    .map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`)
    .join('\n    ');
}

/**
 * Prerendered pages web/routes.tsx loads through lazyPage (with the React Query client). None at
 * the moment: the contact and booking forms send with plain requests and load zod on submit.
 */
const usesQueryClient = new Set<string>([]);

/** A path no route claims: the router's catch-all renders the 404 page for it. */
const NOT_FOUND_PROBE = '/__not-found__';
/** Any issue id: the issue page renders its loading state, the same for every id. */
const ISSUE_PROBE = '/newsletter/1';


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

    for (const route of publicRoutes) {
      const { html, head, status } = await entry.renderRoute(route.path);
      if (status !== 200) throw new Error(`${route.path} rendered with status ${status}`);
      if (!head) throw new Error(`${route.path} did not call usePageMeta`);
      const page = template
        .replace(headBlock, () => entry.renderHeadTags(head))
        .replace('</head>', () => `  ${preloadLinks(manifest, route.page, template)}\n  </head>`)
        .replace('<div id="root"></div>', () => `<div id="root" data-prerendered="${route.path}">${html}</div>`);
      writeFile(htmlFileFor(route.path), page);
    }

    // The 404 page: rendered through the route table's catch-all, so it is the same component the
    // client shows after a client-side navigation to an unknown path. data-prerendered="*" tells
    // web/main.tsx to hydrate it on whatever unknown path it was served for.
    const notFound = await entry.renderRoute(NOT_FOUND_PROBE);
    if (!notFound.head?.noindex) throw new Error('the 404 page must be noindex');
    writeFile(
      '404.html',
      template
        .replace(headBlock, () => entry.renderHeadTags(notFound.head!))
        .replace('</head>', () => `  ${preloadLinks(manifest, 'pages/not-found.tsx', template)}\n  </head>`)
        .replace('<div id="root"></div>', () => `<div id="root" data-prerendered="*">${notFound.html}</div>`),
    );

    // A newsletter issue's page (/newsletter/:id): the issue page in its loading state, which is the
    // same for every issue. The worker serves it for a sent issue only, with the issue's title and
    // description in the head and its path in data-prerendered, so web/main.tsx hydrates it
    // (worker/routes/site-pages.ts); an unknown id gets 404.html with status 404.
    const issue = await entry.renderRoute(ISSUE_PROBE);
    if (!issue.head || issue.head.noindex) throw new Error('the newsletter issue page must call usePageMeta and be indexable');
    writeFile(
      htmlFileFor(ISSUE_SHELL_PATH),
      template
        .replace(headBlock, () => entry.renderHeadTags(issue.head!))
        .replace('</head>', () => `  ${preloadLinks(manifest, 'pages/newsletter-issue.tsx', template)}\n  </head>`)
        .replace('<div id="root"></div>', () => `<div id="root" data-prerendered="${ISSUE_SHELL_PLACEHOLDER}">${issue.html}</div>`),
    );

    // No sitemap.xml here: it lists the sent newsletter issues, which are data, so the worker
    // serves it (worker/routes/site-pages.ts, wrangler.toml run_worker_first).
    const siteUrl = entry.siteUrl;
    writeFile('robots.txt', `User-agent: *\nAllow: /\nDisallow: /admin\nDisallow: /api/\n\nSitemap: ${siteUrl}/sitemap.xml\n`);
    // Build-only files stay on disk for inspection but are never uploaded or served: wrangler reads
    // .assetsignore (gitignore syntax) in the assets directory, in `wrangler deploy` and `wrangler dev`.
    writeFile('.assetsignore', '# Build-only files (scripts/prerender.ts): never uploaded, never served.\n.vite/\n');
    console.log(`prerendered ${publicRoutes.length} routes and the 404 page into ${outDir}`);
  } finally {
    rmSync(ssrDir, { recursive: true, force: true });
  }
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
