// @vitest-environment happy-dom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { BOOKING_HORIZON_DAYS, bookingTimeSlots } from '#core/content/booking';
import { BookingForm } from '../../web/features/booking/components/booking-form';
import { defaultContent } from '#core/content/default-content';
import { captureFetch, dataLayer, deferred, fakeNow, json, renderForm, shownToasts, type SentRequest } from '../harness/web/form-harness';

const bookingFormContent = { serviceTypes: defaultContent.booking.serviceTypes, phone: defaultContent.firm.contact.phone, phoneHref: defaultContent.firm.contact.phoneHref, confirmationPromise: defaultContent.firm.confirmationPromise };

// docs/product.md §3 (the form), §9 (its messages, exact), §10 (its toasts), §12 (its events).
// "Now" is Monday 13 July 2026, 10:30 in the firm's zone (America/New_York): only Date is faked, so
// the calendar still loads on its own (idle callback or timer) as it does in the browser.
fakeNow(new Date('2026-07-13T14:30:00Z'));

const allFree = (date: string) => ({ date, slots: bookingTimeSlots.map((time) => ({ time, available: true })) });

/**
 * The availability route answers every slot free except `taken`; the booking route answers `book`.
 * The calendar's closed-days read (an open firm: no blocked date, every weekday's seven slots) is
 * answered but left out of the returned list, which holds what the form itself sends.
 */
function server(book: (request: SentRequest) => Response | Promise<Response>, taken: string[] = []) {
  const sent = captureFetch((request) => {
    if (request.method === 'GET' && request.url.startsWith('/api/appointments/closed-days?')) {
      sent.splice(sent.indexOf(request), 1);
      const query = new URL(request.url, 'http://x').searchParams;
      const weekdays = Object.fromEntries(['monday', 'tuesday', 'wednesday', 'thursday', 'friday'].map((day) => [day, [...bookingTimeSlots]]));
      return json({ from: query.get('from'), to: query.get('to'), blockedDates: [], weekdays });
    }
    if (request.method === 'GET' && request.url.startsWith('/api/appointments/availability?date=')) {
      const date = new URL(request.url, 'http://x').searchParams.get('date')!;
      const day = allFree(date);
      return json({ ...day, slots: day.slots.map((s) => ({ ...s, available: !taken.includes(s.time) })) });
    }
    if (request.method === 'POST' && request.url === '/api/appointments') return book(request);
    return json({ message: 'Not Found' }, 404);
  });
  return sent;
}

const booked = (request: SentRequest) => {
  const body = request.body as { date: string; timeSlot: string };
  return json({ id: 1, date: body.date, timeSlot: body.timeSlot, status: 'requested', message: 'Appointment requested' }, 201);
};

const fieldError = (key: string) => document.getElementById(`booking-${key}-error`)?.textContent;
// (Through unknown: the Workers types' HTMLRewriter Element clashes with the DOM's select element.)
const select = (label: string) => screen.getByLabelText(label) as unknown as HTMLSelectElement;

/** Waits for the lazily loaded calendar and clicks a day of July 2026. */
async function pickDay(user: ReturnType<typeof userEvent.setup>, day: number) {
  // The calendar loads on first use: a visitor who goes straight for the date asks for it.
  const show = screen.queryByRole('button', { name: 'Show available dates' });
  if (show) await user.click(show);
  const grid = await screen.findByRole('grid', {}, { timeout: 5000 });
  const button = within(grid)
    .getAllByRole('button')
    .find((b) => b.closest('[data-day]')?.getAttribute('data-day') === `2026-07-${String(day).padStart(2, '0')}`);
  if (!button) throw new Error(`no button for July ${day}`);
  await user.click(button);
}

async function fillAll(values: { name?: string; email?: string; phone?: string; service?: string; day?: number; time?: string; notes?: string }) {
  const user = userEvent.setup();
  if (values.name !== undefined) {
    await user.click(screen.getByLabelText('Full Name *'));
    await user.paste(values.name);
  }
  if (values.email !== undefined) {
    await user.click(screen.getByLabelText('Email *'));
    await user.paste(values.email);
  }
  if (values.phone !== undefined) {
    await user.click(screen.getByLabelText('Phone Number'));
    await user.paste(values.phone);
  }
  if (values.service !== undefined) await user.selectOptions(screen.getByLabelText('Service Needed *'), values.service);
  if (values.day !== undefined) await pickDay(user, values.day);
  if (values.time !== undefined) {
    await waitFor(() => expect(select('Preferred Time').querySelector(`option[value="${values.time}"]`)?.hasAttribute('disabled')).toBe(false));
    await user.selectOptions(screen.getByLabelText('Preferred Time'), values.time);
  }
  if (values.notes !== undefined) {
    await user.click(screen.getByLabelText('Additional Notes'));
    await user.paste(values.notes);
  }
  return user;
}

