// The Chromium finder's decisions (scripts/lib/chromium.ts), with the candidates and installers
// injected: nothing is uninstalled, installed or downloaded here, and the system's browser is
// never touched.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  defaultChromiumSetup,
  defaultInstallers,
  ensureChromium,
  ensureHeadlessChromium,
  isDebianLike,
  isExecutableFile,
  NO_CHROMIUM_MESSAGE,
  playwrightChromiums,
  playwrightHeadlessShells,
  type ChromiumInstaller,
  type ChromiumSetup,
} from '../../scripts/lib/chromium';
import { featuresLeftOn } from '../../scripts/lib/chromium-flags';

const dir = mkdtempSync(join(tmpdir(), 'cpa-chromium-finder-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function executable(path: string): string {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, '#!/bin/sh\n');
  chmodSync(path, 0o755);
  return path;
}

/** A machine where exactly `present` exist; installers record that they ran. */
function machine(present: string[], overrides: Partial<ChromiumSetup> = {}) {
  const exists = new Set(present);
  const ran: string[] = [];
  const lines: string[] = [];
  const installer = (name: string, ok: boolean, provides?: string): ChromiumInstaller => ({
    name,
    install: () => {
      ran.push(name);
      if (ok && provides) exists.add(provides);
      return ok;
    },
  });
  const setup: ChromiumSetup = {
    candidates: () => ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/home/x/.cache/ms-playwright/chromium-1255/chrome-linux64/chrome'],
    isExecutable: (path) => exists.has(path),
    installers: [],
    log: (line) => lines.push(line),
    ...overrides,
  };
  return { setup, ran, lines, installer, exists };
}

describe('ensureChromium', () => {
  it('uses CHROMIUM_PATH when it is an executable, without looking further', () => {
    const m = machine(['/opt/chrome/chrome', '/usr/bin/chromium'], { chromiumPath: '/opt/chrome/chrome' });
    expect(ensureChromium(m.setup)).toBe('/opt/chrome/chrome');
  });

  it('stops with one clear line when CHROMIUM_PATH points nowhere, installing nothing', () => {
    const m = machine(['/usr/bin/chromium'], { chromiumPath: '/nowhere/chrome' });
    m.setup.installers = [m.installer('apt-get install chromium', true, '/usr/bin/chromium')];
    expect(() => ensureChromium(m.setup)).toThrow(/^CHROMIUM_PATH is \/nowhere\/chrome, which is not an executable file: .*unset it/);
    try {
      ensureChromium(m.setup);
    } catch (error) {
      expect((error as Error).message).not.toContain('\n');
    }
    expect(m.ran).toEqual([]);
  });

  it('takes the first candidate present, in order: system paths before Playwright cache', () => {
    expect(ensureChromium(machine(['/usr/bin/google-chrome', '/usr/bin/chromium-browser']).setup)).toBe('/usr/bin/chromium-browser');
    expect(ensureChromium(machine(['/home/x/.cache/ms-playwright/chromium-1255/chrome-linux64/chrome']).setup)).toBe(
      '/home/x/.cache/ms-playwright/chromium-1255/chrome-linux64/chrome',
    );
  });

  it('installs only when nothing is present, and says so', () => {
    const present = machine(['/usr/bin/chromium']);
    present.setup.installers = [present.installer('apt-get install chromium', true, '/usr/bin/chromium')];
    expect(ensureChromium(present.setup)).toBe('/usr/bin/chromium');
    expect(present.ran).toEqual([]);

    const bare = machine([]);
    bare.setup.installers = [bare.installer('apt-get install chromium', true, '/usr/bin/chromium')];
    expect(ensureChromium(bare.setup)).toBe('/usr/bin/chromium');
    expect(bare.ran).toEqual(['apt-get install chromium']);
    expect(bare.lines[0]).toContain('installing one (apt-get install chromium)');
  });

  it('falls back to the next installer when one fails or leaves no Chromium behind', () => {
    const pw = '/home/x/.cache/ms-playwright/chromium-1255/chrome-linux64/chrome';
    const m = machine([]);
    m.setup.installers = [m.installer('apt-get install chromium', false), m.installer('nothing left', true), m.installer('npx playwright-core install chromium', true, pw)];
    expect(ensureChromium(m.setup)).toBe(pw);
    expect(m.ran).toEqual(['apt-get install chromium', 'nothing left', 'npx playwright-core install chromium']);
  });

  it('without root (no apt-get) and without network, stops with the one-line advice', () => {
    const m = machine([]);
    const installers = defaultInstallers({ root: false, debianLike: true });
    expect(installers.map((i) => i.name)).toEqual(['npx playwright-core install chromium']);
    m.setup.installers = installers.map((i) => m.installer(i.name, false));
    expect(() => ensureChromium(m.setup)).toThrow(NO_CHROMIUM_MESSAGE);
    expect(m.ran).toEqual(['npx playwright-core install chromium']);
    expect(NO_CHROMIUM_MESSAGE).not.toContain('\n');
    expect(NO_CHROMIUM_MESSAGE).toContain('CHROMIUM_PATH');
  });
});

describe('ensureHeadlessChromium (the browser tests)', () => {
  const shells = () => ['/usr/bin/chromium-headless-shell', '/home/x/.cache/ms-playwright/chromium_headless_shell-1255/chrome-headless-shell-linux64/chrome-headless-shell'];

  it('takes a headless shell before the full browser, in order', () => {
    expect(ensureHeadlessChromium(machine(['/usr/bin/chromium', '/usr/bin/chromium-headless-shell'], { headlessShells: shells }).setup)).toBe('/usr/bin/chromium-headless-shell');
    expect(ensureHeadlessChromium(machine(['/usr/bin/chromium', shells()[1]], { headlessShells: shells }).setup)).toBe(shells()[1]);
  });

  it('takes the full browser when there is no shell, installing nothing', () => {
    const m = machine(['/usr/bin/chromium'], { headlessShells: shells });
    m.setup.installers = [m.installer('apt-get install chromium', true, '/usr/bin/chromium-headless-shell')];
    expect(ensureHeadlessChromium(m.setup)).toBe('/usr/bin/chromium');
    expect(m.ran).toEqual([]);
  });

  it('takes the shell an install brought along with the browser', () => {
    const m = machine([], { headlessShells: shells });
    m.setup.installers = [
      {
        name: 'apt-get install chromium',
        install: () => {
          m.exists.add('/usr/bin/chromium');
          m.exists.add('/usr/bin/chromium-headless-shell');
          return true;
        },
      },
    ];
    expect(ensureHeadlessChromium(m.setup)).toBe('/usr/bin/chromium-headless-shell');
  });

  it('keeps CHROMIUM_PATH exactly, shell or not, and stops when it points nowhere', () => {
    const m = machine(['/opt/chrome/chrome', '/usr/bin/chromium-headless-shell'], { chromiumPath: '/opt/chrome/chrome', headlessShells: shells });
    expect(ensureHeadlessChromium(m.setup)).toBe('/opt/chrome/chrome');
    const nowhere = machine(['/usr/bin/chromium-headless-shell'], { chromiumPath: '/nowhere/chrome', headlessShells: shells });
    expect(() => ensureHeadlessChromium(nowhere.setup)).toThrow(/^CHROMIUM_PATH is \/nowhere\/chrome/);
  });

  it('leaves the Lighthouse benchmark (ensureChromium) the full browser', () => {
    expect(ensureChromium(machine(['/usr/bin/chromium', '/usr/bin/chromium-headless-shell'], { headlessShells: shells }).setup)).toBe('/usr/bin/chromium');
  });
});

describe('the installers and candidates of this kind of machine', () => {
  it('uses apt-get first only as root on Debian or Ubuntu', () => {
    expect(defaultInstallers({ root: true, debianLike: true }).map((i) => i.name)).toEqual(['apt-get install chromium', 'npx playwright-core install chromium']);
    expect(defaultInstallers({ root: true, debianLike: false }).map((i) => i.name)).toEqual(['npx playwright-core install chromium']);
  });

  it('recognises Debian, Ubuntu and their derivatives from /etc/os-release', () => {
    expect(isDebianLike('PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nID=debian\n')).toBe(true);
    expect(isDebianLike('ID=ubuntu\nID_LIKE=debian\n')).toBe(true);
    expect(isDebianLike('ID=linuxmint\nID_LIKE="ubuntu debian"\n')).toBe(true);
    expect(isDebianLike('ID="fedora"\n')).toBe(false);
    expect(isDebianLike('')).toBe(false);
  });

  it("lists Playwright's cached Chromium builds, newest first, without the headless shell", () => {
    const cache = join(dir, 'ms-playwright');
    const older = executable(join(cache, 'chromium-1100', 'chrome-linux', 'chrome'));
    const newer = executable(join(cache, 'chromium-1200', 'chrome-linux64', 'chrome'));
    executable(join(cache, 'chromium_headless_shell-1200', 'chrome-linux64', 'chrome'));
    const found = playwrightChromiums({ PLAYWRIGHT_BROWSERS_PATH: cache });
    expect(found).toContain(newer);
    expect(found.indexOf(newer)).toBeLessThan(found.indexOf(older));
    expect(found.some((p) => p.includes('headless_shell'))).toBe(false);
    // The build this playwright-core downloads is looked for first.
    expect(found[0]).toMatch(/chromium-\d+\/chrome-linux.*\/chrome$/);
  });

  it("lists Playwright's cached headless shells, newest first", () => {
    const cache = join(dir, 'ms-playwright-shells');
    const older = executable(join(cache, 'chromium_headless_shell-1100', 'chrome-headless-shell-linux64', 'chrome-headless-shell'));
    const newer = executable(join(cache, 'chromium_headless_shell-1200', 'chrome-headless-shell-linux64', 'chrome-headless-shell'));
    executable(join(cache, 'chromium-1200', 'chrome-linux64', 'chrome'));
    expect(playwrightHeadlessShells({ PLAYWRIGHT_BROWSERS_PATH: cache })).toEqual([newer, older]);
    expect(playwrightHeadlessShells({ PLAYWRIGHT_BROWSERS_PATH: join(dir, 'no-cache') })).toEqual([]);
  });

  it('counts only executable files', () => {
    const file = join(dir, 'not-executable');
    writeFileSync(file, '');
    chmodSync(file, 0o644);
    expect(isExecutableFile(file)).toBe(false);
    expect(isExecutableFile(dir)).toBe(false);
    expect(isExecutableFile(join(dir, 'missing'))).toBe(false);
    expect(isExecutableFile(executable(join(dir, 'chrome')))).toBe(true);
  });

  it('reads CHROMIUM_PATH from the environment, so one pointing nowhere stops the run', () => {
    const setup = defaultChromiumSetup({ CHROMIUM_PATH: join(dir, 'nowhere') });
    expect(() => ensureChromium(setup)).toThrow(/^CHROMIUM_PATH is .*nowhere, which is not an executable file/);
  });
});

describe('featuresLeftOn', () => {
  it('finds nothing when the last --disable-features repeats every earlier one', () => {
    expect(featuresLeftOn(['/usr/bin/chromium', '--disable-features=A,B', '--headless', '--disable-features=A,B,C'])).toEqual([]);
    expect(featuresLeftOn(['/usr/bin/chromium', '--headless'])).toEqual([]);
  });

  it('names the features an earlier --disable-features turns off and the last one, which Chromium keeps, leaves on', () => {
    expect(featuresLeftOn(['/usr/bin/chromium', '--disable-features=A,B,D', '--disable-features=A,C'])).toEqual(['B', 'D']);
  });
});
