// What `npm run deploy` uploads: the production build (`npm run build`, the same one `npm start`,
// the browser tests and `npm run check` use), read back through `wrangler deploy --dry-run`, which
// walks the assets directory named in wrangler.jsonc and applies .assetsignore exactly as a real
// deploy does. Every public route must be there prerendered, and nothing build-only may be.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { htmlFileFor, ISSUE_SHELL_PATH, ISSUE_SHELL_PLACEHOLDER, publicRoutes } from '#core/public-routes';

const root = fileURLToPath(new URL('../..', import.meta.url));
const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${root}node_modules/.bin:${process.env.PATH ?? ''}`, WRANGLER_SEND_METRICS: 'false' };

let assetsDir = '';
/** Paths (relative, with a leading slash) that wrangler would upload as assets. */
let uploaded = new Set<string>();
let dryRunOutput = '';

const read = (path: string) => readFileSync(join(assetsDir, path), 'utf8');
const titleOf = (html: string) => /<title>([^<]*)<\/title>/.exec(html)?.[1] ?? '';

beforeAll(() => {
  // The build itself is the run's one `npm run build` (tests/harness/shared-build.ts, this project's global
  // setup), made as `npm run deploy` makes it: no BUILD_OUT_DIR, no GTM_ID.
  expect(inject('buildDir')).toBe(join(root, 'dist/client'));
  const outDir = mkdtempSync(join(tmpdir(), 'cpa-dry-run-'));
  try {
    // WRANGLER_LOG=debug makes wrangler list every asset it read and every one it ignored.
    const dryRun = spawnSync('wrangler', ['deploy', '--dry-run', '--outdir', outDir], {
      cwd: root,
      env: { ...env, WRANGLER_LOG: 'debug' },
      encoding: 'utf8',
    });
    dryRunOutput = `${dryRun.stdout}\n${dryRun.stderr}`;
    if (dryRun.status !== 0) throw new Error(`wrangler deploy --dry-run failed:\n${dryRunOutput}`);
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
  const read = /Read (\d+) files? from the assets directory (\S+)/.exec(dryRunOutput);
  if (!read) throw new Error(`wrangler did not report its assets directory:\n${dryRunOutput}`);
  assetsDir = read[2];
  const ignored = new Set([...dryRunOutput.matchAll(/^Ignoring asset: (.+)$/gm)].map((m) => `/${m[1].trim()}`));
  const listed = [...dryRunOutput.matchAll(/^(\/\S+)$/gm)].map((m) => m[1]);
  uploaded = new Set(listed.filter((path) => !ignored.has(path) && statSync(join(assetsDir, path)).isFile()));
}, 240_000);

describe('the directory `wrangler deploy` uploads', () => {
  it('is the build output named in wrangler.jsonc', () => {
    expect(assetsDir).toBe(join(root, 'dist/client'));
    expect(uploaded.size).toBeGreaterThan(20);
  });

  it('has every public route prerendered with its own title', () => {
    const titles = new Map<string, string>();
    for (const route of publicRoutes) {
      const file = `/${htmlFileFor(route.path)}`;
      expect(uploaded, route.path).toContain(file);
      const html = read(file);
      expect(html, route.path).toContain(`data-prerendered="${route.path}"`);
      // The late stylesheet the islands runtime links (scripts/lib/late-css.ts) is uploaded with it.
      expect(uploaded, route.path).toContain(/ data-stylesheet="(\/assets\/late-[\w-]+\.css)"/.exec(html)?.[1]);
      expect(html, route.path).toMatch(/<h1[\s>]/);
      const title = titleOf(html);
      expect(title, route.path).toMatch(/\| Northgate CPA$|^Northgate CPA/);
      titles.set(route.path, title);
    }
    // Own titles: no two routes share one, and none kept the template's default.
    expect(new Set(titles.values()).size).toBe(publicRoutes.length);
    const template = titleOf(read('/admin.html'));
    for (const [path, title] of titles) expect(title, path).not.toBe(template);
  });

  it("loads each public page's islands entry with its static imports announced beside it, and nothing else", () => {
    for (const route of publicRoutes) {
      const html = read(`/${htmlFileFor(route.path)}`);
      const scripts = [...html.matchAll(/<script type="module"[^>]*src="([^"]+)"/g)].map((m) => m[1]);
      expect(scripts, route.path).toHaveLength(1);
      // What the entry imports statically is fetched with it, not a round trip later.
      const imported = [...read(scripts[0]).matchAll(/(?:from|import)\s*"\.\/([^"]+\.js)"/g)].map((m) => `/assets/${m[1]}`);
      const preloaded = [...html.matchAll(/<link rel="modulepreload"[^>]*href="([^"]+)"/g)].map((m) => m[1]);
      expect(imported.length, route.path).toBeGreaterThan(0);
      expect(preloaded.sort(), route.path).toEqual(imported.sort());
    }
  });

  it('has the 404 page, prerendered and noindex', () => {
    expect(uploaded).toContain('/404.html');
    const html = read('/404.html');
    expect(titleOf(html)).toBe('404 Page Not Found | Northgate CPA');
    expect(html).toContain('<meta name="robots" content="noindex" />');
    expect(html).toContain('data-prerendered="*"');
    expect(html).toContain('Return to Home');
  });

  it('has the client-only screens as noindex shells, never the home page', () => {
    for (const file of ['/admin.html', '/admin/login.html', '/admin/subscribers.html', '/admin/availability.html', '/admin/chats.html', '/admin/content.html', '/admin/content/history.html', '/admin/content/faq.html', '/admin/content/privacy.html', '/appointment/cancel.html', '/appointment/reschedule.html', '/newsletter/confirmed.html', '/newsletter/unsubscribe.html', '/newsletter/unsubscribed.html', '/newsletter/invalid-link.html']) {
      expect(uploaded, file).toContain(file);
      const html = read(file);
      expect(html, file).toContain('<meta name="robots" content="noindex" />');
      expect(html, file).toContain('<div id="root"></div>');
    }
  });

  it('has no sitemap.xml (the worker serves it, with the sent newsletter issues), and robots.txt points to it', () => {
    // worker/routes/site-pages.ts answers /sitemap.xml first (wrangler.jsonc run_worker_first); its
    // content is checked in tests/newsletter/newsletter-archive.worker.test.ts. A static copy would go stale.
    expect(uploaded).not.toContain('/sitemap.xml');
    const origin = new URL(/<link rel="canonical" href="([^"]+)"/.exec(read('/index.html'))![1]).origin;
    expect(origin).toMatch(/^https:\/\//);
    expect(uploaded).toContain('/robots.txt');
    expect(read('/robots.txt')).toContain(`Sitemap: ${origin}/sitemap.xml`);
    expect(read('/robots.txt')).toContain('Disallow: /admin');
  });

  it('has the newsletter issue shell with every head tag the worker fills in, indexable', () => {
    // worker/routes/site-pages.ts serves it for a sent issue (never under its own address) and
    // rewrites these tags; a tag missing here would silently keep the generic text.
    const file = `/${htmlFileFor(ISSUE_SHELL_PATH)}`;
    expect(uploaded).toContain(file);
    const html = read(file);
    expect(html).toMatch(new RegExp(`<div id="root" data-prerendered="${ISSUE_SHELL_PLACEHOLDER}" data-stylesheet="/assets/late-[\\w-]+\\.css">`));
    expect(html).toContain('All issues');
    expect(html).toContain('<meta name="robots" content="index, follow" />');
    for (const tag of ['<title>', '<meta name="description" ', '<link rel="canonical" ', '<meta property="og:title" ', '<meta property="og:description" ', '<meta property="og:url" ', '<meta property="og:type" ']) {
      expect(html, tag).toContain(tag);
    }
  });

  it('has _headers, read by wrangler as configuration rather than served as a file', () => {
    expect(existsSync(join(assetsDir, '_headers'))).toBe(true);
    expect(uploaded).not.toContain('/_headers');
    const headers = read('/_headers');
    expect(headers).toContain('Content-Security-Policy:');
    expect(headers).toContain('X-Content-Type-Options: nosniff');
  });

  it('gives the /admin shells a first-party-only CSP, and the public pages no Tag Manager host without a container', () => {
    // _headers blocks: a path line, then indented header lines (worker/middleware/security-headers.ts, vite.config.ts).
    const blocks = new Map(
      read('/_headers')
        .split(/\n(?=\S)/)
        .map((block) => {
          const [path, ...lines] = block.trim().split('\n');
          return [path, lines.map((line) => line.trim())] as const;
        }),
    );
    const csp = (path: string) => blocks.get(path)?.find((line) => line.startsWith('Content-Security-Policy:')) ?? '';
    expect(csp('/*')).toContain("script-src 'self'");
    expect(csp('/*')).not.toMatch(/googletagmanager|google-analytics/);
    // The /* rule matches /admin too: its CSP is detached there, so only the admin one is sent.
    expect(blocks.get('/admin*')).toContain('! Content-Security-Policy');
    expect(csp('/admin*')).toContain("script-src 'self';");
    expect(csp('/admin*')).toContain("connect-src 'self';");
    expect(csp('/admin*')).not.toMatch(/google|frame-src/);
    // The opener policy is the back office's alone (docs/decisions/0010-opener-policy-on-the-back-office.md).
    expect(blocks.get('/admin*')).toContain('Cross-Origin-Opener-Policy: same-origin');
    expect(blocks.get('/*')?.some((line) => line.startsWith('Cross-Origin-Opener-Policy'))).toBe(false);
  });

  it('leaves out build-only files', () => {
    // The manifest is written for the prerender step and stays on disk, but .assetsignore keeps it out.
    expect(existsSync(join(assetsDir, '.vite/manifest.json'))).toBe(true);
    expect(read('/.assetsignore')).toContain('.vite/');
    for (const path of uploaded) {
      expect(path).not.toMatch(/^\/\.vite\/|\.map$|^\/\.assetsignore$|^\/_worker\.js/);
    }
  });
});
