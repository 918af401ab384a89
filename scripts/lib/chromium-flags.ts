// The flags Debian's chromium needs on this machine (no sandbox as root, no background network),
// shared by the browser tests (tests/harness/e2e/global-setup.ts) and the Lighthouse benchmark.
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** The features playwright-core 1.65 turns off in every Chromium it launches (its chromiumSwitches). */
const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
];

/**
 * The address bar's pop-ups, which headless Chromium builds as web pages (chrome://omnibox-popup)
 * for every window it opens, and every browser context is a window: a renderer process and about
 * 0.7 CPU-s per context, for an address bar nobody sees: about a fifth of Chromium's CPU in a test
 * run (docs/operations.md "The test suite's time").
 */
const UNSEEN_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup', 'WebUIOmniboxFullPopup'];

/**
 * The flags for a Chromium that Playwright launches (the browser tests). Chromium keeps only the
 * last --disable-features it is given, and Playwright puts its own first: this one repeats
 * Playwright's list, and featuresLeftOn says when a Playwright upgrade changed it.
 */
export const PLAYWRIGHT_CHROMIUM_FLAGS = [...CHROMIUM_FLAGS, `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...UNSEEN_FEATURES].join(',')}`];

/**
 * The features the launched command line asks to turn off but its last --disable-features (the
 * one Chromium keeps) leaves on: none, unless Playwright's own list has changed since
 * PLAYWRIGHT_DISABLED_FEATURES was copied from it.
 */
export function featuresLeftOn(commandLine: readonly string[]): string[] {
  const lists = commandLine.filter((arg) => arg.startsWith('--disable-features=')).map((arg) => arg.slice('--disable-features='.length).split(','));
  const kept = new Set(lists.at(-1) ?? []);
  return [...new Set(lists.flat())].filter((feature) => !kept.has(feature));
}
