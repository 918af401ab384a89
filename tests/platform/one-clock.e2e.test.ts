import { describe, expect, it } from 'vitest';
import { firm } from '#core/content/firm';
import { firmDay } from '../harness/calendar-days';
import { browserPerFile } from '../harness/e2e/admin-helpers';
import { baseUrl, newPage } from '../harness/e2e/browser';

// The test code, the worker and the browser read one clock: today's, or the moved one of
// scripts/test-dates.ts (tests/harness/moved-clock.ts). A date run whose clock moved in one of
// them only would pass or fail for the wrong reason; this file, first in that run, says so.

const shared = browserPerFile();

/** The minutes between two instants. */
const minutesApart = (a: number, b: number) => Math.abs(a - b) / 60_000;

describe('one clock for the whole stack', () => {
  it("the test code, the worker and the browser agree on the firm's today, and on the time to the minute", async () => {
    const nodeNow = Date.now();
    // The worker's today: the first day the booking rules leave open with no minimum notice.
    const answer = (await (await fetch(`${baseUrl()}/api/appointments/closed-days?from=${firmDay(0)}&to=${firmDay(0)}`)).json()) as { firstDay: string };
    const { page, context } = await newPage(shared.browser);
    await page.goto('/');
    const browser = await page.evaluate((timeZone) => ({ now: Date.now(), today: new Intl.DateTimeFormat('en-CA', { timeZone }).format(new Date()) }), firm.timeZone);
    await context.close();
    // Unless the test ran across the firm's midnight, all three name the same day.
    if (firmDay(0) === firmDay(0, new Date(nodeNow))) {
      expect({ worker: answer.firstDay, browser: browser.today }).toEqual({ worker: firmDay(0), browser: firmDay(0) });
    }
    expect(minutesApart(browser.now, nodeNow)).toBeLessThan(2);
  });
});
