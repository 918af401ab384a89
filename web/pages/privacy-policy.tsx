import { SectionLinks } from '../components/layout/page-parts';
import { RichText } from '../components/ui/rich-text';
import { useContent } from '../lib/content';
import { usePageMeta } from '../lib/page-meta';

export default function PrivacyPolicyPage() {
  const { firm, privacyPolicy } = useContent();
  const { lastUpdated: privacyPolicyLastUpdated, sections: privacyPolicySections } = privacyPolicy;
  usePageMeta({
    title: 'Privacy Policy',
    description: `How ${firm.name} collects, uses and protects the information you share through our website, including contact, consultation and newsletter details.`,
  });

  return (
    <div className="mx-auto max-w-4xl px-4 py-14 sm:px-6 sm:py-20 lg:px-8">
      <h1 className="text-4xl font-bold text-brand-800 sm:text-5xl">Privacy Policy</h1>
      <p className="mt-3 text-slate-700">Last Updated: {privacyPolicyLastUpdated}</p>

      <nav aria-label="Privacy policy sections" className="mt-8 rounded-xl bg-brand-50 p-6">
        <h2 className="text-sm font-semibold uppercase tracking-wide text-brand-800">On this page</h2>
        <ol className="mt-3 grid gap-2 text-sm sm:grid-cols-2">
          <SectionLinks sections={privacyPolicySections} linkClassName="text-brand-700 underline-offset-4 hover:underline" />
        </ol>
      </nav>

      <div className="mt-10 space-y-10">
        {privacyPolicySections.map((section) => (
          <section key={section.id} id={section.id} aria-labelledby={`${section.id}-heading`}>
            <h2 id={`${section.id}-heading`} className="text-2xl font-semibold text-brand-800">
              {section.title}
            </h2>
            {section.paragraphs.map((paragraph) => (
              <RichText key={paragraph.slice(0, 32)} className="mt-4 leading-relaxed text-slate-700" html={paragraph} />
            ))}
            {section.list && (
              <ul className="mt-4 list-disc space-y-2 pl-6 leading-relaxed text-slate-700">
                {section.list.map((item) => (
                  <RichText as="li" key={item.slice(0, 32)} html={item} />
                ))}
              </ul>
            )}
          </section>
        ))}
      </div>
    </div>
  );
}
