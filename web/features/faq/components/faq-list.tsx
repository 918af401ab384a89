import { ChevronDown } from 'lucide-react';
import { useState } from 'react';
import type { SiteContent } from '#core/content/schema';
import { trackButtonClick } from '../../../lib/analytics';

/**
 * docs/product.md §1.3: five filter buttons; a question toggles its answer; only one answer open at
 * a time.
 */
export function FaqList({ categories, items: faqItems }: { categories: string[]; items: SiteContent['faq']['items'] }) {
  const faqFilters = ['All Questions', ...categories];
  const [filter, setFilter] = useState('All Questions');
  const [openId, setOpenId] = useState<string | null>(null);
  const visible = filter === 'All Questions' ? faqItems : faqItems.filter((item) => item.category === filter);

  return (
    <div>
      <div role="group" aria-label="Filter questions by category" className="flex flex-wrap gap-2">
        {faqFilters.map((name) => (
          <button
            key={name}
            type="button"
            aria-pressed={filter === name}
            onClick={() => {
              setFilter(name);
              trackButtonClick(`FAQ filter: ${name}`, 'FAQ');
            }}
            className={`rounded-full px-4 py-2 text-sm font-semibold transition-colors ${
              filter === name ? 'bg-brand-700 text-white' : 'bg-white text-brand-800 ring-1 ring-slate-300 hover:bg-brand-50'
            }`}
          >
            {name}
          </button>
        ))}
      </div>

      <ul className="mt-8 divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white shadow-sm" data-testid="faq-list">
        {visible.map((item) => {
          const open = openId === item.id;
          return (
            <li key={item.id} data-testid="faq-item">
              <h2>
                <button
                  type="button"
                  id={`faq-q-${item.id}`}
                  aria-expanded={open}
                  aria-controls={`faq-a-${item.id}`}
                  onClick={() => setOpenId(open ? null : item.id)}
                  className="flex w-full items-center justify-between gap-4 px-6 py-5 text-left text-lg font-semibold text-brand-800 hover:bg-slate-50"
                >
                  <span>{item.question}</span>
                  <ChevronDown className={`h-5 w-5 shrink-0 transition-transform motion-reduce:transition-none ${open ? 'rotate-180' : ''}`} aria-hidden="true" />
                </button>
              </h2>
              <div id={`faq-a-${item.id}`} role="region" aria-labelledby={`faq-q-${item.id}`} hidden={!open} className="px-6 pb-6">
                <p className="leading-relaxed text-slate-700">{item.answer}</p>
                {item.links && (
                  <p className="mt-3 flex flex-wrap gap-x-5 gap-y-2 text-sm font-semibold">
                    {item.links.map((link) =>
                      link.href.startsWith('/') ? (
                        <a key={link.href + link.label} href={link.href} className="text-brand-700 underline underline-offset-4 hover:text-brand-800">
                          {link.label}
                        </a>
                      ) : (
                        <a key={link.href} href={link.href} className="text-brand-700 underline underline-offset-4 hover:text-brand-800">
                          {link.label}
                        </a>
                      ),
                    )}
                  </p>
                )}
              </div>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
