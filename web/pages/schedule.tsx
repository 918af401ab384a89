import { BookingForm } from '../features/booking/components/booking-form';
import { ReasonsToBook, ScheduleContactCard, ServicesSummary } from '../features/booking/components/schedule-sidebar';
import { FormPageShell } from '../components/layout/page-parts';
import { island } from '../islands/island';

const BookingFormIsland = island('booking-form', BookingForm);
import { useContent } from '../lib/content';
import { usePageMeta } from '../lib/page-meta';
import { withArticle } from '#core/words';

export default function SchedulePage() {
  const { firm, booking, prices } = useContent();
  usePageMeta({ title: 'Schedule a Consultation', description: `Book ${withArticle(prices.initialConsultation)} initial consultation with a CPA.` });
  return (
    <FormPageShell
      title="Schedule a Consultation"
      lead={`Book ${withArticle(prices.initialConsultation)} initial consultation with a CPA. Pick a weekday and a time. ${firm.confirmationPromise}`}
    >
      <div className="mt-10 grid grid-cols-1 items-start gap-8 lg:grid-cols-[2fr_1fr]">
        <BookingFormIsland serviceTypes={booking.serviceTypes} phone={firm.contact.phone} phoneHref={firm.contact.phoneHref} confirmationPromise={firm.confirmationPromise} />
        <aside className="space-y-6">
          <ScheduleContactCard />
          <ReasonsToBook />
        </aside>
      </div>
      <div className="mt-12">
        <ServicesSummary />
      </div>
    </FormPageShell>
  );
}
