// `npm run dev`: the development loop. The Vite dev server serves the SPA from web/ with hot module
// replacement, and @cloudflare/vite-plugin runs the worker (worker/index.ts, the bindings of
// wrangler.jsonc, .dev.vars) in workerd, so /api/* answers from the same local D1 and KV as
// `npm start` (.wrangler/state) and an edit to a page or a route shows without a rebuild.
//
// As in `npm start`, the worker's scheduled handler fires every minute (scripts/lib/local-cron.ts;
// CRON=off turns it off), e-mailed links point at the port served (PORT, default 8787), and with no
// MailChannels key every e-mail is written as an .eml file into .wrangler/mail
// (scripts/lib/local-mailbox.ts).
//
// The plugin is added here, never in vite.config.ts: `npm run build` (and the prerender step, which
// builds with vite.config.ts) keep producing exactly dist/client, as `wrangler deploy` expects.
import { cloudflare } from '@cloudflare/vite-plugin';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { createServer } from 'vite';
import { localCronEnabled, startLocalCron } from './lib/local-cron.ts';
import { localMailDir, startLocalMailbox } from './lib/local-mailbox.ts';
import { projectRoot } from './lib/local-server.ts';
import { prepareDevVars, prepareLocalDatabase, printRunning } from './lib/local-state.ts';

const port = Number(process.env.PORT ?? 8787);
if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`PORT must be a port number (got ${JSON.stringify(process.env.PORT)})`);
const url = `http://localhost:${port}`;
// The plugin reads the checkout's .dev.vars and keeps its state in .wrangler/state: LOCAL_STATE_DIR
// is `npm start`'s alone.
const settings = prepareDevVars(`${projectRoot}.dev.vars`);
await prepareLocalDatabase(settings);
// The checkout's .wrangler/mail (LOCAL_STATE_DIR is `npm start`'s alone, as above).
const mailDir = localMailDir(projectRoot, {});
const mailbox = settings.mailChannels ? undefined : await startLocalMailbox(mailDir);

// The plugin runs the worker on its own workerd, which can be older than wrangler's: it refuses a
// compatibility_date newer than its release. Only then, and only here, the worker runs on that
// runtime's newest date; `npm start`, the tests and deploys keep wrangler.jsonc's date.
const pluginRequire = createRequire(fileURLToPath(import.meta.resolve('@cloudflare/vite-plugin')));
const runtimeDate: string = pluginRequire('workerd').compatibilityDate;

const server = await createServer({
  configFile: `${projectRoot}vite.config.ts`,
  server: { port, host: 'localhost', strictPort: true },
  plugins: [
    cloudflare({
      // Vite's root is web/; the worker's config, .dev.vars and local state live at the project root.
      configPath: `${projectRoot}wrangler.jsonc`,
      persistState: { path: `${projectRoot}.wrangler/state` },
      // Offline like `npm start` (wrangler dev --local): no Cloudflare login, so the AI binding is
      // unavailable and the chat and previews use their offline fallbacks.
      remoteBindings: false,
      // Merged into wrangler.jsonc's settings. The build prerenders one HTML file per route and a
      // 404.html ("404-page"); in dev there is only web/index.html, so every page navigation gets it
      // and the SPA routes (an unknown path shows the app's not-found page, with status 200).
      config: (config) => {
        const devConfig: {
          assets: { not_found_handling: 'single-page-application' };
          vars: typeof config.vars;
          compatibility_date?: string;
        } = {
          assets: { not_found_handling: 'single-page-application' },
          // E-mailed links point at this server, unless .dev.vars sets SITE_URL on purpose (which
          // the plugin then applies over these vars anyway).
          vars: { ...config.vars, SITE_URL: settings.siteUrl ?? url, ...(mailbox ? { LOCAL_MAILBOX_URL: mailbox.url } : {}) },
        };
        if (config.compatibility_date && config.compatibility_date > runtimeDate) {
          console.log(`Dev runs the worker with compatibility date ${runtimeDate}, the newest the Vite plugin's workerd supports (wrangler.jsonc: ${config.compatibility_date}).`);
          devConfig.compatibility_date = runtimeDate;
        }
        return devConfig;
      },
    }),
  ],
});
await server.listen();
const cron = localCronEnabled() ? startLocalCron(url) : undefined;
printRunning(url, settings, { note: 'hot reload', cron: cron !== undefined, mailDir });

const shutdown = () => {
  cron?.stop();
  void Promise.all([server.close(), mailbox?.stop()]).then(() => process.exit(0));
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
