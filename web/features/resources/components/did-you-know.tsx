import { ChevronRight, Lightbulb } from 'lucide-react';
import { useState } from 'react';

/** docs/product.md §1.3: ten tax facts, an n/10 counter and Next, which wraps from the last to the first. */
export function DidYouKnow({ facts: taxFacts }: { facts: string[] }) {
  const [index, setIndex] = useState(0);
  const count = taxFacts.length;

  return (
    <section aria-labelledby="did-you-know-heading" className="flex h-full flex-col rounded-2xl bg-brand-800 p-8 text-white shadow-md">
      <div className="flex items-center justify-between gap-4">
        <h2 id="did-you-know-heading" className="flex items-center gap-2 text-2xl font-bold">
          <Lightbulb className="h-6 w-6 text-accent-400" aria-hidden="true" />
          Did You Know
        </h2>
        {/* The badge reads "n/10"; a screen reader hears "Fact n of 10" instead (aria-label on a
            plain span is invalid HTML and ignored by some readers). */}
        <span className="rounded-full bg-white/10 px-3 py-1 text-sm font-semibold">
          <span aria-hidden="true" data-testid="fact-counter">
            {index + 1}/{count}
          </span>
          <span className="sr-only">
            Fact {index + 1} of {count}
          </span>
        </span>
      </div>
      <p className="mt-6 min-h-[7rem] flex-1 text-lg leading-relaxed text-slate-100" aria-live="polite" data-testid="tax-fact">
        {taxFacts[index]}
      </p>
      <button
        type="button"
        onClick={() => setIndex((current) => (current + 1) % count)}
        className="mt-6 inline-flex h-11 items-center justify-center gap-1 self-start rounded-md bg-accent-400 px-5 font-semibold text-brand-900 hover:bg-accent-500"
      >
        Next fact
        <ChevronRight className="h-5 w-5" aria-hidden="true" />
      </button>
    </section>
  );
}
