import { usePageMeta } from '../lib/page-meta';

export default function FaqPage() {
  usePageMeta({ title: 'Frequently Asked Questions', description: 'Answers about our services, taxes, business support and pricing.' });
  return (
    <section className="mx-auto max-w-5xl px-4 py-16 sm:px-6 lg:px-8">
      <h1 className="text-3xl font-bold text-brand-800 sm:text-4xl">Frequently Asked Questions</h1>
      <p className="mt-4 text-lg text-slate-700">Answers about our services, taxes, business support and pricing.</p>
    </section>
  );
}
