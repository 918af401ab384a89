import { FaqList } from '../features/faq/components/faq-list';
import { island } from '../islands/island';
import { faqPageJsonLd } from '../features/faq/structured-data';
import { useContent } from '../lib/content';
import { usePageMeta } from '../lib/page-meta';

const FaqListIsland = island('faq-list', FaqList);

export default function FaqPage() {
  const { firm, faq, prices } = useContent();
  const jsonLd = faqPageJsonLd(faq.items);
  usePageMeta({
    title: 'Frequently Asked Questions | Taxes, Bookkeeping & Fees',
    description: `Answers about our tax, bookkeeping, payroll and business services, and our fees: individual returns ${prices.individualReturn}, business returns ${prices.businessReturn}, bookkeeping ${prices.monthlyBookkeeping}, ${prices.initialConsultation} first consultation.`,
    jsonLd,
  });

  return (
    <>
      <section className="bg-brand-50">
        <div className="mx-auto max-w-4xl px-4 py-14 sm:px-6 sm:py-20 lg:px-8">
          <h1 className="text-4xl font-bold text-brand-800 sm:text-5xl">Frequently Asked Questions</h1>
          <p className="mt-4 text-lg text-slate-700">
            Straight answers about how we work, what we charge and what to bring. Browse our{' '}
            <a href="/services" className="font-semibold text-brand-700 underline underline-offset-4">
              services
            </a>{' '}
            or our{' '}
            <a href="/resources" className="font-semibold text-brand-700 underline underline-offset-4">
              tax resources
            </a>{' '}
            for more.
          </p>
        </div>
      </section>

      <section className="py-14">
        <div className="mx-auto max-w-4xl px-4 sm:px-6 lg:px-8">
          <FaqListIsland categories={faq.categories} items={faq.items} />
        </div>
      </section>

      <section className="pb-16">
        <div className="mx-auto max-w-4xl px-4 sm:px-6 lg:px-8">
          <div className="rounded-2xl bg-brand-800 p-8 text-white sm:p-10">
            <h2 className="text-2xl font-bold">Still have questions?</h2>
            <p className="mt-2 text-slate-200">
              Call us at{' '}
              <a href={firm.contact.phoneHref} className="font-semibold text-white underline underline-offset-4">
                {firm.contact.phone}
              </a>
              , send a message, or book a free consultation.
            </p>
            <div className="mt-6 flex flex-col gap-3 sm:flex-row">
              <a href="/contact" className="inline-flex h-11 items-center justify-center rounded-md bg-white px-5 font-semibold text-brand-800 hover:bg-brand-50">
                Contact Us
              </a>
              <a href="/schedule" className="inline-flex h-11 items-center justify-center rounded-md bg-accent-400 px-5 font-semibold text-brand-900 hover:bg-accent-500">
                Schedule a Consultation
              </a>
            </div>
          </div>
        </div>
      </section>
    </>
  );
}
