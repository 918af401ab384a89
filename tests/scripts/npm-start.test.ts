// `npm start` is the production run, cron included: the real start script (build, migrations,
// wrangler dev, the local cron) in a private state directory (LOCAL_STATE_DIR) on a free port, so
// the developer's .dev.vars, .wrangler and dist are never touched. Nothing here calls the scheduled
// handler: whatever the worker sends, the start script's own cron made it send. Two things keep it
// quick: the script starts from a copy of the run's one build (LOCAL_PREBUILT_CLIENT, from
// tests/harness/shared-build.ts, whose printed output is checked here as the start-up's), and its cron
// ticks every 5 seconds (LOCAL_CRON_SECONDS) instead of at the start of every minute.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { executeLocalSql, freePort, projectRoot } from '../../scripts/lib/local-server';
import { latestMailText } from '../harness/local-mailbox';
import { bookingTimeSlots } from '#core/content/booking';
import { firm } from '#core/content/firm';
import { appointmentStartsAt } from '../../worker/services/appointments/links';
import { firmToday } from '#core/firm-time';

const stateDir = mkdtempSync(join(tmpdir(), 'cpa-npm-start-'));
const persistTo = join(stateDir, 'state');
let port: number;
let url: string;
let child: ChildProcess;
let output = '';

/** Polls `check` until it returns a value (not undefined), or fails after `timeoutMs`. */
async function waitFor<T>(what: string, timeoutMs: number, check: () => Promise<T | undefined> | T | undefined): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`npm start exited (${child.exitCode}) while waiting for ${what}:\n${output}`);
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`no ${what} within ${timeoutMs / 1000} s; npm start printed:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

/** The local mailbox of a run with LOCAL_STATE_DIR: $LOCAL_STATE_DIR/mail (scripts/lib/local-mailbox.ts). */
const mailDir = join(stateDir, 'mail');

/** The text of the newest e-mail of this kind to this address in the run's mailbox (one .eml file each). */
const emailTo = (to: string, kind: string) => latestMailText(mailDir, to, kind);

/** A bookable slot starting between 5 minutes and 23 hours from now (firm time): due a reminder. */
function slotWithin24Hours(): { date: string; timeSlot: string } {
  const now = Date.now();
  for (const date of [firmToday(firm.timeZone, new Date(now)), firmToday(firm.timeZone, new Date(now + 24 * 3_600_000))]) {
    for (const timeSlot of bookingTimeSlots) {
      const startsIn = appointmentStartsAt({ date, timeSlot }).getTime() - now;
      if (startsIn > 5 * 60_000 && startsIn < 23 * 3_600_000) return { date, timeSlot };
    }
  }
  throw new Error('no slot within 24 hours');
}

beforeAll(async () => {
  port = await freePort();
  url = `http://localhost:${port}`;
  const env: NodeJS.ProcessEnv = { ...process.env, LOCAL_STATE_DIR: stateDir, PORT: String(port), LOCAL_PREBUILT_CLIENT: inject('buildDir'), LOCAL_CRON_SECONDS: '5' };
  delete env.CRON;
  child = spawn('npm', ['start'], { cwd: projectRoot, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  // Build, migrations and wrangler's start-up: slow on a busy machine.
  await waitFor('start-up banner', 400_000, () => (output.includes('Press Ctrl+C to stop.') ? true : undefined));
});

afterAll(async () => {
  if (child && child.exitCode === null) {
    // The script stops its wrangler dev on SIGTERM, then exits.
    const exited = new Promise((resolve) => child.once('exit', resolve));
    process.kill(-child.pid!, 'SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 15_000))]);
  }
  rmSync(stateDir, { recursive: true, force: true });
});

describe('npm start', () => {
  it('prints the address, the admin, where mail goes and the cron once, and no chunk table', () => {
    expect(output).toContain(`Northgate CPA is running at ${url}`);
    expect(output).toMatch(/Username: +admin/);
    expect(output).toMatch(/Password: +\S{12,}/);
    expect(output).toContain(`written as an .eml file into the local mailbox\n                ${mailDir}`);
    expect(output.match(/the scheduled handler runs every minute/g)).toHaveLength(1);
    expect(output).toContain(`Using the build in ${inject('buildDir')}`);
    // The build step `npm start` runs (buildSpa), as the run's one build ran it.
    expect(`${output}\n${inject('buildOutput')}`).not.toContain('gzip:');
  });

  it('sends the reminder of an appointment due within 24 hours by itself, on its next tick', async () => {
    const email = `reminder-${Date.now()}@example.com`;
    const { date, timeSlot } = slotWithin24Hours();
    executeLocalSql(
      `INSERT INTO appointments (name, email, service_type, date, time_slot, status) VALUES ('Rae Visitor', '${email}', 'Tax Planning', '${date}', '${timeSlot}', 'confirmed');`,
      persistTo,
    );
    // Ticks come every 5 seconds here (every minute by default): the first one after the insert sends it.
    const body = await waitFor('reminder in the mailbox', 120_000, () => emailTo(email, 'appointment-reminder'));
    // Its links open the server that sent it, on the port PORT chose (not .dev.vars' old 8787).
    expect(body).toContain(`Cancel: ${url}/`);
    expect(body).toContain(`Reschedule: ${url}/`);
  });

  it('links the newsletter confirmation to the port PORT chose', async () => {
    const email = `reader-${Date.now()}@example.com`;
    const res = await fetch(`${url}/api/newsletter/subscribe`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: url },
      body: JSON.stringify({ email, name: 'Rae Reader' }),
    });
    expect(res.status).toBeLessThan(300);
    const body = await waitFor('confirmation e-mail', 30_000, () => emailTo(email, 'newsletter-confirmation'));
    // The link whole, token and all: the mailbox keeps what the e-mail log does not.
    expect(body).toMatch(new RegExp(`${url.replace(/[.]/g, '\\.')}/newsletter/confirm\\?token=[A-Za-z0-9_.-]{20,}`));
  });
});
