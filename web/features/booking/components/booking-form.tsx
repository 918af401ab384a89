import { startTransition, useEffect, useRef, useState, type FormEvent } from 'react';
import { bookingServiceTypes, bookingTimeSlots } from '../../../content/booking';
import { firm } from '../../../content/firm';
import type { AppointmentInput } from '../../../../worker/schemas/appointments';
import { firmToday } from '../../../../worker/services/firm-time';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardHeader } from '../../../components/ui/card';
import { FieldError, Input, Label, Textarea } from '../../../components/ui/input';
import { toast } from '../../../components/ui/use-toast';
import { trackFormSubmission } from '../../../lib/analytics';
import { bookAppointment, bookingFailureText, fetchAvailability, type SlotAvailability } from '../api/appointments';
import type { BookingCalendar } from './booking-calendar';

// docs/product.md §3: the booking form's state; everything starts empty, the date unset.
interface BookingState {
  name: string;
  email: string;
  phone: string;
  serviceType: string;
  date: Date | undefined;
  timeSlot: string;
  notes: string;
}
const EMPTY: BookingState = { name: '', email: '', phone: '', serviceType: '', date: undefined, timeSlot: '', notes: '' };

type FieldErrors = Partial<Record<keyof BookingState, string>>;

/** A calendar Date (local midnight, as the calendar gives it) as YYYY-MM-DD. */
const toIsoDate = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
const fromIsoDate = (text: string) => {
  const [y, m, d] = text.split('-').map(Number);
  return new Date(y, m - 1, d);
};
const longDate = (d: Date) => d.toLocaleDateString('en-US', { weekday: 'long', month: 'long', day: 'numeric', year: 'numeric' });

const selectClass =
  'block h-10 w-full rounded-md border border-slate-300 bg-white px-3 text-sm text-slate-900 focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600/30 aria-[invalid=true]:border-red-600';

