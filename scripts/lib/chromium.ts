// The Chromium the browser tests (tests/**/*.e2e.test.ts) and the Lighthouse benchmark drive. `npm test` on a
// fresh machine must not need a manual step, so this finds one (CHROMIUM_PATH, the usual system
// paths, Playwright's cache) or installs one (Debian or Ubuntu as root: apt-get; otherwise
// Playwright's own download, where the network allows), and otherwise stops with one line saying
// what to do. The e2e global setup runs it before any browser test starts, and prefers Chromium's
// headless shell when there is one (ensureHeadlessChromium); the Lighthouse benchmark takes the
// full browser (ensureChromium).
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { projectRoot } from './local-server.ts';

/** Where Debian, Ubuntu and Google's packages put the browser. */
export const SYSTEM_CHROMIUM_PATHS = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable'];

/**
 * Where Debian's chromium-headless-shell package puts Chromium's headless shell: the same Chromium
 * without the browser's windows, toolbars and tab strips. The browser tests take it when present:
 * the same pages, scripts, layout and DevTools protocol, and a browser context for about a third of
 * the CPU (docs/operations.md "The test suite's time").
 */
export const SYSTEM_HEADLESS_SHELL_PATHS = ['/usr/bin/chromium-headless-shell', '/usr/lib/chromium/chromium-headless-shell'];

/** The one line shown when no Chromium is found and none could be installed. */
export const NO_CHROMIUM_MESSAGE =
  'No Chromium for the browser tests, and none could be installed here: run `sudo apt-get install chromium` (Debian/Ubuntu) or `npx playwright-core install chromium`, or set CHROMIUM_PATH to a Chromium or Chrome executable, then run npm test again.';

export interface ChromiumInstaller {
  /** How it installs, for the progress line ("apt-get install chromium"). */
  name: string;
  /** Installs; false when it could not (no network, no permission, no such package). */
  install: () => boolean;
}

export interface ChromiumSetup {
  /** CHROMIUM_PATH: when set, exactly this executable or a clear error, never a silent fallback. */
  chromiumPath?: string;
  /** Places a Chromium may already be, best first (read again after an install). */
  candidates: () => string[];
  isExecutable: (path: string) => boolean;
  /** Places a headless shell may be, best first: ensureHeadlessChromium takes one of these before the candidates. */
  headlessShells?: () => string[];
  /** Tried in order until one leaves a Chromium among the candidates. */
  installers: ChromiumInstaller[];
  log: (line: string) => void;
}

/**
 * The path of a Chromium to launch: CHROMIUM_PATH, else the first candidate present, else the
 * first that an installer provides. Throws an Error with one line of advice when there is none.
 */
export function ensureChromium(setup: ChromiumSetup = defaultChromiumSetup()): string {
  if (setup.chromiumPath) {
    if (setup.isExecutable(setup.chromiumPath)) return setup.chromiumPath;
    throw new Error(`CHROMIUM_PATH is ${setup.chromiumPath}, which is not an executable file: point it at a Chromium or Chrome executable, or unset it so npm test finds or installs one.`);
  }
  const present = () => setup.candidates().find((path) => setup.isExecutable(path));
  const found = present();
  if (found) return found;
  for (const installer of setup.installers) {
    setup.log(`No Chromium found for the browser tests: installing one (${installer.name})...`);
    if (!installer.install()) continue;
    const installed = present();
    if (installed) {
      setup.log(`Chromium installed: ${installed}`);
      return installed;
    }
  }
  throw new Error(NO_CHROMIUM_MESSAGE);
}

/**
 * The Chromium for the browser tests: CHROMIUM_PATH when set (exactly that, as ensureChromium), else
 * a headless shell when one is present (before or after an install), else the full browser that
 * ensureChromium finds or installs.
 */
export function ensureHeadlessChromium(setup: ChromiumSetup = defaultChromiumSetup()): string {
  if (setup.chromiumPath) return ensureChromium(setup);
  const shell = () => setup.headlessShells?.().find((path) => setup.isExecutable(path));
  const present = shell();
  if (present) return present;
  const full = ensureChromium(setup);
  return shell() ?? full;
}

export function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * The binaries of one kind of build Playwright downloaded into its cache (PLAYWRIGHT_BROWSERS_PATH,
 * or ~/.cache/ms-playwright), newest revision first: `<cache>/<kind>-<revision>/<platform*>/<binary>`.
 * Empty when there is no cache yet.
 */
