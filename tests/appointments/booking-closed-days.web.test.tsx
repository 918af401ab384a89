// @vitest-environment happy-dom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { bookingTimeSlots } from '#core/content/booking';
import { BookingForm } from '../../web/features/booking/components/booking-form';
import { defaultContent } from '#core/content/default-content';
import { captureFetch, fakeNow, json, renderForm, type SentRequest } from '../harness/web/form-harness';

const bookingFormContent = { serviceTypes: defaultContent.booking.serviceTypes, phone: defaultContent.firm.contact.phone, phoneHref: defaultContent.firm.contact.phoneHref, confirmationPromise: defaultContent.firm.confirmationPromise };

// docs/product.md §3: the booking calendar greys out the firm's closed days (§6.4) and the time
// list offers only the chosen weekday's slots. "Now" is Monday 13 July 2026, 10:30 in New York.
fakeNow(new Date('2026-07-13T14:30:00Z'));

const all = [...bookingTimeSlots];
// Wednesday 15 July is blocked; Fridays offer nothing; Thursdays only two slots.
const weekdays = { monday: all, tuesday: all, wednesday: all, thursday: ['9:00 AM', '1:00 PM'], friday: [] };

/** closed-days answers the firm's offer; availability answers each slot free, unless told `closedOn`. */
function server(closedOn: Record<string, string | null> = {}, rules: { firstDay?: string; lastDay?: string } = {}, full: string[] = []) {
  return captureFetch((request: SentRequest) => {
    const url = new URL(request.url, 'http://x');
    if (url.pathname === '/api/appointments/closed-days') {
      const from = url.searchParams.get('from')!;
      const to = url.searchParams.get('to')!;
      const blocked = [{ date: '2026-07-15', reason: 'Staff training' }].filter((b) => b.date >= from && b.date <= to);
      return json({ from, to, blockedDates: blocked, weekdays, ...rules, fullDays: full.filter((d) => d >= from && d <= to) });
    }
    if (url.pathname === '/api/appointments/availability') {
      const date = url.searchParams.get('date')!;
      const closed = date in closedOn || date === '2026-07-15';
      const isFull = full.includes(date);
      const weekday = (['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const)[new Date(`${date}T12:00:00Z`).getUTCDay()];
      const offered: string[] = (weekdays as Record<string, string[]>)[weekday] ?? [];
      return json({
        date,
        closed,
        reason: closed ? (closedOn[date] ?? 'Staff training') : null,
        slots: all.map((time) => ({ time, available: !closed && !isFull && offered.includes(time) })),
      });
    }
    return json({ message: 'Not Found' }, 404);
  });
}

const select = () => screen.getByLabelText('Preferred Time') as unknown as HTMLSelectElement;

/** The calendar, which loads on first use: asked for as a visitor would ("Show available dates"). */
async function grid() {
  const show = screen.queryByRole('button', { name: 'Show available dates' });
  if (show) await userEvent.setup().click(show);
  return screen.findByRole('grid', {}, { timeout: 5000 });
}
const dayButton = (g: HTMLElement, iso: string) => g.querySelector<HTMLButtonElement>(`[data-day="${iso}"] button`)!;

describe('the booking calendar and the firm’s availability', () => {
  it('reads the closed days of the six weeks on show and disables blocked days and weekdays offering nothing', async () => {
    const sent = server();
    renderForm(<BookingForm {...bookingFormContent} />);
    const g = await grid();
    await waitFor(() => expect(dayButton(g, '2026-07-15').disabled).toBe(true));
    expect(dayButton(g, '2026-07-17').disabled).toBe(true); // a Friday: nothing offered
    expect(dayButton(g, '2026-07-16').disabled).toBe(false);
    expect(dayButton(g, '2026-07-14').disabled).toBe(false);
    // July 2026 starts on a Wednesday: the view runs from Sunday 28 June for six weeks.
    expect(sent).toEqual([{ method: 'GET', url: '/api/appointments/closed-days?from=2026-06-28&to=2026-08-08', body: undefined }]);
  });

  it('disables the days the booking rules close: inside the minimum notice and past the horizon (§6.4)', async () => {
    // A 48-hour notice from Monday 10:30 leaves Wednesday the first day; a 38-day horizon ends 20 August.
    server({}, { firstDay: '2026-07-15', lastDay: '2026-08-20' });
    renderForm(<BookingForm {...bookingFormContent} />);
    const g = await grid();
    await waitFor(() => expect(dayButton(g, '2026-07-14').disabled).toBe(true));
    expect(dayButton(g, '2026-07-13').disabled).toBe(true);
    expect(dayButton(g, '2026-07-16').disabled).toBe(false);
    const user = userEvent.setup();
    await user.click(within(g.parentElement!.parentElement!).getByRole('button', { name: /next month/i }));
    const august = await screen.findByRole('grid', { name: /August 2026/ });
    await waitFor(() => expect(dayButton(august, '2026-08-21').disabled).toBe(true));
    expect(dayButton(august, '2026-08-20').disabled).toBe(false);
  });

  it('reads the next month’s closed days when the visitor turns the month', async () => {
    const sent = server();
    renderForm(<BookingForm {...bookingFormContent} />);
    const user = userEvent.setup();
    const g = await grid();
    await waitFor(() => expect(sent).toHaveLength(1));
    await user.click(within(g.parentElement!.parentElement!).getByRole('button', { name: /next month/i }));
    await waitFor(() => expect(sent.map((r) => r.url)).toContain('/api/appointments/closed-days?from=2026-07-26&to=2026-09-05'));
  });

  it('offers only the chosen weekday’s slots', async () => {
    server();
    renderForm(<BookingForm {...bookingFormContent} />);
    const user = userEvent.setup();
    const g = await grid();
    await waitFor(() => expect(dayButton(g, '2026-07-15').disabled).toBe(true));
    await user.click(dayButton(g, '2026-07-16'));
    await waitFor(() => expect([...select().options].map((o) => o.value)).toEqual(['', '9:00 AM', '1:00 PM']));
    // The empty choice ("No preferred time") stays selectable: Preferred Time is optional.
    expect([...select().options].map((o) => o.disabled)).toEqual([false, false, false]);
    await user.click(dayButton(g, '2026-07-14'));
    await waitFor(() => expect([...select().options].map((o) => o.value)).toEqual(['', ...all]));
  });

  it('says the chosen day is closed, with the reason, when its availability says so (blocked after the month was read)', async () => {
    server({ '2026-07-14': 'Snow day' });
    renderForm(<BookingForm {...bookingFormContent} />);
    const user = userEvent.setup();
    const g = await grid();
    await user.click(dayButton(g, '2026-07-14'));
    expect((await screen.findByTestId('booking-day-closed')).textContent).toBe('We are closed on this day (Snow day). Please choose another day.');
    expect([...select().options].slice(1).every((o) => o.disabled)).toBe(true);
  });

  // Issue 49: a day filled by bookings and busy time stayed clickable, with no reason given.
  it('disables the full days the month’s answer lists, says why in their names, tooltips and a line under the calendar', async () => {
    // Tuesday 14 and Thursday 16 July are full; Monday 3 August too (next month).
    server({}, {}, ['2026-07-14', '2026-07-16', '2026-08-03']);
    renderForm(<BookingForm {...bookingFormContent} />);
    const g = await grid();
    await waitFor(() => expect(dayButton(g, '2026-07-14').disabled).toBe(true));
    expect(dayButton(g, '2026-07-16').disabled).toBe(true);
    expect(dayButton(g, '2026-07-14').getAttribute('aria-label')).toBe('Tuesday, July 14th, 2026, fully booked');
    expect(dayButton(g, '2026-07-14').title).toBe('Fully booked');
    expect(dayButton(g, '2026-07-20').disabled).toBe(false);
    expect(dayButton(g, '2026-07-20').getAttribute('aria-label')).toBe('Monday, July 20th, 2026');
    expect(dayButton(g, '2026-07-20').title).toBe('');
    expect(screen.getByTestId('booking-full-days').textContent).toBe('Fully booked: Tuesday, July 14 and Thursday, July 16.');

    // The next month names its own.
    const user = userEvent.setup();
    await user.click(within(g.parentElement!.parentElement!).getByRole('button', { name: /next month/i }));
    const august = await screen.findByRole('grid', { name: /August 2026/ });
    await waitFor(() => expect(screen.getByTestId('booking-full-days').textContent).toBe('Fully booked: Monday, August 3.'));
    expect(dayButton(august, '2026-08-03').disabled).toBe(true);
  });

  it('tells the visitor when the chosen day has no time left (taken after the month was read)', async () => {
    server({}, {}, []);
    renderForm(<BookingForm {...bookingFormContent} />);
    const user = userEvent.setup();
    const g = await grid();
    await waitFor(() => expect(dayButton(g, '2026-07-15').disabled).toBe(true));
    // Every slot of Tuesday 14 July is unavailable in its own answer.
    server({}, {}, ['2026-07-14']);
    await user.click(dayButton(g, '2026-07-14'));
    expect((await screen.findByTestId('booking-day-full')).textContent).toBe('No times left on Tuesday, July 14. Please choose another day.');
  });
});
