import { usePageMeta } from '../lib/page-meta';

export default function SchedulePage() {
  usePageMeta({ title: 'Schedule a Consultation', description: 'Book a free initial consultation with a CPA.' });
  return (
    <section className="mx-auto max-w-5xl px-4 py-16 sm:px-6 lg:px-8">
      <h1 className="text-3xl font-bold text-brand-800 sm:text-4xl">Schedule a Consultation</h1>
      <p className="mt-4 text-lg text-slate-700">Book a free initial consultation with a CPA.</p>
    </section>
  );
}
