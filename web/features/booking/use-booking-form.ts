import { startTransition, useEffect, useState, type FormEvent } from 'react';
import { bookingTimeSlots } from '#core/content/booking';
import { firm } from '#core/content/firm';
import type { AppointmentInput } from '#core/schemas/appointments';
import { firmToday } from '#core/firm-time';
import { toast } from '../../components/ui/use-toast';
import { trackFormSubmission } from '../../lib/analytics';
import { useTurnstile } from '../../lib/turnstile';
import { useSchemaForm, type FieldErrors } from '../../lib/use-schema-form';
import { bookAppointment, bookingFailureText, fetchAvailability, type SlotAvailability } from './api/appointments';
import type { BookingCalendar } from './components/booking-calendar';
import { fromIsoDate, toIsoDate, useClosedDays } from './use-closed-days';

// docs/product.md §3: the booking form's state; everything starts empty, the date unset.
export interface BookingState {
  name: string;
  email: string;
  phone: string;
  serviceType: string;
  date: Date | undefined;
  timeSlot: string;
  notes: string;
}
const EMPTY: BookingState = { name: '', email: '', phone: '', serviceType: '', date: undefined, timeSlot: '', notes: '' };

export type BookingFieldErrors = FieldErrors<BookingState>;

/** The lazily loaded calendar component and "today" in the firm's zone, once both are known. */
export type LoadedCalendar = { Calendar: typeof BookingCalendar; today: Date };

/** What POST /api/appointments gets: the chosen day as text, no preferred time as null. */
const toRequest = (form: BookingState): AppointmentInput => ({
  name: form.name,
  email: form.email,
  phone: form.phone,
  serviceType: form.serviceType as AppointmentInput['serviceType'],
  date: form.date ? toIsoDate(form.date) : '',
  timeSlot: (form.timeSlot || null) as AppointmentInput['timeSlot'],
  notes: form.notes,
});


/**
 * docs/product.md §3: the booking form's data and behaviour (the markup is
 * components/booking-form.tsx): the lazily loaded calendar, the chosen day's availability, the
 * shared schema's checks on submit, the submission and its outcome (toasts, analytics).
 */