const complete = { name: 'Ann Lee', email: 'ann@example.com', phone: '(412) 555-0142', service: 'Tax Planning Consultation', day: 15, time: '2:00 PM' };
const submit = (user: ReturnType<typeof userEvent.setup>) => user.click(screen.getByRole('button', { name: 'Schedule Appointment' }));

/** Renders the form, fills it in with `values` and sends it; returns the user for any further steps. */
async function sendFilled(values: Parameters<typeof fillAll>[0]) {
  renderForm(<BookingForm {...bookingFormContent} />);
  const user = await fillAll(values);
  await submit(user);
  return user;
}

describe('the booking form', () => {
  it('loads the calendar on first use, with weekends and past days disabled', async () => {
    server(booked);
    renderForm(<BookingForm {...bookingFormContent} />);
    const user = userEvent.setup();
    // Nothing loads while the visitor only reads the page.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(screen.queryByRole('grid')).toBeNull();
    expect(screen.queryByText('Loading calendar...')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Show available dates' }));
    const grid = await screen.findByRole('grid', {}, { timeout: 5000 });
    const dayButton = (iso: string) => grid.querySelector<HTMLButtonElement>(`[data-day="${iso}"] button`)!;
    expect(dayButton('2026-07-13').disabled).toBe(false); // today, a Monday
    expect(dayButton('2026-07-10').disabled).toBe(true); // past
    expect(dayButton('2026-07-18').disabled).toBe(true); // Saturday
    expect(screen.queryByText('Loading calendar...')).toBeNull();
  });

  it('says "Missing Information" and sends nothing while a required field is empty', async () => {
    const sent = server(booked);
    await sendFilled({ name: 'Ann Lee', email: 'ann@example.com', service: 'Payroll Services' });
    await waitFor(() => expect(shownToasts()).toEqual([{ variant: 'destructive', title: 'Missing Information', description: 'Please fill in all required fields' }]));
    expect(sent).toEqual([]);
    expect(dataLayer()).toEqual([]);
  });

  it('marks Preferred Time optional: no asterisk, while the four required fields keep theirs', () => {
    server(booked);
    renderForm(<BookingForm {...bookingFormContent} />);
    expect(screen.getByText('Preferred Time').tagName).toBe('LABEL');
    expect(screen.queryByText('Preferred Time *')).toBeNull();
    for (const label of ['Full Name *', 'Email *', 'Service Needed *']) expect(screen.getByLabelText(label)).toBeTruthy();
    expect(screen.getByRole('group', { name: 'Preferred Date (required)' })).toBeTruthy();
  });

  it.each([
    ['name', { ...complete, name: undefined }],
    ['email', { ...complete, email: undefined }],
    ['service type', { ...complete, service: undefined }],
    ['date', { ...complete, day: undefined, time: undefined }],
  ])('says "Missing Information" without a %s, even with a time chosen', async (_field, values) => {
    const sent = server(booked);
    await sendFilled(values);
    await waitFor(() => expect(shownToasts()).toEqual([{ variant: 'destructive', title: 'Missing Information', description: 'Please fill in all required fields' }]));
    expect(sent.filter((r) => r.method === 'POST')).toEqual([]);
  });

  it('sends a booking without a preferred time, and the visitor sees the usual success', async () => {
    const sent = server(booked);
    await sendFilled({ ...complete, time: undefined });
    await waitFor(() =>
      expect(shownToasts()).toEqual([{ variant: 'default', title: 'Appointment Scheduled!', description: "We'll contact you shortly to confirm your appointment." }]),
    );
    expect(sent.find((r) => r.method === 'POST')).toEqual({
      method: 'POST',
      url: '/api/appointments',
      body: { name: 'Ann Lee', email: 'ann@example.com', phone: '(412) 555-0142', serviceType: 'Tax Planning Consultation', date: '2026-07-15', timeSlot: null, notes: '' },
    });
  });

  it('lets the visitor go back to no preferred time after choosing one', async () => {
    const sent = server(booked);
    renderForm(<BookingForm {...bookingFormContent} />);
    const user = await fillAll(complete);
    await user.selectOptions(screen.getByLabelText('Preferred Time'), '');
    await submit(user);
    await waitFor(() => expect(sent.filter((r) => r.method === 'POST')).toHaveLength(1));
    expect((sent.find((r) => r.method === 'POST')!.body as { timeSlot: unknown }).timeSlot).toBeNull();
  });

  it('offers no day past the booking horizon (a year ahead) in the calendar', async () => {
    server(booked);
    renderForm(<BookingForm {...bookingFormContent} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Show available dates' }));
    await screen.findByRole('grid', {}, { timeout: 5000 });
    // Today is 13 July 2026; BOOKING_HORIZON_DAYS (365) later is Tuesday 13 July 2027.
    expect(BOOKING_HORIZON_DAYS).toBe(365);
    for (let i = 0; i < 12; i++) await user.click(screen.getByRole('button', { name: /next month/i }));
    const grid = await screen.findByRole('grid', { name: /July 2027/ });
    const dayButton = (iso: string) => grid.querySelector<HTMLButtonElement>(`[data-day="${iso}"] button`)!;
    expect(dayButton('2027-07-13').disabled).toBe(false);
    expect(dayButton('2027-07-14').disabled).toBe(true);
    // No month after the horizon's.
    expect(screen.getByRole('button', { name: /next month/i }).getAttribute('aria-disabled')).toBe('true');
  });

  it("reads the chosen day's availability and marks taken slots unavailable", async () => {
    const sent = server(booked, ['10:00 AM', '3:00 PM']);
    renderForm(<BookingForm {...bookingFormContent} />);
    expect(select('Preferred Time').options[0].textContent).toBe('Select a date first');
    const user = userEvent.setup();
    await pickDay(user, 15);
    expect(screen.getByText('Selected: Wednesday, July 15, 2026')).toBeTruthy();
    await waitFor(() => expect(select('Preferred Time').querySelector('option[value="10:00 AM"]')?.textContent).toBe('10:00 AM (unavailable)'));
    const options = [...select('Preferred Time').options].map((o) => [o.value, o.textContent, o.disabled]);
    expect(options).toEqual([
      // Preferred Time is optional: the empty choice stays selectable.
      ['', 'No preferred time', false],
      ['9:00 AM', '9:00 AM', false],
      ['10:00 AM', '10:00 AM (unavailable)', true],
      ['11:00 AM', '11:00 AM', false],
      ['1:00 PM', '1:00 PM', false],
      ['2:00 PM', '2:00 PM', false],
      ['3:00 PM', '3:00 PM (unavailable)', true],
      ['4:00 PM', '4:00 PM', false],
    ]);
    expect(sent).toEqual([{ method: 'GET', url: '/api/appointments/availability?date=2026-07-15', body: undefined }]);
  });

  it('says when no time is left on the chosen day', async () => {
    server(booked, [...bookingTimeSlots]);
    renderForm(<BookingForm {...bookingFormContent} />);
    await pickDay(userEvent.setup(), 16);
    expect((await screen.findByTestId('booking-day-full')).textContent).toMatch(/^No times left on [A-Z][a-z]+day, [A-Z][a-z]+ \d{1,2}\. Please choose another day\.$/);
  });

  it('checks the fields with the shared schema before sending (exact messages)', async () => {
    const sent = server(booked);
    const user = await sendFilled({ ...complete, name: 'n'.repeat(101), email: 'ann@', phone: '555-0142', notes: 'x'.repeat(2001) });
    await waitFor(() => expect(fieldError('name')).toBe('Name must be at most 100 characters'));
    expect(fieldError('email')).toBe('Please enter a valid email address');
    expect(fieldError('phone')).toBe('Please enter a valid phone number');
    expect(fieldError('notes')).toBe('Notes must be at most 2000 characters');
    expect(fieldError('timeSlot')).toBeUndefined();
    expect(screen.getByLabelText('Phone Number').getAttribute('aria-invalid')).toBe('true');
    expect(shownToasts()).toEqual([{ variant: 'destructive', title: 'Error', description: 'Name must be at most 100 characters' }]);
    expect(sent.filter((r) => r.method === 'POST')).toEqual([]);

    // Editing a field clears its message.
    await user.clear(screen.getByLabelText('Phone Number'));
    expect(fieldError('phone')).toBeUndefined();
    expect(fieldError('email')).toBe('Please enter a valid email address');
  });

  it('refuses a slot of today that has already started', async () => {
    const sent = server(booked);
    await sendFilled({ ...complete, day: 13, time: '9:00 AM' });
    await waitFor(() => expect(fieldError('timeSlot')).toBe('That time has already passed today. Please choose a later time or another day.'));
    expect(shownToasts()).toEqual([
      { variant: 'destructive', title: 'Error', description: 'That time has already passed today. Please choose a later time or another day.' },
    ]);
    expect(sent.filter((r) => r.method === 'POST')).toEqual([]);
  });

  it('POSTs the booking, disables the button while sending, re-reads the day and empties the form', async () => {
    const answer = deferred<Response>();
    const sent = server(() => answer.promise);
    const user = await sendFilled({ ...complete, notes: 'First visit.' });

    const sending = await screen.findByRole('button', { name: 'Scheduling...' });
    expect((sending as HTMLButtonElement).disabled).toBe(true);
    await waitFor(() => expect(sent.filter((r) => r.method === 'POST')).toHaveLength(1));
    expect(sent.find((r) => r.method === 'POST')).toEqual({
      method: 'POST',
      url: '/api/appointments',
      body: { name: 'Ann Lee', email: 'ann@example.com', phone: '(412) 555-0142', serviceType: 'Tax Planning Consultation', date: '2026-07-15', timeSlot: '2:00 PM', notes: 'First visit.' },
    });
    // A second click while sending does nothing.
    await user.click(sending);
    expect(sent.filter((r) => r.method === 'POST')).toHaveLength(1);

    answer.resolve(booked(sent.find((r) => r.method === 'POST')!));
    await waitFor(() =>
      expect(shownToasts()).toEqual([{ variant: 'default', title: 'Appointment Scheduled!', description: "We'll contact you shortly to confirm your appointment." }]),
    );
    expect(sent.map((r) => `${r.method} ${r.url}`)).toEqual([
      'GET /api/appointments/availability?date=2026-07-15',
      'POST /api/appointments',
      'GET /api/appointments/availability?date=2026-07-15',
    ]);
    expect((screen.getByLabelText('Full Name *') as HTMLInputElement).value).toBe('');
    expect(select('Service Needed *').value).toBe('');
    expect(select('Preferred Time').value).toBe('');
    expect(screen.getByText('Weekdays only; pick a day from today onward.')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Schedule Appointment' }) as HTMLButtonElement).disabled).toBe(false);
    expect(dataLayer()).toEqual([{ event: 'form_submission', category: 'Forms', action: 'success', label: 'Appointment Booking' }]);
  });

  it("shows the server's message for a slot taken meanwhile (409) and keeps the form", async () => {
    server(() => json({ message: 'Sorry, that time has just been booked. Please choose another time or day.' }, 409));
    await sendFilled(complete);
    await waitFor(() =>
      expect(shownToasts()).toEqual([
        { variant: 'destructive', title: 'Error', description: 'Sorry, that time has just been booked. Please choose another time or day.' },
      ]),
    );
    expect((screen.getByLabelText('Full Name *') as HTMLInputElement).value).toBe('Ann Lee');
    expect(dataLayer()).toEqual([{ event: 'form_submission', category: 'Forms', action: 'error', label: 'Appointment Booking' }]);
  });

  it('shows the generic text for any other failure, whatever the server says', async () => {
    server(() => json({ message: 'Internal details' }, 500));
    await sendFilled(complete);
    await waitFor(() => expect(shownToasts()).toEqual([{ variant: 'destructive', title: 'Error', description: 'Failed to schedule appointment. Please try again.' }]));
  });

  it('drops a chosen slot that the re-read shows as taken', async () => {
    let taken: string[] = [];
    captureFetch((request) => {
      if (request.method === 'POST') return json({ message: 'Sorry, that time has just been booked. Please choose another time or day.' }, 409);
      return json({ date: '2026-07-15', slots: bookingTimeSlots.map((time) => ({ time, available: !taken.includes(time) })) });
    });
    renderForm(<BookingForm {...bookingFormContent} />);
    const user = await fillAll(complete);
    taken = ['2:00 PM'];
    await submit(user);
    await waitFor(() => expect(select('Preferred Time').value).toBe(''));
    expect(select('Preferred Time').querySelector('option[value="2:00 PM"]')?.textContent).toBe('2:00 PM (unavailable)');
  });
});
