import { startTransition, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { firmToday } from '#core/firm-time';
import { Button } from '../components/ui/button';
import { bookingTimeSlots, type BookingTimeSlot } from '#core/content/booking';
import { useContent } from '../lib/content';
import { firm as firmSettings } from '#core/content/firm';
import { linkFailureText, rescheduleAppointment, type ManagedAppointment } from '../features/appointment-links/api';
import { AppointmentSummary, CheckingLink, HomeLink, LinkPage, RefusedLink, useManagedLink } from '../features/appointment-links/components/link-page';
import { fetchAvailability } from '../features/booking/api/appointments';
import type { BookingCalendar } from '../features/booking/components/booking-calendar';
import { SlotZoneNote } from '../features/booking/components/slot-zone-note';
import { longDate } from '#core/firm-time';
import { fromIsoDate, toIsoDate, useClosedDays } from '../features/booking/use-closed-days';
import { ApiError } from '../lib/api';
import { linkToken } from '../lib/link-token';
import { usePageMeta } from '../lib/page-meta';


type DayAvailability = Awaited<ReturnType<typeof fetchAvailability>>;

/**
 * The Reschedule link of a booking e-mail (docs/product.md §3). Opening it only shows the
 * appointment and the booking calendar; the button moves it, to a free slot under the same rules
 * as booking. The server decides: a slot taken meanwhile is refused and the booking stays put.
 */
export default function AppointmentReschedulePage() {
  const { firm } = useContent();
  usePageMeta({ title: 'Reschedule Your Appointment', description: `Move your appointment with ${firm.name} to another time.` });
  const [params] = useSearchParams();
  const token = linkToken(params);
  const [link, setLink] = useManagedLink(token, 'reschedule');
  const [calendar, setCalendar] = useState<{ Calendar: typeof BookingCalendar; today: Date } | null>(null);
  const [date, setDate] = useState<Date | undefined>();
  const [slot, setSlot] = useState<BookingTimeSlot | ''>('');
  const [day, setDay] = useState<DayAvailability | null>(null);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState('');
  const [moved, setMoved] = useState<ManagedAppointment | null>(null);
  const [month, setMonth] = useState<Date | null>(null);
  const closed = useClosedDays(month ?? calendar?.today ?? null);

  const ready = link.kind === 'ready';
  useEffect(() => {
    if (!ready) return;
    let live = true;
    const today = fromIsoDate(firmToday(firmSettings.timeZone));
    void import('../features/booking/components/booking-calendar').then(
      ({ BookingCalendar }) => live && startTransition(() => setCalendar({ Calendar: BookingCalendar, today })),
      (failure: unknown) => console.error('Booking calendar failed to load:', failure),
    );
    return () => {
      live = false;
    };
  }, [ready]);

  const isoDate = date ? toIsoDate(date) : null;
  const loadDay = async (iso: string) => {
    try {
      const answer = await fetchAvailability(iso);
      setDay(answer);
      setSlot((current) => (current && answer.slots.some((s) => s.time === current && s.available) ? current : ''));
    } catch {
      setDay(null);
    }
  };
  useEffect(() => {
    setDay(null);
    setSlot('');
    if (isoDate) void loadDay(isoDate);
  }, [isoDate]);

  async function move() {
    if (!isoDate || !slot) return;
    setPending(true);
    setError('');
    try {
      const result = await rescheduleAppointment(token, isoDate, slot);
      setMoved(result.appointment);
    } catch (failure) {
      const message = linkFailureText(failure, 'We could not move your appointment. Please try again or call us.');
      if (failure instanceof ApiError && failure.status === 410) setLink({ kind: 'refused', message });
      else {
        setError(message);
        await loadDay(isoDate);
      }
    } finally {
      setPending(false);
    }
  }

  if (moved) {
    return (
      <LinkPage icon="done" title="Your appointment has moved">
        <p role="status">
          Your {moved.serviceType} appointment is now on {moved.when}. We will contact you shortly to confirm it, and we have e-mailed you an
          updated calendar invite.
        </p>
        <div className="mt-8 flex justify-center">
          <HomeLink />
        </div>
      </LinkPage>
    );
  }
  if (link.kind === 'checking') return <CheckingLink icon="reschedule" title="Reschedule Your Appointment" />;
  if (link.kind === 'refused') return <RefusedLink message={link.message} />;

  const available = new Set(day?.slots.filter((s) => s.available).map((s) => s.time));
  return (
    <LinkPage icon="reschedule" title="Reschedule Your Appointment">
      <p>Choose a new day and time. Your current booking stays until the new one is made.</p>
      <AppointmentSummary appointment={link.appointment} label="Currently booked" />
      <div className="mx-auto mt-8 grid max-w-3xl gap-6 text-left md:grid-cols-2">
        <div role="group" aria-labelledby="reschedule-date-label">
          <p id="reschedule-date-label" className="mb-1 text-sm font-medium text-slate-800">
            New date
          </p>
          <div className="min-h-[340px] rounded-md border border-slate-200 bg-white p-2 sm:min-h-[374px] sm:p-3">
            {calendar ? (
              <calendar.Calendar
                today={calendar.today}
                selected={date}
                onSelect={setDate}
                labelledBy="reschedule-date-label"
                closed={closed}
                onMonthChange={setMonth}
              />
            ) : (
              <p className="pt-4 text-center text-sm text-slate-500">Loading calendar...</p>
            )}
          </div>
          <p className="mt-2 text-sm text-slate-600" aria-live="polite">
            {date ? `Selected: ${longDate(toIsoDate(date))}` : 'Weekdays only; pick a day from today onward.'}
          </p>
        </div>
        <fieldset>
          <legend className="mb-1 text-sm font-medium text-slate-800">New time</legend>
          {!date ? (
            <p className="text-sm text-slate-600">Pick a day first.</p>
          ) : !day ? (
            <p className="text-sm text-slate-600" aria-live="polite">
              Loading times...
            </p>
          ) : day.closed ? (
            <p className="text-sm text-amber-800" aria-live="polite">
              We are closed on this day{day.reason ? ` (${day.reason})` : ''}. Please choose another day.
            </p>
          ) : available.size === 0 ? (
            <p className="text-sm text-amber-800" aria-live="polite">
              No times left on {date.toLocaleDateString('en-US', { weekday: 'long', month: 'long', day: 'numeric' })}. Please choose another day.
            </p>
          ) : (
            <div className="grid grid-cols-2 gap-2">
              {bookingTimeSlots.map((time) => {
                const free = available.has(time);
                return (
                  <label
                    key={time}
                    className={`flex h-11 cursor-pointer items-center justify-center rounded-md border text-sm font-medium has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-700 ${
                      slot === time ? 'border-brand-700 bg-brand-700 text-white' : free ? 'border-slate-300 bg-white text-slate-900 hover:bg-brand-50' : 'cursor-not-allowed border-slate-200 bg-slate-50 text-slate-500 line-through'
                    }`}
                  >
                    <input type="radio" name="reschedule-time" value={time} className="sr-only" disabled={!free} checked={slot === time} onChange={() => setSlot(time)} />
                    {time}
                    {!free && <span className="sr-only"> (unavailable)</span>}
                  </label>
                );
              })}
            </div>
          )}
          {date && <SlotZoneNote id="reschedule-time-zone" date={toIsoDate(date)} slot={slot} />}
        </fieldset>
      </div>
      {error && (
        <p role="alert" className="mx-auto mt-4 max-w-md text-base text-red-700">
          {error}
        </p>
      )}
      <div className="mt-8 flex flex-col items-center justify-center gap-3 sm:flex-row">
        <Button size="lg" className="font-semibold" onClick={move} disabled={!date || !slot || pending}>
          {pending ? 'Moving...' : 'Move my appointment'}
        </Button>
        <HomeLink label="Keep my current time" />
      </div>
    </LinkPage>
  );
}