export function useBookingForm() {
  const turnstile = useTurnstile();
  // The shared schema's checks (loaded with the first complete submit), the submission and its
  // outcome: toasts and analytics.
  const booking = useSchemaForm({
    id: 'booking',
    initial: EMPTY,
    schema: () => import('./validate-appointment').then((module) => module.appointmentSchema),
    toInput: toRequest,
    submit: async (_data, values) => {
      const request = toRequest(values);
      try {
        await bookAppointment({ ...request, ...(await turnstile.tokenField()) });
      } finally {
        turnstile.reset();
        // Booked or refused, that day's availability is read again before the visitor hears back.
        await loadAvailability(request.date);
      }
      trackFormSubmission('Appointment Booking', 'success');
      toast({ title: 'Appointment Scheduled!', description: "We'll contact you shortly to confirm your appointment." });
      booking.reset();
    },
    onInvalid: (_errors, first) => toast({ variant: 'destructive', title: 'Error', description: first }),
    onLoadError: (error) => {
      console.error('Appointment booking failed:', error);
      toast({ variant: 'destructive', title: 'Error', description: 'Failed to schedule appointment. Please try again.' });
    },
    onError: async (error) => {
      const failureText = await bookingFailureText(error);
      console.error('Appointment booking failed:', error);
      trackFormSubmission('Appointment Booking', 'error');
      toast({ variant: 'destructive', title: 'Error', description: failureText });
    },
  });
  const { values: form, errors, pending, setValue } = booking;
  // "Today" in the firm's zone, known only in the browser: the prerendered HTML (built earlier)
  // shows a same-sized placeholder instead of a calendar frozen at build time. The calendar
  // (react-day-picker with its date-fns, about 20 KB) is its own chunk, loaded on first use: when
  // the visitor reaches for the form (pointer over it, a touch, the focus) or asks for the dates, so
  // a visit that only reads the page never downloads it (docs/product.md §3).
  const [calendar, setCalendar] = useState<LoadedCalendar | null>(null);
  const [calendarWanted, setCalendarWanted] = useState(false);
  const startCalendar = () => setCalendarWanted(true);
  useEffect(() => {
    if (!calendarWanted) return;
    let live = true;
    // The browser's first time-zone date format is its slowest (it loads the zone data): done
    // here, while the calendar chunk downloads, rather than in the same task as its evaluation.
    const today = fromIsoDate(firmToday(firm.timeZone));
    void import('./components/booking-calendar').then(({ BookingCalendar }) => {
      // A transition: React renders the month in short slices instead of one long task.
      if (live) startTransition(() => setCalendar({ Calendar: BookingCalendar, today }));
    }, (error: unknown) => console.error('Booking calendar failed to load:', error));
    return () => {
      live = false;
    };
  }, [calendarWanted]);

  // The firm's closed days: blocked dates and weekdays offering nothing are disabled, and the time
  // list offers only the chosen weekday's slots.
  const [month, setMonth] = useState<Date | null>(null);
  const closedDays = useClosedDays(month ?? calendar?.today ?? null);
  const { offerOn } = closedDays;

  const isoDate = form.date ? toIsoDate(form.date) : null;
  // The chosen weekday's slots, in the form's order (all seven until the offer is known).
  const offered: readonly string[] = (form.date && offerOn(form.date.getDay())) || bookingTimeSlots;
  // Whether each day read so far is closed (with its reason) or open, as its availability said.
  const [closedByDate, setClosedByDate] = useState<Record<string, { reason: string | null } | null>>({});
  // Each day's slots as last read from the server (kept while a re-read is under way).
  const [slotsByDate, setSlotsByDate] = useState<Record<string, SlotAvailability[]>>({});
  const loadAvailability = async (date: string) => {
    try {
      const { slots, closed, reason } = await fetchAvailability(date);
      setSlotsByDate((known) => ({ ...known, [date]: slots }));
      setClosedByDate((known) => ({ ...known, [date]: closed ? { reason } : null }));
    } catch {
      // Unknown availability: every slot stays selectable; the server still refuses a taken one.
    }
  };
  useEffect(() => {
    if (isoDate) void loadAvailability(isoDate);
  }, [isoDate]);
  const slots = isoDate ? slotsByDate[isoDate] : undefined;
  const unavailable = new Set<string>(slots?.filter((s) => !s.available).map((s) => s.time));

  // A slot chosen before its day's availability arrived (or booked by someone meanwhile) is dropped.
  useEffect(() => {
    if (form.timeSlot && unavailable.has(form.timeSlot)) setValue('timeSlot', '');
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only when the day's slots arrive, not on every choice
  }, [slots]);

  const update = <K extends keyof BookingState>(key: K, value: BookingState[K]) => setValue(key, value);

  function handleSubmit(event: FormEvent) {
    event.preventDefault();
    // Preferred Time is optional (docs/product.md §3): a request without one leaves the time to the firm.
    if (!form.name.trim() || !form.email.trim() || !form.serviceType || !form.date) {
      toast({ variant: 'destructive', title: 'Missing Information', description: 'Please fill in all required fields' });
      return;
    }
    // The same rules the server applies (shared schema): catch a short phone number here.
    void booking.handleSubmit();
  }

  // The chosen day is closed: as its own availability said, else as the month's blocked dates say.
  const dayClosed = !isoDate
    ? null
    : isoDate in closedByDate
      ? closedByDate[isoDate]
      : isoDate in closedDays.blocked
        ? { reason: closedDays.blocked[isoDate] }
        : null;
  // The full days of the month on show, for the line under the calendar ("Fully booked: ...").
  const shown = month ?? calendar?.today;
  const shownMonth = shown ? toIsoDate(shown).slice(0, 7) : null;
  const closed = {
    dates: closedDays.dates,
    weekdays: closedDays.weekdays,
    fullDates: closedDays.fullDates,
    fullInMonth: closedDays.fullDates.filter((date) => date.slice(0, 7) === shownMonth).sort(),
    // The chosen day has no time left: as the month said, or as its own slots say once read.
    dayFull: isoDate !== null && !dayClosed && closedDays.fullDates.includes(isoDate),
    firstDay: closedDays.firstDay,
    lastDay: closedDays.lastDay,
    day: dayClosed,
    onMonthChange: setMonth,
  };

  const { field, described } = booking;
  return { form, errors, pending, calendar, calendarWanted, startCalendar, slots, unavailable, offered, closed, field, described, update, handleSubmit, turnstile };
}
