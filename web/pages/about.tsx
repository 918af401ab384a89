import { GraduationCap, Mail } from 'lucide-react';
import { PageHero, TitledSection } from '../components/layout/page-parts';
import { ContentIcon } from '../features/home/components/content-icon';
import { SocialIcon } from '../features/home/components/social-icon';
import { RichText } from '../components/ui/rich-text';
import { experienceYears, firmStateName, firmTown, useContent } from '../lib/content';
import { usePageMeta } from '../lib/page-meta';
import { withArticle } from '#core/words';

export default function AboutPage() {
  const content = useContent();
  const { firm, about } = content;
  const { highlights: aboutHighlights, leader, story: ourStory } = about;
  usePageMeta({
    title: 'About Us | Our Story and Our CPA',
    description: `Meet ${leader.name}, founder of ${firm.name} in ${firmTown(firm.contact.address)}: ${withArticle(firmStateName(content))} CPA firm with ${experienceYears(firm.yearsOfExperience)} years of experience serving individuals and businesses.`,
  });

  return (
    <>
      <PageHero title={`About ${firm.name}`} lead={`A ${firm.contact.address.city} accounting firm built around one idea: every client deserves an accountant who knows them.`} />

      <section aria-labelledby="story-heading" className="py-16">
        <div className="mx-auto grid max-w-7xl gap-10 px-4 sm:px-6 lg:grid-cols-3 lg:px-8">
          <h2 id="story-heading" className="text-3xl font-bold text-brand-800">
            Our Story
          </h2>
          <div className="space-y-4 text-lg leading-relaxed text-slate-700 lg:col-span-2">
            {ourStory.map((paragraph) => (
              <RichText key={paragraph.slice(0, 24)} html={paragraph} />
            ))}
          </div>
        </div>
      </section>

      <TitledSection id="leader" title="Meet Our Leader" className="bg-slate-50 py-16">
        <div className="mt-10 grid items-start gap-10 md:grid-cols-[minmax(0,320px)_1fr]">
          <img
            src="/images/leader-portrait.svg"
            alt={leader.photoAlt}
            width={480}
            height={560}
            loading="lazy"
            decoding="async"
            className="mx-auto w-full max-w-xs rounded-2xl shadow-md ring-1 ring-slate-200"
          />
          <div>
            <h3 className="text-2xl font-semibold text-brand-800">{leader.name}</h3>
            <p className="mt-1 font-medium text-slate-700">{leader.title}</p>
            <ul className="mt-4 flex flex-wrap gap-2" aria-label="Degrees and credentials">
              {leader.credentials.map((credential) => (
                <li key={credential} className="inline-flex items-center gap-1.5 rounded-full bg-brand-700 px-3 py-1 text-sm font-medium text-white">
                  <GraduationCap className="h-4 w-4" aria-hidden="true" />
                  {credential}
                </li>
              ))}
            </ul>
            <div className="mt-6 space-y-4 leading-relaxed text-slate-700">
              {leader.bio.map((paragraph) => (
                <RichText key={paragraph.slice(0, 24)} html={paragraph} />
              ))}
            </div>
            <ul className="mt-6 flex gap-3" aria-label={`Contact ${leader.shortName}`}>
              {leader.social.map((link) => (
                <li key={link.name}>
                  <a
                    href={link.href}
                    {...(link.href.startsWith('http') ? { target: '_blank', rel: 'noopener noreferrer' } : {})}
                    className="flex h-11 w-11 items-center justify-center rounded-full bg-white text-brand-700 shadow-sm ring-1 ring-slate-200 hover:bg-brand-50"
                    aria-label={link.href.startsWith('http') ? `${leader.shortName} on ${link.name} (opens in a new tab)` : `Email ${leader.shortName}`}
                  >
                    {link.name === 'Email' ? <Mail className="h-5 w-5" aria-hidden="true" /> : <SocialIcon network={link.name} />}
                  </a>
                </li>
              ))}
            </ul>
          </div>
        </div>
      </TitledSection>

      <TitledSection id="values" title="What sets us apart" className="py-16" headingClassName="sr-only">
        <ul className="grid gap-6 md:grid-cols-3">
          {aboutHighlights.map((card) => (
            <li key={card.title} className="rounded-xl border border-slate-200 bg-white p-8 shadow-sm">
              <span className="flex h-12 w-12 items-center justify-center rounded-lg bg-brand-50 text-brand-700">
                <ContentIcon name={card.icon} />
              </span>
              <h3 className="mt-5 text-xl font-semibold text-brand-800">{card.title}</h3>
              <p className="mt-3 text-slate-700">{card.description}</p>
            </li>
          ))}
        </ul>
        <div className="mt-12 text-center">
          <a href="/contact" className="inline-flex h-12 items-center justify-center rounded-md bg-brand-700 px-6 font-semibold text-white hover:bg-brand-800">
            Get in Touch
          </a>
        </div>
      </TitledSection>
    </>
  );
}
