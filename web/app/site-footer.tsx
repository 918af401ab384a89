import { footerCompanyLinks, footerServiceLinks } from '#core/content/navigation';
import { NewsletterSignup } from '../features/newsletter/components/newsletter-signup';
import { island } from '../islands/island';
import { firmAddressLine } from '#core/content/firm-facts';
import { useContent } from '../lib/content';

// The sign-up form is the footer's one interactive part: an island (web/islands/island.tsx).
const NewsletterSignupIsland = island('newsletter-signup', NewsletterSignup, { hydrate: 'visible' });

// The Services list all leads to the Services page; the Company list to its own pages.
const footerLinkGroups = [
  { title: 'Services', links: footerServiceLinks.map((label) => ({ to: '/services', label })) },
  { title: 'Company', links: footerCompanyLinks },
];

/**
 * The footer of docs/product.md §1.2: tagline, Services and Company lists, contact information,
 * copyright, privacy notice.
 */
export function SiteFooter() {
  const { firm } = useContent();
  // The prerendered HTML carries the build's year; web/islands.tsx puts the browser's year in
  // [data-current-year], in case the year has turned since the build.
  const year = typeof window === 'undefined' ? import.meta.env.VITE_BUILD_YEAR : String(new Date().getFullYear());
  return (
    <footer className="bg-brand-900 text-slate-200">
      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-12 sm:px-6 md:grid-cols-2 lg:grid-cols-4 lg:px-8">
        <div>
          <p className="text-lg font-bold text-white">{firm.name}</p>
          <p className="mt-2 text-sm">{firm.tagline}</p>
        </div>
        {footerLinkGroups.map((group) => (
          <div key={group.title}>
            <h2 className="text-sm font-semibold uppercase tracking-wide text-white">{group.title}</h2>
            <ul className="mt-3 space-y-2 text-sm">
              {group.links.map((item) => (
                <li key={item.label}>
                  <a href={item.to} className="hover:text-white hover:underline">
                    {item.label}
                  </a>
                </li>
              ))}
            </ul>
          </div>
        ))}
        <div>
          <h2 className="text-sm font-semibold uppercase tracking-wide text-white">Contact</h2>
          <address className="mt-3 space-y-2 text-sm not-italic">
            <p>{firmAddressLine(firm)}</p>
            <p>
              Phone: <a href={firm.contact.phoneHref} className="hover:text-white hover:underline">{firm.contact.phone}</a>
            </p>
            <p>
              Email: <a href={`mailto:${firm.contact.email}`} className="hover:text-white hover:underline">{firm.contact.email}</a>
            </p>
            {firm.hours.map((h) => (
              <p key={h.days}>
                {h.days}: {h.time}
              </p>
            ))}
          </address>
          <NewsletterSignupIsland />
          <p className="mt-2 text-sm">
            <a href="/newsletter" className="underline hover:text-white">
              Past issues
            </a>
          </p>
        </div>
      </div>
      {/* The last row ends 6rem above the page's end: room for the chat button (bottom right, 5rem
          high with its margin), so a link here never sits under it when the page is scrolled to its end. */}
      <div className="border-t border-white/10">
        <div className="mx-auto flex max-w-7xl flex-col gap-2 px-4 pb-24 pt-6 text-sm sm:px-6 md:flex-row md:justify-between lg:px-8">
          <p>
            © <span data-current-year="">{year}</span> {`${firm.legalName}. All rights reserved.`}
          </p>
          <p>
            We respect your privacy. Read our{' '}
            <a href="/privacy-policy" className="underline hover:text-white">
              Privacy Policy
            </a>
            .
          </p>
        </div>
      </div>
    </footer>
  );
}
