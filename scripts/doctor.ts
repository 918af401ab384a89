// `npm run doctor [URL]`: the go-live checklist for the operator (docs/product.md §6.10, README
// "Deploying to Cloudflare"), the same list the owner sees at /admin/go-live.
//
//   npm run doctor                              the local run (`npm start`, http://localhost:8787),
//                                               signed in with .dev.vars' ADMIN_USERNAME/ADMIN_PASSWORD
//   npm run doctor https://www.firm.com         the live site, signed in as an owner with
//                                               DOCTOR_USERNAME, DOCTOR_PASSWORD (and DOCTOR_CODE
//                                               when the account has two-factor sign-in)
//   npm run doctor -- --strict                  exit 1 while anything is missing
//
// When the site cannot be asked (not running, no credentials), it prints what the local files say
// (the wrangler config's vars, .dev.vars) and marks the rest "could not check".
import { fileURLToPath } from 'node:url';
import { checksFromFiles, checksFromSite, formatChecklist, isLocalUrl, localSettings } from './lib/doctor.ts';
import { localPaths } from './lib/local-state.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const strict = args.includes('--strict');
const url = args.find((a) => !a.startsWith('--')) || process.env.DOCTOR_URL || `http://localhost:${process.env.PORT || 8787}`;
// `npm start`'s .dev.vars (LOCAL_STATE_DIR's when set, as `npm start` itself reads it).
const { settings, devVars } = localSettings(root, localPaths().devVars);

// The local run's first administrator is .dev.vars' (`npm start` wrote it); never sent elsewhere.
const local = isLocalUrl(url);
const username = process.env.DOCTOR_USERNAME || (local ? devVars.ADMIN_USERNAME || 'admin' : undefined);
const password = process.env.DOCTOR_PASSWORD || (local ? devVars.ADMIN_PASSWORD : undefined);

let checks;
let source;
try {
  if (!username || !password) {
    throw new Error(local ? 'no .dev.vars with ADMIN_PASSWORD (`npm start` writes one)' : `no owner's sign-in for ${url}: set DOCTOR_USERNAME and DOCTOR_PASSWORD`);
  }
  checks = await checksFromSite(url, { username, password, ...(process.env.DOCTOR_CODE ? { code: process.env.DOCTOR_CODE } : {}) });
  source = `read live from ${new URL(url).origin}`;
} catch (error) {
  console.error(`Could not ask the site: ${(error as Error).message}.\nShowing what the local files say instead.\n`);
  checks = checksFromFiles(settings);
  source = 'from the local files: the wrangler config and .dev.vars';
}
console.log(formatChecklist(checks, source));
process.exit(strict && checks.some((c) => c.state === 'missing') ? 1 : 0);
