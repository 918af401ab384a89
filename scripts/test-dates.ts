// `npm run test:dates`: the date-sensitive test files run with the whole stack's clock moved to the
// days that have broken date handling before (docs/operations.md "Tests on every day of the year"):
// the test code, the worker and the browser all read the moved clock (tests/harness/moved-clock.ts).
// Run it before a change to anything with a date in it. It prints one line per instant and a table,
// and exits non-zero when any instant failed.
//
//   npm run test:dates                        every instant, every date-sensitive file
//   npm run test:dates -- --only "Saturday"   the instants whose label contains the text
//   npm run test:dates -- tests/appointments/reminders.worker.test.ts   only these files
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectRoot } from './lib/local-server.ts';

/** The instants, New York time (offsets as New York keeps them on that day). */
export const INSTANTS: { label: string; at: string }[] = [
  { label: 'the last weekday of a month (Wed 31 Mar 2027, 11:00 AM)', at: '2027-03-31T11:00:00-04:00' },
  { label: 'a Friday afternoon, before a Monday holiday (Fri 15 Jan 2027, 3:30 PM)', at: '2027-01-15T15:30:00-05:00' },
  { label: 'a Saturday (Sat 9 Jan 2027, 10:00 AM)', at: '2027-01-09T10:00:00-05:00' },
  { label: '31 December at 4:30 PM (Thu 31 Dec 2026)', at: '2026-12-31T16:30:00-05:00' },
  { label: 'the day before the spring DST change (Sat 13 Mar 2027, 12:00 PM)', at: '2027-03-13T12:00:00-05:00' },
  { label: 'the day of the autumn DST change, late evening (Sun 7 Nov 2027, 11:30 PM)', at: '2027-11-07T23:30:00-05:00' },
  { label: '24 December (Thu 24 Dec 2026, 10:00 AM)', at: '2026-12-24T10:00:00-05:00' },
  { label: 'the first of a month that begins on a Sunday (Sun 1 Aug 2027, 9:00 AM)', at: '2027-08-01T09:00:00-04:00' },
  { label: 'the first of a month that begins on a Saturday (Sat 1 May 2027, 9:00 AM)', at: '2027-05-01T09:00:00-04:00' },
];

/** The files whose outcome depends on the day: booking, availability, booking rules, reschedule, reminders, scheduler, newsletter schedule, calendar feed. */
export const DATE_SENSITIVE_FILES = [
  'tests/platform/one-clock.e2e.test.ts',
  'tests/appointments/calendar-days.web.test.tsx',
  'tests/appointments/booking-form.web.test.tsx',
  'tests/appointments/booking-closed-days.web.test.tsx',
  'tests/appointments/zone-display.web.test.ts',
  'tests/contact/contact-booking.e2e.test.ts',
  'tests/appointments/appointments.worker.test.ts',
  'tests/appointments/availability.e2e.test.ts',
  'tests/appointments/availability.worker.test.ts',
  'tests/appointments/booking-rules.e2e.test.ts',
  'tests/appointments/booking-rules.worker.test.ts',
  'tests/appointments/booking-without-time.e2e.test.ts',
  'tests/appointments/booking-full-days.e2e.test.ts',
  'tests/appointments/booking-without-time.worker.test.ts',
  'tests/appointments/appointment-self-service.e2e.test.ts',
  'tests/appointments/appointment-links.worker.test.ts',
  'tests/appointments/admin-appointments.e2e.test.ts',
  'tests/appointments/reminders.worker.test.ts',
  'tests/newsletter/scheduler.worker.test.ts',
  // The file's opt-in dates against "now": a date to come is refused.
  'tests/newsletter/subscriber-import.worker.test.ts',
  'tests/newsletter/newsletter-drafts.worker.test.ts',
  'tests/newsletter/admin-newsletter-editor.e2e.test.ts',
  'tests/appointments/calendar-feed.worker.test.ts',
  'tests/appointments/busy-calendars.worker.test.ts',
  'tests/appointments/calendar-sync.e2e.test.ts',
  // The searched lists: "upcoming" against today, date ranges and "recent" (30 days) in the firm's zone.
  'tests/appointments/appointment-search.worker.test.ts',
  'tests/contact/inbox-search.worker.test.ts',
  'tests/contact/inbox-search.e2e.test.ts',
  'tests/newsletter/subscriber-search.worker.test.ts',
  'tests/chat/admin-chat-sessions.worker.test.ts',
  // The tax facts' year against the current tax year (core/content/tax-year.ts), and the Resources screen's notice.
  'tests/content/tax-facts.web.test.ts',
  'tests/content/content-section-form.web.test.tsx',
  // The client portal's disposal: files due a whole number of years after their request closed, and 30 days ahead.
  'tests/portal/disposal.worker.test.ts',
];

