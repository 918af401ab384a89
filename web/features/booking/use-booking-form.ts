import { startTransition, useEffect, useRef, useState, type FormEvent } from 'react';
import { bookingTimeSlots } from '#core/content/booking';
import { firm } from '#core/content/firm';
import type { AppointmentInput } from '#core/schemas/appointments';
import { firmToday } from '#core/firm-time';
import { toast } from '../../components/ui/use-toast';
import { trackFormSubmission } from '../../lib/analytics';
import { useTurnstile } from '../../lib/turnstile';
import { bookAppointment, bookingFailureText, fetchAvailability, type SlotAvailability } from './api/appointments';
import type { BookingCalendar } from './components/booking-calendar';
import { toIsoDate, useClosedDays } from './use-closed-days';

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

export type BookingFieldErrors = Partial<Record<keyof BookingState, string>>;

/** The lazily loaded calendar component and "today" in the firm's zone, once both are known. */
export type LoadedCalendar = { Calendar: typeof BookingCalendar; today: Date };

const fromIsoDate = (text: string) => {
  const [y, m, d] = text.split('-').map(Number);
  return new Date(y, m - 1, d);
};

/**
 * docs/product.md §3: the booking form's data and behaviour (the markup is
 * components/booking-form.tsx): the lazily loaded calendar, the chosen day's availability, the
 * shared schema's checks on submit, the submission and its outcome (toasts, analytics).
 */
export function useBookingForm() {
  const [form, setForm] = useState<BookingState>(EMPTY);
  const [errors, setErrors] = useState<BookingFieldErrors>({});
  const [pending, setPending] = useState(false);
  const busy = useRef(false);
  const turnstile = useTurnstile();
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
    if (form.timeSlot && unavailable.has(form.timeSlot)) setForm((f) => ({ ...f, timeSlot: '' }));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only when the day's slots arrive, not on every choice
  }, [slots]);

  const update = <K extends keyof BookingState>(key: K, value: BookingState[K]) => {
    setForm((f) => ({ ...f, [key]: value }));
    if (errors[key]) setErrors((e) => ({ ...e, [key]: undefined }));
  };

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    // One submit at a time (the first one may still be loading the schema).
    if (busy.current) return;
    // Preferred Time is optional (docs/product.md §3): a request without one leaves the time to the firm.
    if (!form.name.trim() || !form.email.trim() || !form.serviceType || !form.date) {
      toast({ variant: 'destructive', title: 'Missing Information', description: 'Please fill in all required fields' });
      return;
    }
    const request: AppointmentInput = {
      name: form.name,
      email: form.email,
      phone: form.phone,
      serviceType: form.serviceType as AppointmentInput['serviceType'],
      date: toIsoDate(form.date),
      timeSlot: (form.timeSlot || null) as AppointmentInput['timeSlot'],
      notes: form.notes,
    };
    // The same rules the server applies (shared schema, loaded with the first submit): catch a
    // short phone number here.
    busy.current = true;
    let checked;
    try {
      const { appointmentSchema } = await import('./validate-appointment');
      checked = appointmentSchema.safeParse(request);
    } catch (error) {
      busy.current = false;
      console.error('Appointment booking failed:', error);
      toast({ variant: 'destructive', title: 'Error', description: 'Failed to schedule appointment. Please try again.' });
      return;
    }
    if (!checked.success) {
      busy.current = false;
      const fieldErrors: BookingFieldErrors = {};
      for (const issue of checked.error.issues) fieldErrors[String(issue.path[0]) as keyof BookingState] ??= issue.message;
      setErrors(fieldErrors);
      toast({ variant: 'destructive', title: 'Error', description: checked.error.issues[0].message });
      return;
    }
    setPending(true);
    let failure: { error: unknown } | null = null;
    try {
      await bookAppointment({ ...request, ...(await turnstile.tokenField()) });
    } catch (error) {
      failure = { error };
    }
    turnstile.reset();
    // Booked or refused, that day's availability is read again before the visitor hears back.
    await loadAvailability(request.date);
    const failureText = failure ? await bookingFailureText(failure.error) : '';
    setPending(false);
    busy.current = false;
    if (!failure) {
      trackFormSubmission('Appointment Booking', 'success');
      toast({ title: 'Appointment Scheduled!', description: "We'll contact you shortly to confirm your appointment." });
      setForm(EMPTY);
      setErrors({});
    } else {
      console.error('Appointment booking failed:', failure.error);
      trackFormSubmission('Appointment Booking', 'error');
      toast({ variant: 'destructive', title: 'Error', description: failureText });
    }
  }

  // The chosen day is closed: as its own availability said, else as the month's blocked dates say.
  const dayClosed = !isoDate
    ? null
    : isoDate in closedByDate
      ? closedByDate[isoDate]
      : isoDate in closedDays.blocked
        ? { reason: closedDays.blocked[isoDate] }
        : null;
  const closed = { dates: closedDays.dates, weekdays: closedDays.weekdays, firstDay: closedDays.firstDay, lastDay: closedDays.lastDay, day: dayClosed, onMonthChange: setMonth };

  return { form, errors, pending, calendar, calendarWanted, startCalendar, slots, unavailable, offered, closed, update, handleSubmit, turnstile };
}