function cachedBuilds(env: Record<string, string | undefined>, kind: string, platformPrefix: string, binary: string): string[] {
  const cache = env.PLAYWRIGHT_BROWSERS_PATH && env.PLAYWRIGHT_BROWSERS_PATH !== '0' ? env.PLAYWRIGHT_BROWSERS_PATH : join(homedir(), '.cache', 'ms-playwright');
  const builds: string[] = [];
  try {
    const revisions = readdirSync(cache)
      .filter((name) => name.startsWith(`${kind}-`) && /^\d+$/.test(name.slice(kind.length + 1)))
      .sort((a, b) => Number(b.slice(kind.length + 1)) - Number(a.slice(kind.length + 1)));
    for (const revision of revisions) {
      for (const platform of readdirSync(join(cache, revision)).filter((name) => name.startsWith(platformPrefix))) {
        builds.push(join(cache, revision, platform, binary));
      }
    }
  } catch {
    // No cache yet.
  }
  return builds;
}

/**
 * Chromium builds Playwright downloaded: the one this playwright-core wants first, then any other
 * revision in its cache (PLAYWRIGHT_BROWSERS_PATH, or ~/.cache/ms-playwright), newest first.
 */
export function playwrightChromiums(env: Record<string, string | undefined> = process.env): string[] {
  const cached = cachedBuilds(env, 'chromium', 'chrome-linux', 'chrome');
  let own: string[] = [];
  try {
    own = [chromium.executablePath()];
  } catch {
    // This platform has no Playwright build.
  }
  return [...new Set([...own, ...cached])];
}

/** Headless shells Playwright downloaded (PLAYWRIGHT_BROWSERS_PATH, or ~/.cache/ms-playwright), newest first. */
export function playwrightHeadlessShells(env: Record<string, string | undefined> = process.env): string[] {
  return cachedBuilds(env, 'chromium_headless_shell', 'chrome-headless-shell-linux', 'chrome-headless-shell');
}

/** Debian or Ubuntu (or a derivative), from /etc/os-release. */
export function isDebianLike(osRelease = existsSync('/etc/os-release') ? readFileSync('/etc/os-release', 'utf8') : ''): boolean {
  const ids = [/^ID=(.*)$/m, /^ID_LIKE=(.*)$/m].map((re) => re.exec(osRelease)?.[1]?.replace(/"/g, '') ?? '').join(' ');
  return /\b(debian|ubuntu)\b/.test(ids);
}

function runs(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): boolean {
  const result = spawnSync(command, args, { stdio: ['ignore', 'inherit', 'inherit'], env });
  return result.status === 0;
}

/**
 * apt-get as root on Debian or Ubuntu, then Playwright's download (which needs no root). Each also
 * brings the headless shell where it can (Debian's chromium-headless-shell package, which older
 * releases and Ubuntu lack; Playwright's own shell): a machine with a Chromium but no shell is
 * left as it is.
 */
export function defaultInstallers(
  system: { root: boolean; debianLike: boolean } = { root: process.getuid?.() === 0, debianLike: isDebianLike() },
): ChromiumInstaller[] {
  const installers: ChromiumInstaller[] = [];
  if (system.root && system.debianLike) {
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    installers.push({
      name: 'apt-get install chromium',
      install: () => {
        const installed = runs('apt-get', ['update', '-qq'], env) && runs('apt-get', ['install', '-y', '-qq', 'chromium'], env);
        if (installed) runs('apt-get', ['install', '-y', '-qq', 'chromium-headless-shell'], env);
        return installed;
      },
    });
  }
  installers.push({
    name: 'npx playwright-core install chromium',
    // The project's own Node runs Playwright's installer (scripts run on it, README "Set up and run").
    install: () => runs(process.execPath, [join(projectRoot, 'node_modules', 'playwright-core', 'cli.js'), 'install', 'chromium']),
  });
  return installers;
}

export function defaultChromiumSetup(env: Record<string, string | undefined> = process.env): ChromiumSetup {
  return {
    chromiumPath: env.CHROMIUM_PATH || undefined,
    candidates: () => [...SYSTEM_CHROMIUM_PATHS, ...playwrightChromiums(env)],
    headlessShells: () => [...SYSTEM_HEADLESS_SHELL_PATHS, ...playwrightHeadlessShells(env)],
    isExecutable: isExecutableFile,
    installers: defaultInstallers(),
    log: (line) => console.log(line),
  };
}
