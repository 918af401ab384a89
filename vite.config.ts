import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import { unstable_readConfig } from 'wrangler';
import { firm } from '#core/content/firm';
import { tagManagerIdOf, turnstileSiteKeyOf } from '#core/site-keys';
import { adminContentSecurityPolicy, adminSecurityHeaders, publicSecurityHeaders } from './worker/middleware/security-headers.ts';

/**
 * The site's public origin, SITE_URL in wrangler.jsonc's "vars": the one source for the worker's
 * e-mailed links and for the canonical URLs, JSON-LD and sitemap the build writes. Read with
 * wrangler's own config reader, so the build sees exactly what the deployed worker gets.
 */
function publicSiteUrl(): string {
  const config = unstable_readConfig({ config: fileURLToPath(new URL('./wrangler.jsonc', import.meta.url)) }, { hideWarnings: true });
  const value = config.vars.SITE_URL;
  if (typeof value !== 'string' || !/^https?:\/\/[^/]+\/?$/.test(value)) {
    throw new Error(`wrangler.jsonc "vars" SITE_URL must be the site's origin, like "https://www.example.com" (got ${JSON.stringify(value)})`);
  }
  return value.replace(/\/$/, '');
}

/** Puts the firm's name (core/content/firm.ts) into web/index.html's default title and description, at %FIRM_NAME%. */
function firmNameInHtml(): Plugin {
  const escaped = firm.name.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  return { name: 'firm-name-in-html', transformIndexHtml: (html) => html.replaceAll('%FIRM_NAME%', escaped) };
}

/**
 * GTM_ID (or TURNSTILE_SITE_KEY) as the build sees it: the build environment's, else wrangler.jsonc's
 * "vars". The container id and the site key are public (they are in every page), so "vars" is the
 * place for them: the worker and the build then read one value.
 */
function publicVar(name: 'GTM_ID' | 'TURNSTILE_SITE_KEY'): string | undefined {
  if (process.env[name]) return process.env[name];
  const config = unstable_readConfig({ config: fileURLToPath(new URL('./wrangler.jsonc', import.meta.url)) }, { hideWarnings: true });
  const value = config.vars[name];
  return typeof value === 'string' ? value : undefined;
}

/**
 * Writes dist/client/_headers so Workers Static Assets sends the same security headers with HTML
 * documents and files as the worker sends with API answers (one definition: worker/middleware/security-headers.ts).
 * The public CSP allows Tag Manager only when the build knows a container id (and Turnstile only
 * when it knows a site key); the /admin shells
 * get the first-party-only CSP instead ("! name" detaches the header the /* rule set), and the
 * headers only the back office sends (docs/decisions/0010-opener-policy-on-the-back-office.md).
 */
function staticSecurityHeaders(): Plugin {
  return {
      name: 'static-security-headers',
      apply: 'build',
      generateBundle() {
        const headers = publicSecurityHeaders({
          tagManager: tagManagerIdOf(publicVar('GTM_ID')) !== null,
          turnstile: turnstileSiteKeyOf(publicVar('TURNSTILE_SITE_KEY')) !== null,
        });
        const lines = Object.entries(headers).map(([name, value]) => `  ${name}: ${value}`);
        // The admin shells' own headers: their CSP, and what only the back office sends (the opener policy).
        const adminOnly = Object.entries(adminSecurityHeaders).filter(([name]) => name !== 'Content-Security-Policy' && !(name in headers));
        const admin = `/admin*\n  ! Content-Security-Policy\n  Content-Security-Policy: ${adminContentSecurityPolicy}\n${adminOnly.map(([name, value]) => `  ${name}: ${value}\n`).join('')}`;
        const immutable = '/assets/*\n  Cache-Control: public, max-age=31536000, immutable\n';
        this.emitFile({ type: 'asset', fileName: '_headers', source: `/*\n${lines.join('\n')}\n${admin}${immutable}` });
      },
    };
  }

/**
 * Writes .vite/module-chunks.json (build-only, never uploaded: .assetsignore): which chunk holds
 * each of the app's own modules, keyed like Vite's manifest (path under web/). The prerender step
 * reads it to modulepreload the chunks of the islands a page holds, wherever the chunking put them.
 */
