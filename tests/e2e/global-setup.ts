import type { TestProject } from 'vitest/node';
import { ensureChromium } from '../../scripts/lib/chromium';
import { freePort, preparePrivateStack } from '../../scripts/lib/local-server';
import { sharedBuild } from '../shared-build';

export const E2E_ADMIN = { username: 'e2e-admin', password: 'e2e-password-2026' };

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    admin: { username: string; password: string };
    /** The run's local state directory (D1 SQLite files), for reading the e-mail outbox. */
    persistTo: string;
    /** The Chromium executable the browser tests launch (scripts/lib/chromium.ts). */
    chromiumPath: string;
  }
}

/**
 * Starts the real local stack once for all browser tests: the run's production build
 * (tests/shared-build.ts) served by `wrangler dev --local` with a fresh D1 (migrations applied) in a
 * temporary directory.
 */
export default async function setup(project: TestProject) {
  // Before anything else: a Chromium found or installed, or one line saying what to do.
  let chromiumPath: string;
  try {
    chromiumPath = ensureChromium();
  } catch (error) {
    console.error((error as Error).message);
    throw error;
  }
  project.provide('chromiumPath', chromiumPath);
  // A private copy of the build and a private database per run, so parallel runs never share state.
  const stack = preparePrivateStack('cpa-e2e-', { prebuilt: sharedBuild().dir });
  const server = await stack.start({
    port: Number(process.env.E2E_PORT ?? (await freePort())),
    quiet: true,
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
    },
  });
  project.provide('baseUrl', server.url);
  project.provide('admin', E2E_ADMIN);
  project.provide('persistTo', stack.persistTo);
  return async () => {
    await server.stop();
    stack.remove();
  };
}
