import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import { unstable_readConfig } from 'wrangler';
import { firm } from './web/content/firm.ts';
import { adminContentSecurityPolicy, hasTagManager, securityHeaders, turnstileSiteKeyOf } from './worker/security-headers.ts';

/**
 * The site's public origin, SITE_URL in wrangler.toml's [vars]: the one source for the worker's
 * e-mailed links and for the canonical URLs, JSON-LD and sitemap the build writes. Read with
 * wrangler's own config reader, so the build sees exactly what the deployed worker gets.
 */
function publicSiteUrl(): string {
  const config = unstable_readConfig({ config: fileURLToPath(new URL('./wrangler.toml', import.meta.url)) }, { hideWarnings: true });
  const value = config.vars.SITE_URL;
  if (typeof value !== 'string' || !/^https?:\/\/[^/]+\/?$/.test(value)) {
    throw new Error(`wrangler.toml [vars] SITE_URL must be the site's origin, like "https://www.example.com" (got ${JSON.stringify(value)})`);
  }
  return value.replace(/\/$/, '');
}

/** Puts the firm's name (web/content/firm.ts) into web/index.html's default title and description, at %FIRM_NAME%. */
function firmNameInHtml(): Plugin {
  const escaped = firm.name.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  return { name: 'firm-name-in-html', transformIndexHtml: (html) => html.replaceAll('%FIRM_NAME%', escaped) };
}

/**
 * GTM_ID (or TURNSTILE_SITE_KEY) as the build sees it: the build environment's, else wrangler.toml's
 * [vars]. The container id and the site key are public (they are in every page), so [vars] is the
 * place for them: the worker and the build then read one value.
 */
function publicVar(name: 'GTM_ID' | 'TURNSTILE_SITE_KEY'): string | undefined {
  if (process.env[name]) return process.env[name];
  const config = unstable_readConfig({ config: fileURLToPath(new URL('./wrangler.toml', import.meta.url)) }, { hideWarnings: true });
  const value = config.vars[name];
  return typeof value === 'string' ? value : undefined;
}

/**
 * Writes dist/client/_headers so Workers Static Assets sends the same security headers with HTML
 * documents and files as the worker sends with API answers (one definition: worker/security-headers.ts).
 * The public CSP allows Tag Manager only when the build knows a container id (and Turnstile only
 * when it knows a site key); the /admin shells
 * get the first-party-only CSP instead ("! name" detaches the header the /* rule set).
 */
function staticSecurityHeaders(): Plugin {
  return {
      name: 'static-security-headers',
      apply: 'build',
      generateBundle() {
        const headers = securityHeaders({
          tagManager: hasTagManager(publicVar('GTM_ID')),
          turnstile: turnstileSiteKeyOf(publicVar('TURNSTILE_SITE_KEY')) !== null,
        });
        const lines = Object.entries(headers).map(([name, value]) => `  ${name}: ${value}`);
        const admin = `/admin*\n  ! Content-Security-Policy\n  Content-Security-Policy: ${adminContentSecurityPolicy}\n`;
        const immutable = '/assets/*\n  Cache-Control: public, max-age=31536000, immutable\n';
        this.emitFile({ type: 'asset', fileName: '_headers', source: `/*\n${lines.join('\n')}\n${admin}${immutable}` });
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
    plugins: [react(), tailwindcss(), firmNameInHtml(), staticSecurityHeaders()],
    build: {
      // BUILD_OUT_DIR lets the browser tests build into a private directory (parallel runs never
      // overwrite each other's assets); everything else uses dist/client, as wrangler.toml does.
      outDir: process.env.BUILD_OUT_DIR || fileURLToPath(new URL('./dist/client', import.meta.url)),
      emptyOutDir: true,
      target: 'es2022',
      // Read by scripts/prerender.ts (modulepreload of each page's chunks); kept on disk, never
      // uploaded (the .assetsignore the prerender step writes).
      manifest: true,
      rolldownOptions: {
        output: {
          codeSplitting: {
            groups: [
              // React and the router in one file every page needs, instead of four small ones.
              { name: 'framework', test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/, priority: 20 },
              // zod and the shared field rules in one file, loaded when a form is first submitted.
              { name: 'zod', test: /node_modules[\\/]zod[\\/]|worker[\\/]schemas[\\/]fields\.ts$/, priority: 10 },
            ],
          },
        },
      },
    },
  };
});
