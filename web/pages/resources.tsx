import { usePageMeta } from '../lib/page-meta';

export default function ResourcesPage() {
  usePageMeta({ title: 'Tax Resources', description: 'Helpful links for refunds, payments and transcripts.' });
  return (
    <section className="mx-auto max-w-5xl px-4 py-16 sm:px-6 lg:px-8">
      <h1 className="text-3xl font-bold text-brand-800 sm:text-4xl">Tax Resources</h1>
      <p className="mt-4 text-lg text-slate-700">Helpful links for refunds, payments and transcripts.</p>
    </section>
  );
}
