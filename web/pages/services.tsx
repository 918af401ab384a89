import { ArrowRight, ChevronRight } from 'lucide-react';
import { CtaBand, PageHero, SectionLinks } from '../components/layout/page-parts';
import { serviceAnchor } from '#core/content/services';
import { ContentIcon } from '../features/home/components/content-icon';
import { trackedClick } from '../lib/analytics';
import { firmTown, useContent } from '../lib/content';
import { usePageMeta } from '../lib/page-meta';
import { withArticle } from '#core/words';

export default function ServicesPage() {
  const { firm, services } = useContent();
  const serviceGroups = services.groups.map((group) => ({ ...group, anchor: serviceAnchor(group.title) }));
  usePageMeta({
    title: 'Services | Tax, Accounting, Payroll & Consulting',
    description: `Individual and business tax returns, IRS notice resolution, international tax, bookkeeping, payroll, 1099 filing, business formation and outsourced CFO services from ${withArticle(firmTown(firm.contact.address))} CPA firm.`,
  });

  return (
    <>
      <PageHero
        title="Our Services"
        lead="Tax, accounting and advisory services for individuals, families and businesses. Every engagement starts with a free consultation and a quote you agree to before we begin."
        breadcrumb={
          <nav aria-label="Breadcrumb">
            <ol className="flex items-center gap-2 text-sm text-slate-700">
              <li>
                <a href="/" className="hover:text-brand-700 hover:underline">
                  Home
                </a>
              </li>
              <li aria-hidden="true">
                <ChevronRight className="h-4 w-4" />
              </li>
              <li>
                <span aria-current="page" className="font-medium text-brand-800">
                  Services
                </span>
              </li>
            </ol>
          </nav>
        }
      >
        <ul className="mt-8 flex flex-wrap gap-3" aria-label="Jump to a section">
          <SectionLinks
            sections={serviceGroups.map((group) => ({ id: group.anchor, title: group.title }))}
            linkClassName="inline-flex rounded-full bg-white px-4 py-2 text-sm font-medium text-brand-700 ring-1 ring-brand-100 hover:ring-brand-600"
          />
        </ul>
      </PageHero>

      {serviceGroups.map((group, index) => (
        <section key={group.anchor} id={group.anchor} aria-labelledby={`${group.anchor}-heading`} className={`py-16 sm:py-20 ${index % 2 === 1 ? 'bg-slate-50' : ''}`}>
          <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
            <div className="flex items-start gap-4">
              <span className="flex h-12 w-12 shrink-0 items-center justify-center rounded-lg bg-brand-700 text-white">
                <ContentIcon name={group.icon} />
              </span>
              <div>
                <h2 id={`${group.anchor}-heading`} className="text-3xl font-bold text-brand-800">
                  {group.title}
                </h2>
                <p className="mt-2 max-w-3xl text-slate-700">{group.summary}</p>
              </div>
            </div>
            <ul className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
              {group.services.map((service) => (
                <li key={service.title} className="flex flex-col rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
                  <span className="flex h-10 w-10 items-center justify-center rounded-md bg-brand-50 text-brand-700">
                    <ContentIcon name={service.icon} className="h-5 w-5" />
                  </span>
                  <h3 className="mt-4 text-lg font-semibold text-brand-800">{service.title}</h3>
                  <p className="mt-2 flex-1 text-sm leading-relaxed text-slate-700">{service.description}</p>
                  <a
                    href="/contact"
                    {...trackedClick(`Learn more: ${service.title}`, 'Services')}
                    className="mt-5 inline-flex items-center gap-1 text-sm font-semibold text-brand-700 hover:underline"
                  >
                    Learn more<span className="sr-only"> about {service.title}</span>
                    <ArrowRight className="h-4 w-4" aria-hidden="true" />
                  </a>
                </li>
              ))}
            </ul>
          </div>
        </section>
      ))}

      <CtaBand
        title="Not sure which service you need?"
        text="Tell us about your situation and we will recommend the right starting point."
        to="/schedule"
        label="Schedule a Free Consultation"
      />
    </>
  );
}