function moduleChunks(): Plugin {
  const webRoot = fileURLToPath(new URL('./web/', import.meta.url));
  return {
    name: 'module-chunks',
    apply: 'build',
    generateBundle(_options, bundle) {
      const map: Record<string, string> = {};
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk') continue;
        for (const id of chunk.moduleIds) if (id.startsWith(webRoot)) map[id.slice(webRoot.length).replace(/\\/g, '/')] = chunk.fileName;
      }
      this.emitFile({ type: 'asset', fileName: '.vite/module-chunks.json', source: JSON.stringify(map, null, 1) });
    },
  };
}

  export default defineConfig(({ command }) => {
    // A build is a production build even when a test runner starts it with NODE_ENV=test: Vite and
    // the React plugin would otherwise ship React's development build (twice the size, dev-only
    // double effects) to the browser tests.
    if (command === 'build') process.env.NODE_ENV = 'production';
    return {
    define: {
      // The footer's copyright year in the prerendered HTML; the browser's clock takes over after hydration.
      'import.meta.env.VITE_BUILD_YEAR': JSON.stringify(String(new Date().getFullYear())),
      'import.meta.env.VITE_SITE_URL': JSON.stringify(publicSiteUrl()),
      // '1' when the build knows a Turnstile site key: the _headers CSP below then allows Cloudflare's
      // script, and the public forms load it when a visitor starts filling one (web/lib/turnstile.ts).
      'import.meta.env.VITE_TURNSTILE': JSON.stringify(turnstileSiteKeyOf(publicVar('TURNSTILE_SITE_KEY')) ? '1' : ''),
    },
    root: fileURLToPath(new URL('./web', import.meta.url)),
    publicDir: fileURLToPath(new URL('./web/public', import.meta.url)),
    plugins: [react(), tailwindcss(), firmNameInHtml(), staticSecurityHeaders(), moduleChunks()],
    build: {
      // BUILD_OUT_DIR lets the browser tests build into a private directory (parallel runs never
      // overwrite each other's assets); everything else uses dist/client, as wrangler.jsonc does.
      outDir: process.env.BUILD_OUT_DIR || fileURLToPath(new URL('./dist/client', import.meta.url)),
      emptyOutDir: true,
      target: 'es2022',
      // Read by scripts/prerender.ts (modulepreload of each page's chunks); kept on disk, never
      // uploaded (the .assetsignore the prerender step writes).
      manifest: true,
      rolldownOptions: {
        // Two browser entries: index.html (the single-page app of the client-only screens) and the
        // islands of the prerendered public pages (docs/decisions/0009-islands-on-prerendered-pages.md).
        input: {
          main: fileURLToPath(new URL('./web/index.html', import.meta.url)),
          islands: fileURLToPath(new URL('./web/islands.tsx', import.meta.url)),
        },
        output: {
          codeSplitting: {
            groups: [
              // React in one file every page needs, instead of three small ones; the router apart, as
              // only the single-page app loads it (the prerendered pages' islands have none).
              { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 20 },
              { name: 'router', test: /node_modules[\\/]react-router[\\/]/, priority: 20 },
              // Vite's dynamic-import preload helper on its own: the islands entry needs it and
              // nothing else before the first paint (it would otherwise land in a shared chunk).
              { name: 'preload-helper', test: /vite[\\/]preload-helper/, priority: 30 },
              // The frame every prerendered page hydrates at once (header, chat button, toaster,
              // cookie banner) with the icons it draws, in one file: one request instead of a dozen
              // small ones, the icons compiled in rather than fetched one by one (docs/decisions/0009-islands-on-prerendered-pages.md).
              {
                name: 'frame',
                test: /web[\\/](components[\\/]layout[\\/](site-header|lazy-toaster|page-parts)\.tsx|components[\\/]ui[\\/]use-toast\.ts|features[\\/]chat[\\/](components[\\/]chat-launcher\.tsx|chat-session\.ts)|features[\\/]cookie-consent[\\/](cookie-banner\.tsx|consent\.ts)|lib[\\/](analytics|consent)\.ts)$|core[\\/]content[\\/](firm|navigation)\.ts$|node_modules[\\/]lucide-react[\\/]dist[\\/]esm[\\/](icons[\\/](x|menu|message-circle)|createLucideIcon|Icon|defaultAttributes|context|shared[\\/].*)\.mjs$/,
                priority: 15,
              },
              // zod and the shared field rules in one file, loaded when a form is first submitted.
              { name: 'zod', test: /node_modules[\\/]zod[\\/]|core[\\/]schemas[\\/]fields\.ts$/, priority: 10 },
            ],
          },
        },
      },
    },
  };
});
