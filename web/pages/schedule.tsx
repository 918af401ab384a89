import { BookingForm } from '../features/booking/components/booking-form';
import { ReasonsToBook, ScheduleContactCard, ServicesSummary } from '../features/booking/components/schedule-sidebar';
import { usePageMeta } from '../lib/page-meta';

export default function SchedulePage() {
  usePageMeta({ title: 'Schedule a Consultation', description: 'Book a free initial consultation with a CPA.' });
  return (
    <div className="bg-slate-50">
      <section className="mx-auto max-w-6xl px-4 py-12 sm:px-6 sm:py-16 lg:px-8">
        <header className="max-w-3xl">
          <h1 className="text-3xl font-bold text-brand-800 sm:text-4xl">Schedule a Consultation</h1>
          <p className="mt-4 text-lg text-slate-700">Book a free initial consultation with a CPA. Pick a weekday and a time, and we will confirm within 24 hours.</p>
        </header>
        <div className="mt-10 grid items-start gap-8 lg:grid-cols-[2fr_1fr]">
          <BookingForm />
          <aside className="space-y-6">
            <ScheduleContactCard />
            <ReasonsToBook />
          </aside>
        </div>
        <div className="mt-12">
          <ServicesSummary />
        </div>
      </section>
    </div>
  );
}
