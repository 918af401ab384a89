// The second half of `npm run build`: renders every public route to static HTML (title, meta,
// canonical, Open Graph, JSON-LD and the page's content in the first response), writes a shell
// for client-only screens, and generates sitemap.xml and robots.txt. Honours BUILD_OUT_DIR.
//
// Where the files go (Workers Static Assets, html_handling "auto-trailing-slash"):
//   /            -> index.html       (prerendered home; also the SPA fallback for unknown paths,
//                                     which web/main.tsx then renders on the client: the 404 page)
//   /services    -> services.html    (and likewise for every other public route)
//   /admin...    -> admin.html, admin/login.html, ... : the empty shell (noindex), never the home
//                                     page's content flashing before the admin screen renders.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'vite';

const projectRoot = fileURLToPath(new URL('..', import.meta.url));
const outDir = process.env.BUILD_OUT_DIR ?? join(projectRoot, 'dist/client');

/** Public routes: prerendered, and (except the payment pages) listed in the sitemap. */
const publicRoutes = [
  { path: '/', page: 'pages/home.tsx', priority: '1.0', sitemap: true },
  { path: '/services', page: 'pages/services.tsx', priority: '0.9', sitemap: true },
  { path: '/about', page: 'pages/about.tsx', priority: '0.8', sitemap: true },
  { path: '/resources', page: 'pages/resources.tsx', priority: '0.7', sitemap: true },
  { path: '/faq', page: 'pages/faq.tsx', priority: '0.8', sitemap: true },
  { path: '/contact', page: 'pages/contact.tsx', priority: '0.9', sitemap: true },
  { path: '/schedule', page: 'pages/schedule.tsx', priority: '0.9', sitemap: true },
  { path: '/privacy-policy', page: 'pages/privacy-policy.tsx', priority: '0.3', sitemap: true },
  { path: '/payment-success', page: 'pages/payment-success.tsx', priority: '0.1', sitemap: false },
  { path: '/payment-cancelled', page: 'pages/payment-cancelled.tsx', priority: '0.1', sitemap: false },
] as const;

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

const fileFor = (pathname: string) => (pathname === '/' ? 'index.html' : `${pathname.slice(1)}.html`);

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
      writeFile(fileFor(pathname), shell);
    }

    for (const route of publicRoutes) {
      const { html, head, status } = await entry.renderRoute(route.path);
      if (status !== 200) throw new Error(`${route.path} rendered with status ${status}`);
      if (!head) throw new Error(`${route.path} did not call usePageMeta`);
      const page = template
        .replace(headBlock, () => entry.renderHeadTags(head))
        .replace('</head>', () => `  ${preloadLinks(manifest, route.page, template)}\n  </head>`)
        .replace('<div id="root"></div>', () => `<div id="root" data-prerendered="${route.path}">${html}</div>`);
      writeFile(fileFor(route.path), page);
    }

    const siteUrl = entry.siteUrl;
    const today = new Date().toISOString().slice(0, 10);
    const urls = publicRoutes
      .filter((r) => r.sitemap)
      .map((r) => `  <url>\n    <loc>${siteUrl}${r.path}</loc>\n    <lastmod>${today}</lastmod>\n    <priority>${r.priority}</priority>\n  </url>`);
    writeFile('sitemap.xml', `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`);
    writeFile('robots.txt', `User-agent: *\nAllow: /\nDisallow: /admin\nDisallow: /api/\n\nSitemap: ${siteUrl}/sitemap.xml\n`);
    // The manifest was only for this step; it is not a file the site should serve.
    rmSync(join(outDir, '.vite'), { recursive: true, force: true });
    console.log(`prerendered ${publicRoutes.length} routes into ${outDir}`);
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
