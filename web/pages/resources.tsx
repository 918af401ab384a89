import { ExternalLink } from 'lucide-react';
import { DidYouKnow } from '../features/resources/components/did-you-know';
import { StateRefundSelector } from '../features/resources/components/state-refund-selector';
import { island } from '../islands/island';
import { NewTabLink, PageHero, TitledSection } from '../components/layout/page-parts';
import { trackedClick } from '../lib/analytics';
import { mileageRate, useContent } from '../lib/content';
import { usePageMeta } from '../lib/page-meta';

const StateRefundIsland = island('state-refund', StateRefundSelector, { hydrate: 'visible' });
const DidYouKnowIsland = island('did-you-know', DidYouKnow, { hydrate: 'visible' });

export default function ResourcesPage() {
  const { resources } = useContent();
  const federalResourceLinks = resources.federalLinks;
  const { taxYear, facts } = resources.taxFacts;
  const mileage = mileageRate(facts);
  usePageMeta({
    title: 'Tax Resources | Refund Status, IRS Payments & Transcripts',
    description: `Check your federal and state tax refund status, pay the IRS online, request a tax transcript, and learn ${taxYear} tax facts${mileage ? ` such as the ${mileage} mileage rate` : ''}.`,
  });

  return (
    <>
      <PageHero
        title="Tax Resources"
        lead="Quick links to the official tools you need most often: where's my refund, paying a balance and getting your tax records."
      />

      <TitledSection id="helpful-links" title="Helpful Links" className="py-14" headingClassName="text-2xl font-bold text-brand-800 sm:text-3xl">
        <ul className="mt-8 grid gap-6 md:grid-cols-3">
          {federalResourceLinks.map((link) => (
            <li key={link.href}>
              <NewTabLink
                href={link.href}
                {...trackedClick(link.title, 'Resources')}
                className="group flex h-full flex-col rounded-xl border border-slate-200 bg-white p-6 shadow-sm hover:border-brand-600 hover:shadow-md"
              >
                <span className="flex items-center justify-between gap-2 text-lg font-semibold text-brand-800">
                  {link.title}
                  <ExternalLink className="h-5 w-5 text-brand-700" aria-hidden="true" />
                </span>
                <span className="mt-2 text-slate-700">{link.description}</span>
              </NewTabLink>
            </li>
          ))}
        </ul>
      </TitledSection>

      <section className="pb-16">
        <div className="mx-auto grid max-w-7xl gap-8 px-4 sm:px-6 lg:grid-cols-2 lg:px-8">
          <section aria-labelledby="state-refund-heading" className="rounded-2xl border border-slate-200 bg-white p-8 shadow-sm">
            <div className="flex flex-col gap-6 sm:flex-row sm:items-start">
              <div className="flex-1">
                <h2 id="state-refund-heading" className="text-2xl font-bold text-brand-800">
                  State Refund Status
                </h2>
                <p className="mt-2 text-slate-700">Choose your state to open its official refund tracker in a new tab.</p>
                <div className="mt-6">
                  <StateRefundIsland states={resources.stateLinks} />
                </div>
              </div>
              <img
                src="/images/refund-illustration.svg"
                alt="Illustration of a tax return with a refund coming back"
                width={400}
                height={300}
                loading="lazy"
                decoding="async"
                className="mx-auto w-full max-w-[220px] sm:w-48"
              />
            </div>
          </section>
          <DidYouKnowIsland facts={resources.taxFacts.facts} />
        </div>
      </section>
    </>
  );
}
