import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { api, browserPerFile, expectToastSaying, signInThroughCard, uniqueEmail, waitUntil } from '../harness/e2e/admin-helpers';
import { bookableDay, open, pickDay } from '../harness/e2e/booking-helpers';
import { baseUrl, DESKTOP, expectToast, newPage } from '../harness/e2e/browser';

// Preferred Time is optional (docs/product.md §3), against the real local stack: a visitor books
// without a time; the admin sees "No preferred time" and confirms it by picking one of the day's
// free slots; only then does the visitor get the calendar invite and the self-service links.

const shared = browserPerFile();

type Logged = { to: string; kind: string; subject: string; textBody: string; attachments: { filename: string; content: string }[] };

/** A day the server offers 20 to 70 days ahead, at random so other files' bookings rarely share it. */
const someWeekday = () => bookableDay(20 + Math.floor(Math.random() * 50));

describe('a booking without a preferred time', () => {
  it('is sent by the visitor without a time, then confirmed by the admin with a free slot, and only then carries the invite', async () => {
    const day = await someWeekday();
    const email = uniqueEmail('no-time');
    const visitor = await newPage(shared.browser, DESKTOP);
    await open(visitor.page, '/schedule');
    const { page } = visitor;
    await page.getByLabel('Full Name').fill('Quinn Notime');
    await page.getByLabel('Email *').fill(email);
    await page.getByLabel('Service Needed').selectOption('Bookkeeping Services');
    await pickDay(page, day);
    // No asterisk, and the empty choice reads "No preferred time" once a day is chosen.
    expect(await page.locator('label[for="booking-time"]').textContent()).toBe('Preferred Time');
    await expect.poll(() => page.locator('#booking-time option[value=""]').textContent()).toBe('No preferred time');
    expect(await page.getByLabel('Preferred Time').inputValue()).toBe('');
    await page.getByRole('button', { name: 'Schedule Appointment' }).click();
    await expectToast(page, 'Appointment Scheduled!', "We'll contact you shortly to confirm your appointment.");
    expect(visitor.errors).toEqual([]);
    await visitor.context.close();

    const admin = await newPage(shared.browser, DESKTOP);
    await signInThroughCard(admin.page);
    // Another visitor holds 10:00 AM that day: the admin must not be offered it.
    const taken = await admin.context.request.post('/api/appointments', {
      data: { name: 'Tess Timed', email: uniqueEmail('timed'), serviceType: 'Payroll Services', date: day, timeSlot: '10:00 AM' },
      headers: { origin: baseUrl() },
    });
    expect([201, 409]).toContain(taken.status());

    // The acknowledgement went out without an invite; the firm's notification says "No preferred time".
    const acknowledged = (await api<Logged[]>(admin.context, 'GET', '/api/admin/emails')).filter((e) => e.to === email);
    expect(acknowledged.map((e) => [e.kind, e.attachments.length])).toEqual([['appointment-confirmation', 0]]);
    expect(acknowledged[0].textBody).toContain('We will confirm a time with you within 24 hours');
    expect(acknowledged[0].textBody).not.toContain('Reschedule:');

    // Searched for (the list holds 50 upcoming a page, and other files book too).
    await admin.page.goto(`/admin?appointments-q=${encodeURIComponent(email)}`);
    const card = admin.page.getByTestId('appointment-card').filter({ hasText: email });
    await card.waitFor({ timeout: 15_000 });
    expect(await card.getByRole('heading', { level: 4 }).textContent()).toBe('No preferred time · Bookkeeping Services');
    await card.getByRole('button', { name: 'Confirm' }).click();
    const dialog = admin.page.getByRole('dialog', { name: 'Confirm with a time' });
    await dialog.waitFor();
    const time = dialog.getByLabel('Time');
    await time.waitFor({ timeout: 15_000 });
    const offered = await time.locator('option:not([value=""])').evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
    expect(offered.length).toBeGreaterThan(0);
    expect(offered).not.toContain('10:00 AM');
    // Nothing can be confirmed before a time is chosen.
    expect(await dialog.getByRole('button', { name: 'Confirm appointment' }).isDisabled()).toBe(true);
    const slot = offered.includes('1:00 PM') ? '1:00 PM' : offered[0];
    await time.selectOption(slot);
    await dialog.getByRole('button', { name: 'Confirm appointment' }).click();
    await expectToastSaying(admin.page, 'Appointment confirmed');
    await waitUntil(async () => (await card.getByRole('heading', { level: 4 }).textContent()) === `${slot} ET · Bookkeeping Services`, 'the card to show the slot');
    expect(await card.getByText('Confirmed', { exact: true }).isVisible()).toBe(true);

    // The confirmation carries the invite at the picked slot (a real iCalendar parser reads it) and both links.
    const confirmation = (await api<Logged[]>(admin.context, 'GET', '/api/admin/emails')).find((e) => e.to === email && e.kind === 'appointment-status');
    expect(confirmation?.attachments).toHaveLength(1);
    const calendar = new ICAL.Component(ICAL.parse(Buffer.from(confirmation!.attachments[0].content, 'base64').toString('utf8')));
    for (const zone of calendar.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(zone);
    expect(calendar.getFirstPropertyValue('method')).toBe('REQUEST');
    const event = new ICAL.Event(calendar.getFirstSubcomponent('vevent')!);
    expect(calendar.getFirstSubcomponent('vevent')!.getFirstPropertyValue('status')).toBe('CONFIRMED');
    const [, h, m, meridiem] = /^(\d{1,2}):(\d{2}) (AM|PM)$/.exec(slot)!;
    const wallClock = `${String((Number(h) % 12) + (meridiem === 'PM' ? 12 : 0)).padStart(2, '0')}:${m}`;
    expect(event.startDate.toString()).toBe(`${day}T${wallClock}:00`);
    expect(event.startDate.zone.tzid).toBe('America/New_York');
    expect(confirmation!.textBody).toMatch(/^Reschedule: \S+\/appointment\/reschedule\?token=/m);
    expect(confirmation!.textBody).toMatch(/^Cancel: \S+\/appointment\/cancel\?token=/m);
    await admin.context.close();
  });
});
