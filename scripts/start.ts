// `npm start`: build the SPA, prepare .dev.vars, migrate the local D1, make sure the local admin
// exists, serve everything on http://localhost:$PORT (8787 unless PORT is set) with
// `wrangler dev --local`, fire the worker's scheduled handler every minute as Cloudflare's Cron
// Trigger does (scripts/lib/local-cron.ts; CRON=off turns it off), and print how to sign in and
// where mail goes: with no MailChannels key, every e-mail is written as an .eml file into the local
// mailbox, .wrangler/mail (scripts/lib/local-mailbox.ts). LOCAL_STATE_DIR moves the whole state
// (.dev.vars, D1, build, mail) to another directory.
// LOCAL_PREBUILT_CLIENT names a finished build's client directory to copy instead of building (the
// test of `npm start` passes the one build `npm test` makes for every suite).
import { cpSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { localCronEnabled, localCronSeconds, startLocalCron } from './lib/local-cron.ts';
import { buildSpa, projectRoot, startDevServer } from './lib/local-server.ts';
import { localMailDir } from './lib/local-mailbox.ts';
import { localPaths, prepareDevVars, prepareLocalDatabase, printRunning } from './lib/local-state.ts';

const port = Number(process.env.PORT ?? 8787);
if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`PORT must be a port number (got ${JSON.stringify(process.env.PORT)})`);
const url = `http://localhost:${port}`;
const paths = localPaths();
const mailDir = localMailDir(projectRoot);
const settings = prepareDevVars(paths.devVars);
const prebuilt = process.env.LOCAL_PREBUILT_CLIENT;
if (prebuilt) {
  const assetsDir = paths.assetsDir ?? join(projectRoot, 'dist/client');
  console.log(`Using the build in ${prebuilt}...`);
  if (resolve(prebuilt) !== resolve(assetsDir)) cpSync(prebuilt, assetsDir, { recursive: true });
} else {
  console.log('Building the site...');
  buildSpa(paths.assetsDir);
}
await prepareLocalDatabase(settings, paths.persistTo);

console.log('Starting wrangler dev...');
const server = await startDevServer({
  port,
  host: 'localhost',
  quiet: false,
  persistTo: paths.persistTo,
  assetsDir: paths.assetsDir,
  // With LOCAL_STATE_DIR, that directory's .dev.vars instead of the checkout's.
  envFile: process.env.LOCAL_STATE_DIR ? paths.devVars : undefined,
  // E-mailed links (confirm, unsubscribe, cancel, reschedule) point at the address served here,
  // unless .dev.vars sets SITE_URL on purpose (e.g. a tunnel's public address).
  vars: { SITE_URL: settings.siteUrl ?? url },
  // Only silences wrangler's "Scheduled Workers are not automatically triggered" notice, which the
  // local cron makes untrue; the cron itself calls /cdn-cgi/local/scheduled.
  testScheduled: true,
  // No MailChannels key: the local mailbox, where every e-mail's links can be followed.
  mailDir: settings.mailChannels ? undefined : mailDir,
});
const cron = localCronEnabled() ? startLocalCron(url, undefined, localCronSeconds()) : undefined;
printRunning(url, settings, { cron: cron !== undefined, mailDir });
const shutdown = () => {
  cron?.stop();
  void server.stop().then(() => process.exit(0));
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
server.process.on('exit', (code) => process.exit(code ?? 0));
