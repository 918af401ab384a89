import { ArrowRight, CircleCheck } from 'lucide-react';
import type { ReactNode } from 'react';
import { CtaBand, NewTabLink } from '../components/layout/page-parts';
import { serviceAnchor, trustLabels, whyChoose } from '#core/content/services';
import { HomeIcon } from '../features/home/components/home-icon';
import { SocialIcon } from '../features/home/components/social-icon';
import { TestimonialsCarousel } from '../features/home/components/testimonials-carousel';
import { island } from '../islands/island';
import { heroSkylineSvg } from '../features/home/hero-skyline';
import { accountingServiceJsonLd } from '../features/home/structured-data';
import { trackedClick } from '../lib/analytics';
import { firmStateName, firmTown, sentenceCase, useContent } from '../lib/content';
import { usePageMeta } from '../lib/page-meta';

const TestimonialsIsland = island('testimonials', TestimonialsCarousel, { hydrate: 'visible' });

/** A home-page section: a centred heading and intro above the section's own content. */
function IntroducedSection({ id, title, intro, className, children }: { id: string; title: ReactNode; intro: string; className: string; children: ReactNode }) {
  return (
    <section aria-labelledby={`${id}-heading`} className={className}>
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <div className="mx-auto max-w-2xl text-center">
          <h2 id={`${id}-heading`} className="text-3xl font-bold text-brand-800 sm:text-4xl">
            {title}
          </h2>
          <p className="mt-4 text-lg text-slate-700">{intro}</p>
        </div>
        {children}
      </div>
    </section>
  );
}

