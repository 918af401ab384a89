import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardHeader } from '../../../components/ui/card';
import { FieldError, FormField, Input, Label, RequiredMark, TextOptions, Textarea } from '../../../components/ui/input';
import { useBookingForm } from '../use-booking-form';
import { longDate } from '#core/firm-time';
import { fromIsoDate, toIsoDate } from '../use-closed-days';
import { SlotZoneNote } from './slot-zone-note';

/** "Tuesday, December 8": a day of the month on show, or the chosen one, in a sentence. */
const dayInSentence = (d: Date) => d.toLocaleDateString('en-US', { weekday: 'long', month: 'long', day: 'numeric' });
/** "A", "A and B", "A, B and C". */
const listed = (items: string[]) => (items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`);

// Not imported from booking-calendar.tsx: that module (react-day-picker) loads only with the calendar.
const FULLY_BOOKED_LINE = 'Fully booked';

const selectClass =
  'block h-10 w-full rounded-md border border-slate-300 bg-white px-3 text-sm text-slate-900 focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600/30 aria-[invalid=true]:border-red-600';

/** docs/product.md §3: the Schedule page's booking form (its data and behaviour: ../use-booking-form.ts). */
export function BookingForm({
  serviceTypes: bookingServiceTypes,
  phone,
  phoneHref,
  confirmationPromise,
}: {
  serviceTypes: string[];
  phone: string;
  phoneHref: string;
  /** The firm's promise to confirm ("We will contact you within 24 hours to confirm your appointment."). */
  confirmationPromise: string;
}) {
  const { form, errors, pending, calendar, calendarWanted, startCalendar, slots, unavailable, offered, closed, field, described, update, handleSubmit, turnstile } = useBookingForm();

  return (
    <Card>
      <CardHeader>
        <h2 className="text-2xl font-semibold text-brand-800">Book Your Appointment</h2>
        <p className="text-sm text-slate-600">Choose a service, a weekday and a time that suit you.</p>
      </CardHeader>
      <CardContent>
        <form
          onSubmit={handleSubmit}
          onFocus={() => {
            turnstile.start();
            startCalendar();
          }}
          onInput={turnstile.start}
          onPointerEnter={startCalendar}
          onTouchStart={startCalendar}
          noValidate
          className="space-y-5"
        >
          <div className="grid gap-5 sm:grid-cols-2">
            <FormField id="booking-name" label="Full Name" required error={errors.name}>
              <Input id="booking-name" aria-required="true" autoComplete="name" placeholder="John Smith" {...field('name')} {...described('name')} />
            </FormField>
            <FormField id="booking-email" label="Email" required error={errors.email}>
              <Input id="booking-email" aria-required="true" type="email" autoComplete="email" placeholder="john@example.com" {...field('email')} {...described('email')} />
            </FormField>
            <FormField id="booking-phone" label="Phone Number" error={errors.phone}>
              <Input id="booking-phone" type="tel" autoComplete="tel" placeholder="(555) 123-4567" {...field('phone')} {...described('phone')} />
            </FormField>
            <FormField id="booking-service" label="Service Needed" required error={errors.serviceType} errorId="booking-serviceType-error">
              <select id="booking-service" aria-required="true" className={selectClass} {...field('serviceType')} {...described('serviceType')}>
                <option value="" disabled>
                  Select a service
                </option>
                <TextOptions values={bookingServiceTypes} />
              </select>
            </FormField>
          </div>

          <div className="grid gap-5 md:grid-cols-2">
            <div role="group" aria-labelledby="booking-date-label">
              <p id="booking-date-label" className="mb-1 block text-sm font-medium text-slate-800">
                Preferred Date <RequiredMark />
                <span className="sr-only"> (required)</span>
              </p>
              <div className="min-h-[340px] rounded-md border border-slate-200 p-2 sm:min-h-[374px] sm:p-3">
                {calendar ? (
                  <calendar.Calendar
                    today={calendar.today}
                    selected={form.date}
                    onSelect={(date) => update('date', date)}
                    labelledBy="booking-date-label"
                    closed={closed}
                    onMonthChange={closed.onMonthChange}
                  />
                ) : calendarWanted ? (
                  <p className="pt-4 text-center text-sm text-slate-500">Loading calendar...</p>
                ) : (
                  <div className="pt-4 text-center">
                    <button type="button" onClick={startCalendar} className="rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-medium text-brand-700 hover:bg-slate-50">
                      Show available dates
                    </button>
                  </div>
                )}
              </div>
              <p className="mt-2 text-sm text-slate-600" aria-live="polite">
                {form.date ? `Selected: ${longDate(toIsoDate(form.date))}` : 'Weekdays only; pick a day from today onward.'}
              </p>
              {calendar && closed.fullInMonth.length > 0 && (
                <p className="mt-1 text-sm text-slate-600" data-testid="booking-full-days">
                  {FULLY_BOOKED_LINE}: {listed(closed.fullInMonth.map((iso) => dayInSentence(fromIsoDate(iso))))}.
                </p>
              )}
              <FieldError id="booking-date-error" message={errors.date} />
            </div>
            <div className="space-y-5">
              <div>
                {/* Optional (docs/product.md §3): without a time the firm picks one when it confirms. */}
                <Label htmlFor="booking-time">Preferred Time</Label>
                <select id="booking-time" className={selectClass} {...field('timeSlot')} {...described('timeSlot')}
                  aria-describedby={errors.timeSlot ? 'booking-time-zone booking-timeSlot-error' : 'booking-time-zone'}
                >
                  <option value="">{form.date ? 'No preferred time' : 'Select a date first'}</option>
                  {/* Only the chosen weekday's slots (docs/product.md §3). */}
                  {offered.map((slot) => {
                    const taken = unavailable.has(slot);
                    return (
                      <option key={slot} value={slot} disabled={!form.date || taken}>
                        {taken ? `${slot} (unavailable)` : slot}
                      </option>
                    );
                  })}
                </select>
                <SlotZoneNote id="booking-time-zone" date={form.date && toIsoDate(form.date)} slot={form.timeSlot} />
                <FieldError id="booking-timeSlot-error" message={errors.timeSlot} />
                {closed.day ? (
                  <p className="mt-1 text-sm text-amber-800" role="status" data-testid="booking-day-closed">
                    We are closed on this day{closed.day.reason ? ` (${closed.day.reason})` : ''}. Please choose another day.
                  </p>
                ) : (
                  form.date &&
                  (closed.dayFull || (slots && offered.every((slot) => unavailable.has(slot)))) && (
                    <p className="mt-1 text-sm text-amber-800" role="status" data-testid="booking-day-full">
                      No times left on {dayInSentence(form.date)}. Please choose another day.
                    </p>
                  )
                )}
              </div>
              <FormField id="booking-notes" label="Additional Notes" error={errors.notes}>
                <Textarea id="booking-notes" rows={3} placeholder="Tell us about your needs or any questions you have..." {...field('notes')} {...described('notes')} />
              </FormField>
            </div>
          </div>

          {/* Cloudflare Turnstile, when configured: empty until the visitor starts filling the form. */}
          <div ref={turnstile.ref} />
          <Button type="submit" size="lg" className="w-full" disabled={pending}>
            {pending ? 'Scheduling...' : 'Schedule Appointment'}
          </Button>
          <p className="text-center text-sm text-slate-600">
            {`* Required fields. ${confirmationPromise} Questions? Call `}
            <a href={phoneHref} className="text-brand-700 underline">
              {phone}
            </a>
            .
          </p>
        </form>
      </CardContent>
    </Card>
  );
}