interface Outcome {
  label: string;
  at: string;
  passed: number;
  failed: number;
  skipped: number;
  failures: string[];
  seconds: number;
}

type VitestJson = { numPassedTests: number; numFailedTests: number; numPendingTests: number; testResults: { name: string; assertionResults: { status: string; fullName: string }[] }[] };

/** One run of the files with every clock at `at` (the offset taken when the run starts). */
function runAt(label: string, at: string, files: string[]): Outcome {
  const started = Date.now();
  const offset = Math.round((Date.parse(at) - started) / 1000) * 1000;
  const dir = mkdtempSync(join(tmpdir(), 'cpa-dates-'));
  const report = join(dir, 'report.json');
  const run = spawnSync(`${projectRoot}node_modules/.bin/vitest`, ['run', '--reporter=dot', '--reporter=json', `--outputFile.json=${report}`, ...files], {
    cwd: projectRoot,
    env: { ...process.env, TEST_CLOCK_OFFSET_MS: String(offset), PATH: `${projectRoot}node_modules/.bin:${process.env.PATH}` },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const seconds = Math.round((Date.now() - started) / 1000);
  try {
    const json = JSON.parse(readFileSync(report, 'utf8')) as VitestJson;
    const failures = json.testResults.flatMap((file) =>
      file.assertionResults.filter((test) => test.status === 'failed').map((test) => `${file.name.replace(projectRoot, '')}: ${test.fullName}`),
    );
    return { label, at, passed: json.numPassedTests, failed: json.numFailedTests, skipped: json.numPendingTests, failures, seconds };
  } catch {
    return { label, at, passed: 0, failed: 1, skipped: 0, failures: [`the run ended with ${run.status ?? run.signal} and no report`], seconds };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const args = process.argv.slice(2);
const onlyAt = args.indexOf('--only');
const only = onlyAt >= 0 ? args[onlyAt + 1] : undefined;
const files = args.filter((arg, i) => !arg.startsWith('--') && (onlyAt < 0 || i !== onlyAt + 1));
const instants = INSTANTS.filter((instant) => !only || instant.label.toLowerCase().includes(only.toLowerCase()));
if (instants.length === 0) {
  console.error(`No instant's label contains "${only}".`);
  process.exit(2);
}

const outcomes: Outcome[] = [];
for (const { label, at } of instants) {
  console.log(`\n=== ${label}: the clock at ${at} ===`);
  const outcome = runAt(label, at, files.length ? files : DATE_SENSITIVE_FILES);
  outcomes.push(outcome);
  console.log(`=== ${label}: ${outcome.passed} passed, ${outcome.failed} failed (${outcome.seconds} s)`);
  for (const failure of outcome.failures) console.log(`    failed: ${failure}`);
}

console.log('\n| instant (New York) | clock | passed | failed | seconds |\n|---|---|---|---|---|');
for (const o of outcomes) console.log(`| ${o.label} | ${o.at} | ${o.passed} | ${o.failed} | ${o.seconds} |`);
const failed = outcomes.reduce((sum, o) => sum + o.failed, 0);
const passed = outcomes.reduce((sum, o) => sum + o.passed, 0);
console.log(`\ndates: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
