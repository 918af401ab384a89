import ICAL from 'ical.js';
import { createServer, type Server } from 'node:http';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../scripts/lib/local-server';
import { bookableDay, open, pickDay } from '../harness/e2e/booking-helpers';
import { seriousAxeViolations } from '../harness/e2e/a11y-sweep';
import { baseUrl, DESKTOP, newPage, PHONE, SCREEN_SIZES } from '../harness/e2e/browser';
import { adminSessionPerFile, expectToastSaying, saveScreens } from '../harness/e2e/admin-helpers';

// docs/product.md §6.4: the administrator adds the firm's own calendar (a local fake calendar
// server stands in for Google's secret iCal address) and the visitor's time list greys the busy
// hour; the firm's calendar app subscribes to the private feed and sees a new booking at once.

const admin = adminSessionPerFile('/admin/availability');
let calendarServer: Server;
let calendarUrl: string;

/** A day the server offers about six weeks ahead that no other browser test books (set before the tests). */
let day: string;

// The dentist at 1:00 to 1:45 PM in New York on that day: the 1:00 PM slot, and only it, is busy.
const busyIcs = () => {
  const compact = day.replaceAll('-', '');
  return [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Google Inc//Google Calendar 70.9054//EN',
    'BEGIN:VEVENT',
    'UID:dentist@google.com',
    'DTSTAMP:20261101T120000Z',
    `DTSTART;TZID=America/New_York:${compact}T130000`,
    `DTEND;TZID=America/New_York:${compact}T134500`,
    'SUMMARY:Dentist',
    'END:VEVENT',
    'END:VCALENDAR',
    '',
  ].join('\r\n');
};

beforeAll(async () => {
  day = await bookableDay(41, { slots: ['11:00 AM', '1:00 PM', '2:00 PM', '3:00 PM'] });
  const port = await freePort();
  calendarServer = createServer((req, res) => {
    if (req.url === '/private-xyz/basic.ics') {
      res.writeHead(200, { 'content-type': 'text/calendar; charset=utf-8' });
      res.end(busyIcs());
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((resolve) => calendarServer.listen(port, '127.0.0.1', resolve));
  calendarUrl = `http://127.0.0.1:${port}/private-xyz/basic.ics`;
  await admin.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl() });
});

afterAll(async () => {
  await new Promise((resolve) => calendarServer?.close(resolve));
});

/** The option of a time in the visitor's time list, once the day's availability has been read. */
const timeOption = (page: Page, time: string) => page.locator(`#booking-time option[value="${time}"]`);

describe('the firm’s calendar in both directions', () => {
  it('the admin adds a busy calendar: the visitor’s time list greys exactly the busy hour; Remove opens it again', async () => {
    const { page } = admin;
    await page.goto('/admin/availability');
    await page.getByRole('heading', { name: 'Busy calendars' }).waitFor();
    await page.getByLabel('Label', { exact: true }).fill('Dana (Google)');
    await page.getByLabel('iCal address').fill(calendarUrl);
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await expectToastSaying(page, 'Calendar added', '1 busy time now close slots.');
    const row = page.getByTestId('busy-calendar').filter({ hasText: 'Dana (Google)' });
    await row.waitFor();
    expect(await row.textContent()).toContain('http://127.0.0.1');
    expect(await row.textContent()).not.toContain('private-xyz');
    // The new controls, with a calendar listed, fit and pass axe at every screen size.
    for (const [label, viewport] of SCREEN_SIZES) {
      await page.setViewportSize(viewport);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, `sideways scroll at ${label} px`).toBeLessThanOrEqual(0);
      expect(await seriousAxeViolations(page, ['[aria-labelledby="busy-calendars-heading"]', '[aria-labelledby="calendar-feed-heading"]'])).toEqual([]);
      await saveScreens(page, `calendar-sync-${label}`);
    }
    await page.setViewportSize(DESKTOP);

    const visitor = await newPage(admin.browser, PHONE);
    await open(visitor.page, '/schedule');
    await pickDay(visitor.page, day);
    await expect.poll(() => timeOption(visitor.page, '1:00 PM').textContent(), { timeout: 15_000 }).toBe('1:00 PM (unavailable)');
    expect(await timeOption(visitor.page, '1:00 PM').isDisabled()).toBe(true);
    expect(await timeOption(visitor.page, '11:00 AM').isDisabled()).toBe(false);
    expect(await timeOption(visitor.page, '2:00 PM').isDisabled()).toBe(false);
    expect(visitor.errors).toEqual([]);
    await visitor.context.close();

    // Refresh reads it again; Remove gives the hour back.
    await row.getByRole('button', { name: 'Refresh Dana (Google)' }).click();
    await expectToastSaying(page, 'Calendar refreshed', '1 busy time.');
    await row.getByRole('button', { name: 'Remove Dana (Google)' }).click();
    await expectToastSaying(page, 'Calendar removed');
    await row.waitFor({ state: 'detached' });
    const availability = (await (await fetch(`${baseUrl()}/api/appointments/availability?date=${day}`)).json()) as { slots: { time: string; available: boolean }[] };
    expect(availability.slots.find((s) => s.time === '1:00 PM')?.available).toBe(true);
  });

  it('the admin creates the feed address and copies it; a new booking is in the feed; Rotate (confirmed) ends the old address', async () => {
    const { page } = admin;
    await page.goto('/admin/availability');
    await page.getByRole('heading', { name: 'Calendar feed' }).waitFor();
    const create = page.getByRole('button', { name: /^(Create feed address|Rotate address)$/ });
    await create.waitFor();
    if ((await create.textContent())?.includes('Rotate')) {
      await create.click();
      await page.getByRole('dialog').getByRole('button', { name: 'Rotate address' }).click();
    } else {
      await create.click();
    }
    const field = page.getByLabel('Subscription address (shown only now)');
    await field.waitFor();
    const webcal = await field.inputValue();
    expect(webcal).toMatch(/^webcal:\/\/.+\/api\/calendar\/[A-Za-z0-9_-]{43}\.ics$/);
    await page.getByRole('button', { name: 'Copy', exact: true }).click();
    await expectToastSaying(page, 'Copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(webcal);
    await saveScreens(page, 'calendar-feed-1280');

    const feedPath = new URL(webcal.replace('webcal://', 'https://')).pathname;
    const booked = await fetch(`${baseUrl()}/api/appointments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: baseUrl(), 'cf-connecting-ip': '198.51.100.91' },
      body: JSON.stringify({ name: 'Feed Visitor', email: 'feed-visitor@example.com', serviceType: 'Payroll Services', date: day, timeSlot: '3:00 PM' }),
    });
    expect(booked.status).toBe(201);
    const feed = await fetch(`${baseUrl()}${feedPath}`);
    expect(feed.status).toBe(200);
    const calendar = new ICAL.Component(ICAL.parse(await feed.text()));
    const summaries = calendar.getAllSubcomponents('vevent').map((v) => String(v.getFirstPropertyValue('summary')));
    expect(summaries).toContain('Payroll Services: Feed Visitor (requested)');

    // Rotating asks first; then the old address is gone at once.
    await page.reload();
    await page.getByTestId('calendar-feed-status').waitFor();
    await page.getByRole('button', { name: 'Rotate address' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('stops working at once').waitFor();
    await dialog.getByRole('button', { name: 'Rotate address' }).click();
    await expectToastSaying(page, 'Feed address rotated');
    expect((await fetch(`${baseUrl()}${feedPath}`)).status).toBe(404);
    expect(admin.errors).toEqual([]);
  });
});
