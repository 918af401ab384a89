import { usePageMeta } from '../lib/page-meta';

export default function HomePage() {
  usePageMeta({ title: 'Tax & Accounting Services in Warrendale, PA', description: 'Certified public accountants for individuals, families and businesses.' });
  return (
    <section className="mx-auto max-w-5xl px-4 py-16 sm:px-6 lg:px-8">
      <h1 className="text-3xl font-bold text-brand-800 sm:text-4xl">Tax &amp; Accounting Services in Warrendale, PA</h1>
      <p className="mt-4 text-lg text-slate-700">Certified public accountants for individuals, families and businesses.</p>
    </section>
  );
}
