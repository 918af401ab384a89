import { chromium, type BrowserServer } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { ensureHeadlessChromium } from '../../../scripts/lib/chromium';
import { preparePrivateStack, type PrivateStack } from '../../../scripts/lib/local-server';
import { seedLocalAdmin } from '../../../scripts/lib/local-state';
import { featuresLeftOn, PLAYWRIGHT_CHROMIUM_FLAGS } from '../../../scripts/lib/chromium-flags';
import { sharedBuild } from '../shared-build';
import { MOVED_CLOCK_VAR, movedClockOffset } from '../moved-clock';

export const E2E_ADMIN = { username: 'e2e-admin', password: 'e2e-password-2026' };
/**
 * The stacks' admin has an e-mail from the start, so the back office opens on the screen asked for;
 * the first sign-in's "Tell us who you are" (an account with none) is its own test's subject
 * (tests/admin/account-profile.e2e.test.ts).
 */
export const E2E_ADMIN_EMAIL = 'e2e-admin@example.com';

/** One local stack: a server and the D1 state directory behind it. */
export interface E2eStack {
  baseUrl: string;
  /** The stack's local state directory (D1 SQLite files). */
  persistTo: string;
  /** The stack's local mailbox: every e-mail it sent, one .eml file each (scripts/lib/local-mailbox.ts). */
  mailDir: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** One stack per worker slot (VITEST_POOL_ID 1..n): tests/harness/e2e/browser.ts picks the file's own. */
    stacks: E2eStack[];
    admin: { username: string; password: string };
    /** The Chromium executable the global setup launched (scripts/lib/chromium.ts). */
    chromiumPath: string;
    /** The run's one Chromium (launched here), which every file connects to (tests/harness/e2e/browser.ts). */
    browserEndpoint: string;
  }
}

/**
 * Starts the real local stack for the browser tests: the run's production build
 * (tests/harness/shared-build.ts) served by wrangler's local dev environment (workerd, the browsers at the
 * worker's own address: scripts/lib/direct-worker.ts) with a fresh D1 (migrations applied) in a
 * temporary directory. Browser test files run in parallel with each other and with the other
 * projects, so there is one such stack per worker slot: files that run at the same time never share
 * a server, a database or the admin account, and the files one slot runs share them one after
 * another, as they all did when the files ran one at a time. One Chromium serves the whole run: each
 * file connects to it and opens its own contexts, instead of launching a browser of its own.
 */
export default async function setup(project: TestProject) {
  // Before anything else: a Chromium found or installed, or one line saying what to do. Its headless
  // shell when there is one: the same pages, a context for a third of the CPU (scripts/lib/chromium.ts).
  let chromiumPath: string;
  try {
    chromiumPath = ensureHeadlessChromium();
  } catch (error) {
    console.error((error as Error).message);
    throw error;
  }
  const build = sharedBuild().dir;
  let launching: Promise<BrowserServer> | undefined;
  let browserServer: BrowserServer | undefined;
  const slots = project.config.maxWorkers;
  const prepared: PrivateStack[] = [];
  const servers: Awaited<ReturnType<PrivateStack['start']>>[] = [];
  const stopAll = async () => {
    await (browserServer ?? (await launching?.catch(() => undefined)))?.close();
    await Promise.all(servers.map((server) => server.stop()));
    for (const stack of prepared) stack.remove();
  };
  try {
    // A private copy of the build and a private database per stack, so parallel runs never share
    // state. The migrations run once; the other stacks copy that fresh database.
    // The admin is seeded once, into the first, before the others copy it.
    for (let i = 0; i < slots; i++) {
      prepared.push(preparePrivateStack('cpa-e2e-', { prebuilt: build, migratedFrom: prepared[0]?.persistTo }));
      if (i === 0) await seedLocalAdmin({ ...E2E_ADMIN, email: E2E_ADMIN_EMAIL }, prepared[0].persistTo);
    }
    // Chromium starts up meanwhile.
    launching = chromium.launchServer({ executablePath: chromiumPath, headless: true, args: PLAYWRIGHT_CHROMIUM_FLAGS });
    // All at once, each at its worker's own address (`direct`: no wrangler dev proxy in front of
    // the browser's requests; scripts/lib/direct-worker.ts), on a port the OS picks.
    const started = await Promise.allSettled(
      prepared.map((stack) =>
        stack.start({
          port: 0,
          direct: true,
          quiet: true,
          // Every e-mail as an .eml file, where the tests follow its links (tests/harness/e2e/mailbox.ts).
          mailDir: stack.mailDir,
          admin: { ...E2E_ADMIN, jwtSecret: 'e2e-secret-0123456789abcdef0123456789abcdef' },
          vars: {
            // Throttles are generous so a test run never trips them by accident.
            SUBMISSIONS_PER_IP_PER_WINDOW: '1000',
            DAILY_CONTACT_CAP: '100000',
            DAILY_BOOKING_CAP: '100000',
            OPEN_BOOKINGS_PER_EMAIL: '100000',
            OPEN_BOOKINGS_PER_NETWORK: '100000',
            UNVERIFIED_MAIL_DAILY_CAP: '100000',
            BOOKING_CONFIRMATION_DAILY_CAP: '100000',
            NEWSLETTER_CONFIRMATION_DAILY_CAP: '100000',
            SUBSCRIBES_PER_IP_PER_HOUR: '100000',
            CHAT_MESSAGES_PER_WINDOW: '100000',
            // The moved clock of scripts/test-dates.ts, when set (tests/harness/moved-clock.ts).
            ...(process.env[MOVED_CLOCK_VAR] ? { [MOVED_CLOCK_VAR]: String(movedClockOffset(process.env[MOVED_CLOCK_VAR])) } : {}),
          },
        }),
      ),
    );
    for (const result of started) if (result.status === 'fulfilled') servers.push(result.value);
    const failed = started.find((result): result is PromiseRejectedResult => result.status === 'rejected');
    if (failed) throw failed.reason;
    browserServer = await launching;
    const leftOn = featuresLeftOn(browserServer.process().spawnargs);
    if (leftOn.length) throw new Error(`Playwright turns off Chromium features scripts/lib/chromium-flags.ts does not repeat: ${leftOn.join(', ')}. Add them to PLAYWRIGHT_DISABLED_FEATURES there.`);
  } catch (error) {
    await stopAll();
    throw error;
  }
  project.provide(
    'stacks',
    servers.map((server, i) => ({ baseUrl: server.url, persistTo: prepared[i].persistTo, mailDir: prepared[i].mailDir })),
  );
  project.provide('admin', E2E_ADMIN);
  project.provide('chromiumPath', chromiumPath);
  project.provide('browserEndpoint', browserServer.wsEndpoint());
  return stopAll;
}