export default function HomePage() {
  const content = useContent();
  const { firm, testimonials, prices } = content;
  const town = firmTown(firm.contact.address);
  const state = firmStateName(content);
  const serviceGroups = content.services.groups;
  const jsonLd = accountingServiceJsonLd(content);
  usePageMeta({
    title: `CPA Firm in ${town} | Tax, Accounting & Payroll`,
    description: `${firm.name} helps individuals and businesses in ${town} and nationwide with tax preparation, tax planning, bookkeeping, payroll and business consulting. ${sentenceCase(prices.initialConsultation)} initial consultation.`,
    jsonLd,
  });

  return (
    <>
      <section className="relative isolate overflow-hidden bg-brand-900 text-white">
        {/* Decorative background picture, inlined: the hero paints with the HTML, no image download. */}
        <div className="absolute inset-0 -z-10 opacity-80" aria-hidden="true" dangerouslySetInnerHTML={{ __html: heroSkylineSvg }} />
        <div className="absolute inset-0 -z-10 bg-gradient-to-r from-brand-900 via-brand-900/85 to-brand-900/30" aria-hidden="true" />
        <div className="mx-auto max-w-7xl px-4 py-20 sm:px-6 sm:py-28 lg:px-8 lg:py-32">
          <p className="text-sm font-semibold uppercase tracking-widest text-accent-400">{`${firm.contact.address.city}, ${state}`}</p>
          <h1 className="mt-4 max-w-3xl text-4xl font-bold leading-tight sm:text-5xl lg:text-6xl">
            Tax and accounting expertise you can count on
          </h1>
          <p className="mt-6 max-w-2xl text-lg text-slate-100 sm:text-xl">
            {firm.name} prepares returns, keeps books, runs payroll and advises businesses for clients in {state} and across the country, with{' '}
            {firm.yearsOfExperience} years of experience and a CPA who knows your name.
          </p>
          <div className="mt-10 flex flex-col gap-3 sm:flex-row">
            <a
              href="/schedule"
              {...trackedClick('Schedule a Free Consultation', 'Hero')}
              className="inline-flex h-12 items-center justify-center gap-2 rounded-md bg-accent-400 px-6 font-semibold text-brand-900 hover:bg-accent-500"
            >
              Schedule a Free Consultation
              <ArrowRight className="h-5 w-5" aria-hidden="true" />
            </a>
            <a
              href="/services"
              {...trackedClick('Explore Our Services', 'Hero')}
              className="inline-flex h-12 items-center justify-center rounded-md border border-white/60 px-6 font-semibold text-white hover:bg-white/10"
            >
              Explore Our Services
            </a>
          </div>
          <ul className="mt-12 flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:gap-8" aria-label="Credentials">
            {trustLabels.map((label) => (
              <li key={label} className="flex items-center gap-2 font-medium text-slate-100">
                <CircleCheck className="h-5 w-5 text-accent-400" aria-hidden="true" />
                {label}
              </li>
            ))}
          </ul>
        </div>
      </section>

      <IntroducedSection
        id="services"
        title="Our Services"
        intro="Everything an individual or a growing business needs from an accounting firm, under one roof."
        className="py-16 sm:py-24"
      >
        <ul className="mt-12 grid gap-6 md:grid-cols-3">
          {serviceGroups.map((group) => (
            <li key={serviceAnchor(group.title)}>
              <a
                href="/services"
                className="group flex h-full flex-col rounded-xl border border-slate-200 bg-white p-8 shadow-sm transition hover:-translate-y-0.5 hover:border-brand-600 hover:shadow-md motion-reduce:transition-none"
              >
                <span className="flex h-12 w-12 items-center justify-center rounded-lg bg-brand-50 text-brand-700">
                  <HomeIcon name={group.icon} />
                </span>
                <h3 className="mt-5 text-xl font-semibold text-brand-800">{group.title}</h3>
                <p className="mt-3 flex-1 text-slate-700">{group.summary}</p>
                <span className="mt-6 inline-flex items-center gap-1 font-semibold text-brand-700">
                  View {group.title.toLowerCase()}
                  <ArrowRight className="h-4 w-4 transition group-hover:translate-x-1 motion-reduce:transition-none" aria-hidden="true" />
                </span>
              </a>
            </li>
          ))}
        </ul>
      </IntroducedSection>

      <IntroducedSection
        id="why"
        title={`Why Choose ${firm.name}`}
        intro="A small firm's attention with the depth of experience you would expect from a large one."
        className="bg-slate-50 py-16 sm:py-24"
      >
        <ul className="mt-12 grid gap-10 md:grid-cols-3">
          {whyChoose.map((point) => (
            <li key={point.title} className="text-center">
              <span className="mx-auto flex h-14 w-14 items-center justify-center rounded-full bg-brand-700 text-white">
                <HomeIcon name={point.icon} className="h-7 w-7" />
              </span>
              <h3 className="mt-5 text-xl font-semibold text-brand-800">{point.title}</h3>
              <p className="mt-3 text-slate-700">{point.description}</p>
            </li>
          ))}
        </ul>
      </IntroducedSection>

      <section aria-labelledby="connect-heading" className="py-16">
        <div className="mx-auto max-w-7xl px-4 text-center sm:px-6 lg:px-8">
          <h2 id="connect-heading" className="text-2xl font-bold text-brand-800 sm:text-3xl">
            Connect With Us
          </h2>
          <p className="mt-3 text-slate-700">Tax deadlines, tips and firm news, wherever you follow along.</p>
          <ul className="mt-8 flex flex-wrap justify-center gap-4">
            {firm.social.map((network) => (
              <li key={network.name}>
                <NewTabLink
                  href={network.href}
                  {...trackedClick(network.name, 'Social')}
                  className="flex items-center gap-2 rounded-full border border-slate-300 px-5 py-2.5 font-medium text-slate-800 hover:border-brand-700 hover:text-brand-700"
                >
                  <SocialIcon network={network.name} />
                  {network.name}
                </NewTabLink>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <TestimonialsIsland testimonials={testimonials} googleReviews={firm.links.googleReviews} />

      <CtaBand
        title="Ready to talk about your taxes or your business?"
        text={`Your first consultation is free. Call ${firm.contact.phone} or book online.`}
        to="/schedule"
        label="Book Your Consultation"
        track={trackedClick('Book Your Consultation', 'Home CTA')}
      />
    </>
  );
}
