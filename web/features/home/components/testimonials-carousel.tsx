import { ChevronLeft, ChevronRight, ExternalLink, Star } from 'lucide-react';
import { useState } from 'react';
import type { SiteContent } from '#core/content/schema';
import { NewTabLink } from '../../../components/layout/page-parts';
import { trackButtonClick } from '../../../lib/analytics';

const arrowClass =
  'absolute top-1/2 hidden h-11 w-11 -translate-y-1/2 items-center justify-center rounded-full bg-white text-brand-800 shadow ring-1 ring-slate-200 hover:bg-brand-50 md:flex';

/**
 * docs/product.md §1.3: six reviews, previous/next wrap around at both ends (hidden on small screens),
 * dots jump to a slide, 500 ms slide transition (none when the visitor prefers reduced motion).
 */
export function TestimonialsCarousel({ testimonials, googleReviews }: { testimonials: SiteContent['testimonials']; googleReviews: string }) {
  const [current, setCurrent] = useState(0);
  const count = testimonials.length;
  const previous = () => setCurrent((index) => (index - 1 + count) % count);
  const next = () => setCurrent((index) => (index + 1) % count);

  return (
    <section aria-labelledby="testimonials-heading" className="bg-brand-50 py-16 sm:py-20">
      <div className="mx-auto max-w-5xl px-4 sm:px-6 lg:px-8">
        <div className="text-center">
          <h2 id="testimonials-heading" className="text-3xl font-bold text-brand-800">
            What Our Clients Say
          </h2>
          <p className="mt-3 text-slate-700">Reviews from individuals and business owners we work with.</p>
        </div>

        {/* eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions -- arrow keys from the carousel's own buttons (WAI-ARIA carousel pattern) */}
        <div
          className="relative mt-10"
          role="region"
          aria-roledescription="carousel"
          aria-label="Client testimonials"
          onKeyDown={(event) => {
            if (event.key === 'ArrowLeft') previous();
            if (event.key === 'ArrowRight') next();
          }}
        >
          <div className="overflow-hidden rounded-2xl">
            <div
              className="flex transition-transform duration-500 ease-in-out motion-reduce:transition-none"
              style={{ transform: `translateX(-${current * 100}%)` }}
              aria-live="polite"
            >
              {testimonials.map((review, index) => (
                <div
                  key={review.id}
                  className="w-full shrink-0 px-1"
                  role="group"
                  aria-roledescription="slide"
                  aria-label={`${index + 1} of ${count}`}
                  aria-hidden={index !== current}
                  inert={index !== current}
                  data-testid="testimonial-slide"
                >
                  <figure className="flex h-full flex-col rounded-2xl bg-white p-8 shadow-sm ring-1 ring-slate-200 sm:p-10">
                    <div className="flex gap-1 text-accent-500" role="img" aria-label={`Rated ${review.rating} out of 5`}>
                      {Array.from({ length: 5 }, (_, star) => (
                        <Star key={star} className={`h-5 w-5 ${star < review.rating ? 'fill-current' : ''}`} aria-hidden="true" />
                      ))}
                    </div>
                    <blockquote className="mt-5 flex-1 text-lg leading-relaxed text-slate-800">
                      <p>&ldquo;{review.text}&rdquo;</p>
                    </blockquote>
                    <figcaption className="mt-6 flex items-center justify-between gap-4 text-sm">
                      <span className="font-semibold text-brand-800">{review.author}</span>
                      <span className="text-slate-600">{review.date}</span>
                    </figcaption>
                  </figure>
                </div>
              ))}
            </div>
          </div>

          {[
            { label: 'Previous testimonial', onClick: previous, Icon: ChevronLeft, side: 'left-0 -translate-x-1/2 lg:-translate-x-full' },
            { label: 'Next testimonial', onClick: next, Icon: ChevronRight, side: 'right-0 translate-x-1/2 lg:translate-x-full' },
          ].map(({ label, onClick, Icon, side }) => (
            <button key={label} type="button" onClick={onClick} aria-label={label} className={`${arrowClass} ${side}`}>
              <Icon className="h-6 w-6" aria-hidden="true" />
            </button>
          ))}

          <div className="mt-6 flex justify-center gap-1">
            {testimonials.map((review, index) => (
              <button
                key={review.id}
                type="button"
                onClick={() => setCurrent(index)}
                aria-label={`Go to testimonial ${index + 1}`}
                aria-current={index === current ? 'true' : undefined}
                className="group flex h-8 w-8 items-center justify-center rounded-full"
              >
                <span
                  className={`block h-3 rounded-full transition-all motion-reduce:transition-none ${
                    index === current ? 'w-7 bg-brand-700' : 'w-3 bg-slate-400 group-hover:bg-slate-500'
                  }`}
                />
              </button>
            ))}
          </div>
        </div>

        <div className="mt-8 flex flex-col items-center justify-center gap-4 sm:flex-row">
          <div className="flex items-center gap-3 rounded-full bg-white px-5 py-2 shadow-sm ring-1 ring-slate-200">
            <span className="text-lg font-bold" aria-hidden="true">
              <span className="text-[#1a73e8]">G</span>
            </span>
            <span className="text-sm font-semibold text-slate-800">Google Reviews</span>
            <span className="flex items-center gap-1 text-sm font-semibold text-slate-800">
              5.0 <Star className="h-4 w-4 fill-current text-accent-500" aria-hidden="true" />
            </span>
          </div>
          <NewTabLink
            href={googleReviews}
            onClick={() => trackButtonClick('Read more reviews on Google')}
            className="inline-flex items-center gap-2 font-semibold text-brand-700 underline-offset-4 hover:underline"
          >
            Read more reviews on Google
            <ExternalLink className="h-4 w-4" aria-hidden="true" />
          </NewTabLink>
        </div>
      </div>
    </section>
  );
}
