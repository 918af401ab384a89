import { describe, expect, it } from 'vitest';
import { api, browserPerFile, saveScreens, screenshotDir, signInThroughCard, uniqueEmail, waitUntil } from '../harness/e2e/admin-helpers';
import { latestEmailBody } from '../harness/e2e/admin-newsletter-helpers';
import { addDays, isWeekday } from '../harness/calendar-days';
import { bookableDay, open, pickDay, showMonthOf } from '../harness/e2e/booking-helpers';
import { baseUrl, DESKTOP, expectToast, newPage, PHONE } from '../harness/e2e/browser';

// The visitor's self-service links (docs/product.md §3), as a visitor uses them: book, open the
// Cancel link from the e-mail, cancel; book again, open the Reschedule link, move; the admin sees it.

const shared = browserPerFile();

/**
 * The link of that name in the newest e-mail of this kind to the address, as a path on the test
 * server; with `other`, waits for a newer e-mail whose link is not that one (the e-mail of a second
 * booking goes out after its answer, so the first one's is still the newest for a moment).
 */
async function linkFromEmail(to: string, kind: string, label: 'Cancel' | 'Reschedule', other?: string): Promise<string> {
  let path: string | undefined;
  await waitUntil(async () => {
    const body = latestEmailBody(to, kind);
    const url = body && new RegExp(`^${label}: (\\S+)$`, 'm').exec(body)?.[1];
    if (!url) return false;
    const { pathname, search } = new URL(url);
    path = pathname + search;
    return path !== other;
  }, `the ${kind} e-mail with a ${label} link${other ? ' other than the last one' : ''}`);
  return path!;
}

async function bookThroughApi(email: string, date: string, timeSlot: string) {
  const res = await fetch(`${baseUrl()}/api/appointments`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'cf-connecting-ip': '198.51.100.88', origin: baseUrl() },
    body: JSON.stringify({ name: 'Casey Visitor', email, serviceType: 'Tax Planning Consultation', date, timeSlot }),
  });
  if (res.status !== 201) throw new Error(`booking failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { id: number }).id;
}

describe('appointment self-service', () => {
  it('a visitor books, cancels through the e-mailed link, books again and reschedules through the page; the admin sees it', async () => {
    // Days the server offers about five weeks out (far enough that other test files do not book them).
    const day = await bookableDay(36, { slots: ['9:00 AM'] });
    const newDay = await bookableDay(addDays(day, 1), { slots: ['2:00 PM'] });
    // Another weekday in the new day's month, so the calendar shows both without turning.
    const sameMonth = (d: string) => d.slice(0, 7) === newDay.slice(0, 7) && isWeekday(d) && d !== day && d !== newDay;
    const blockedDay = [1, 2, 3, 4, 5, 6, 7, -1, -2, -3, -4, -5, -6, -7].map((k) => addDays(newDay, k)).find(sameMonth)!;
    const email = uniqueEmail('self-service');
    const { page, context, errors } = await newPage(shared.browser, DESKTOP);

    // 1. Book on the Schedule page.
    await open(page, '/schedule');
    await page.getByLabel('Full Name').fill('Casey Visitor');
    await page.getByLabel('Email *').fill(email);
    await page.getByLabel('Service Needed').selectOption('Tax Planning Consultation');
    await pickDay(page, day);
    await page.getByLabel('Preferred Time').selectOption('9:00 AM');
    await page.getByRole('button', { name: 'Schedule Appointment' }).click();
    await expectToast(page, 'Appointment Scheduled!');

    // 2. The Cancel link from the confirmation e-mail only shows the appointment.
    const cancelPath = await linkFromEmail(email, 'appointment-confirmation', 'Cancel');
    expect(cancelPath).toMatch(/^\/appointment\/cancel\?token=/);
    await open(page, cancelPath);
    await page.getByRole('heading', { name: 'Cancel Your Appointment?' }).waitFor();
    expect(await page.locator('main').textContent()).toContain('Tax Planning');
    expect(await page.locator('main').textContent()).toMatch(/at 9:00 AM Eastern Time/);
    const admin = await newPage(shared.browser, DESKTOP);
    await signInThroughCard(admin.page);
    const find = async () => (await api<{ id: number; email: string; status: string; date: string; timeSlot: string }[]>(admin.context, 'GET', '/api/admin/appointments')).filter((a) => a.email === email);
    expect((await find()).map((a) => a.status)).toEqual(['requested']);
    await saveScreens(page, 'appointment-cancel-1280');
    await page.setViewportSize(PHONE);
    await saveScreens(page, 'appointment-cancel-390');
    if (screenshotDir) await page.screenshot({ path: `${screenshotDir}/appointment-cancel-390-viewport.png` });
    await page.setViewportSize(DESKTOP);

    await page.getByRole('button', { name: 'Cancel appointment' }).click();
    await page.getByRole('heading', { name: 'Your appointment is cancelled' }).waitFor();
    expect((await find()).map((a) => a.status)).toEqual(['cancelled']);
    await waitUntil(async () => latestEmailBody(email, 'appointment-status') !== undefined, 'the cancellation e-mail');
    await saveScreens(page, 'appointment-cancelled-1280');

    // The used link now says so, and changes nothing.
    await open(page, cancelPath);
    await page.getByRole('heading', { name: 'This link cannot be used' }).waitFor();
    expect(await page.getByRole('alert').textContent()).toContain('already been cancelled');
    await saveScreens(page, 'appointment-link-used-1280');

    // 3. Book the same slot again (it was freed), then move it through the Reschedule link.
    const cancelledReschedule = await linkFromEmail(email, 'appointment-confirmation', 'Reschedule');
    await bookThroughApi(email, day, '9:00 AM');
    const reschedulePath = await linkFromEmail(email, 'appointment-confirmation', 'Reschedule', cancelledReschedule);
    // The firm closed a day meanwhile: the reschedule calendar greys it out, as the booking form does.
    await api(admin.context, 'POST', '/api/admin/blocked-dates', { date: blockedDay, reason: 'Training day' });
    await open(page, reschedulePath);
    await page.getByRole('heading', { name: 'Reschedule Your Appointment' }).waitFor();
    const blockedCell = await showMonthOf(page, blockedDay);
    await expect.poll(() => blockedCell.getByRole('button').isDisabled()).toBe(true);
    await pickDay(page, newDay);
    await page.getByText('2:00 PM', { exact: true }).click();
    await saveScreens(page, 'appointment-reschedule-1280');
    await page.setViewportSize(PHONE);
    await saveScreens(page, 'appointment-reschedule-390');
    await page.setViewportSize(DESKTOP);
    await page.getByRole('button', { name: 'Move my appointment' }).click();
    await page.getByRole('heading', { name: 'Your appointment has moved' }).waitFor();
    expect(await page.getByRole('status').textContent()).toMatch(/at 2:00 PM Eastern Time/);

    // 4. The admin sees the new state: the first booking cancelled, the second requested at its new time.
    const rows = await find();
    expect(rows.map((a) => [a.status, a.date, a.timeSlot]).sort()).toEqual(
      [
        ['cancelled', day, '9:00 AM'],
        ['requested', newDay, '2:00 PM'],
      ].sort(),
    );
    await api(admin.context, 'DELETE', `/api/admin/blocked-dates/${blockedDay}`);
    await admin.page.goto('/admin');
    await waitUntil(async () => (await admin.page.locator('main').textContent())!.includes(email), 'the appointment in the admin list');
    // The one console error is the browser's note of the used link's 410 answer.
    expect(errors.filter((e) => !e.includes('status of 410'))).toEqual([]);
    await admin.context.close();
    await context.close();
  });
});