/** docs/product.md §3: the Schedule page's booking form. */
export function BookingForm() {
  const [form, setForm] = useState<BookingState>(EMPTY);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [pending, setPending] = useState(false);
  const busy = useRef(false);
  // "Today" in the firm's zone, known only in the browser: the prerendered HTML (built earlier)
  // shows a same-sized placeholder instead of a calendar frozen at build time. The calendar
  // (react-day-picker with its date-fns) is its own chunk, loaded once the page has loaded and the
  // browser is idle, so it is neither downloaded nor run while the page paints and hydrates; the
  // placeholder keeps its space meanwhile.
  const [calendar, setCalendar] = useState<{ Calendar: typeof BookingCalendar; today: Date } | null>(null);
  useEffect(() => {
    let live = true;
    let idle: number | undefined;
    const load = () => {
      // The browser's first time-zone date format is its slowest (it loads the zone data): done
      // here, while the calendar chunk downloads, rather than in the same task as its evaluation.
      const today = fromIsoDate(firmToday(firm.timeZone));
      void import('./booking-calendar').then(({ BookingCalendar }) => {
        // A transition: React renders the month in short slices instead of one long task.
        if (live) startTransition(() => setCalendar({ Calendar: BookingCalendar, today }));
      }, (error: unknown) => console.error('Booking calendar failed to load:', error));
    };
    // Once the page has loaded and the browser is idle (at the latest a second later).
    const whenIdle = () => {
      idle = typeof requestIdleCallback === 'function' ? requestIdleCallback(load, { timeout: 1000 }) : window.setTimeout(load, 1);
    };
    if (document.readyState === 'complete') whenIdle();
    else window.addEventListener('load', whenIdle, { once: true });
    return () => {
      live = false;
      window.removeEventListener('load', whenIdle);
      if (idle !== undefined) (typeof cancelIdleCallback === 'function' ? cancelIdleCallback : clearTimeout)(idle);
    };
  }, []);

  const isoDate = form.date ? toIsoDate(form.date) : null;
  // Each day's slots as last read from the server (kept while a re-read is under way).
  const [slotsByDate, setSlotsByDate] = useState<Record<string, SlotAvailability[]>>({});
  const loadAvailability = async (date: string) => {
    try {
      const { slots } = await fetchAvailability(date);
      setSlotsByDate((known) => ({ ...known, [date]: slots }));
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
  }, [slots]);

  const update = <K extends keyof BookingState>(key: K, value: BookingState[K]) => {
    setForm((f) => ({ ...f, [key]: value }));
    if (errors[key]) setErrors((e) => ({ ...e, [key]: undefined }));
  };

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    // One submit at a time (the first one may still be loading the schema).
    if (busy.current) return;
    if (!form.name.trim() || !form.email.trim() || !form.serviceType || !form.date || !form.timeSlot) {
      toast({ variant: 'destructive', title: 'Missing Information', description: 'Please fill in all required fields' });
      return;
    }
    const request: AppointmentInput = {
      name: form.name,
      email: form.email,
      phone: form.phone,
      serviceType: form.serviceType as AppointmentInput['serviceType'],
      date: toIsoDate(form.date),
      timeSlot: form.timeSlot as AppointmentInput['timeSlot'],
      notes: form.notes,
    };
    // The same rules the server applies (shared schema, loaded with the first submit): catch a
    // short phone number here.
    busy.current = true;
    let checked;
    try {
      const { appointmentSchema } = await import('../validate-appointment');
      checked = appointmentSchema.safeParse(request);
    } catch (error) {
      busy.current = false;
      console.error('Appointment booking failed:', error);
      toast({ variant: 'destructive', title: 'Error', description: 'Failed to schedule appointment. Please try again.' });
      return;
    }
    if (!checked.success) {
      busy.current = false;
      const fieldErrors: FieldErrors = {};
      for (const issue of checked.error.issues) fieldErrors[String(issue.path[0]) as keyof BookingState] ??= issue.message;
      setErrors(fieldErrors);
      toast({ variant: 'destructive', title: 'Error', description: checked.error.issues[0].message });
      return;
    }
    setPending(true);
    let failure: { error: unknown } | null = null;
    try {
      await bookAppointment(request);
    } catch (error) {
      failure = { error };
    }
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

  const invalid = (key: keyof BookingState) => (errors[key] ? { 'aria-invalid': true, 'aria-describedby': `booking-${key}-error` } : {});

  return (
    <Card>
      <CardHeader>
        <h2 className="text-2xl font-semibold text-brand-800">Book Your Appointment</h2>
        <p className="text-sm text-slate-600">Choose a service, a weekday and a time that suit you.</p>
      </CardHeader>
      <CardContent>
        <form onSubmit={handleSubmit} noValidate className="space-y-5">
          <div className="grid gap-5 sm:grid-cols-2">
            <div>
              <Label htmlFor="booking-name">Full Name *</Label>
              <Input id="booking-name" autoComplete="name" placeholder="John Smith" value={form.name} onChange={(e) => update('name', e.target.value)} {...invalid('name')} />
              <FieldError id="booking-name-error" message={errors.name} />
            </div>
            <div>
              <Label htmlFor="booking-email">Email *</Label>
              <Input
                id="booking-email"
                type="email"
                autoComplete="email"
                placeholder="john@example.com"
                value={form.email}
                onChange={(e) => update('email', e.target.value)}
                {...invalid('email')}
              />
              <FieldError id="booking-email-error" message={errors.email} />
            </div>
            <div>
              <Label htmlFor="booking-phone">Phone Number</Label>
              <Input
                id="booking-phone"
                type="tel"
                autoComplete="tel"
                placeholder="(555) 123-4567"
                value={form.phone}
                onChange={(e) => update('phone', e.target.value)}
                {...invalid('phone')}
              />
              <FieldError id="booking-phone-error" message={errors.phone} />
            </div>
            <div>
              <Label htmlFor="booking-service">Service Needed *</Label>
              <select id="booking-service" className={selectClass} value={form.serviceType} onChange={(e) => update('serviceType', e.target.value)} {...invalid('serviceType')}>
                <option value="" disabled>
                  Select a service
                </option>
                {bookingServiceTypes.map((service) => (
                  <option key={service} value={service}>
                    {service}
                  </option>
                ))}
              </select>
              <FieldError id="booking-serviceType-error" message={errors.serviceType} />
            </div>
          </div>

          <div className="grid gap-5 md:grid-cols-2">
            <div role="group" aria-labelledby="booking-date-label">
              <p id="booking-date-label" className="mb-1 block text-sm font-medium text-slate-800">
                Preferred Date *
              </p>
              <div className="min-h-[340px] rounded-md border border-slate-200 p-2 sm:min-h-[374px] sm:p-3">
                {calendar ? (
                  <calendar.Calendar today={calendar.today} selected={form.date} onSelect={(date) => update('date', date)} labelledBy="booking-date-label" />
                ) : (
                  <p className="pt-4 text-center text-sm text-slate-500">Loading calendar...</p>
                )}
              </div>
              <p className="mt-2 text-sm text-slate-600" aria-live="polite">
                {form.date ? `Selected: ${longDate(form.date)}` : 'Weekdays only; pick a day from today onward.'}
              </p>
              <FieldError id="booking-date-error" message={errors.date} />
            </div>
            <div className="space-y-5">
              <div>
                <Label htmlFor="booking-time">Preferred Time *</Label>
                <select id="booking-time" className={selectClass} value={form.timeSlot} onChange={(e) => update('timeSlot', e.target.value)} {...invalid('timeSlot')}>
                  <option value="" disabled>
                    {form.date ? 'Select a time' : 'Select a date first'}
                  </option>
                  {bookingTimeSlots.map((slot) => {
                    const taken = unavailable.has(slot);
                    return (
                      <option key={slot} value={slot} disabled={!form.date || taken}>
                        {taken ? `${slot} (unavailable)` : slot}
                      </option>
                    );
                  })}
                </select>
                <FieldError id="booking-timeSlot-error" message={errors.timeSlot} />
                {form.date && slots && unavailable.size === bookingTimeSlots.length && (
                  <p className="mt-1 text-sm text-amber-800">No times are left on this day. Please choose another day.</p>
                )}
              </div>
              <div>
                <Label htmlFor="booking-notes">Additional Notes</Label>
                <Textarea
                  id="booking-notes"
                  rows={3}
                  placeholder="Tell us about your needs or any questions you have..."
                  value={form.notes}
                  onChange={(e) => update('notes', e.target.value)}
                  {...invalid('notes')}
                />
                <FieldError id="booking-notes-error" message={errors.notes} />
              </div>
            </div>
          </div>

          <Button type="submit" size="lg" className="w-full" disabled={pending}>
            {pending ? 'Scheduling...' : 'Schedule Appointment'}
          </Button>
          <p className="text-center text-sm text-slate-600">
            * Required fields. We'll contact you within 24 hours to confirm your appointment. Questions? Call{' '}
            <a href={firm.contact.phoneHref} className="text-brand-700 underline">
              {firm.contact.phone}
            </a>
            .
          </p>
        </form>
      </CardContent>
    </Card>
  );
}
