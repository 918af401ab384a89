import { usePageMeta } from '../lib/page-meta';

export default function ServicesPage() {
  usePageMeta({ title: 'Our Services', description: 'Tax services, accounting and payroll, and consulting.' });
  return (
    <section className="mx-auto max-w-5xl px-4 py-16 sm:px-6 lg:px-8">
      <h1 className="text-3xl font-bold text-brand-800 sm:text-4xl">Our Services</h1>
      <p className="mt-4 text-lg text-slate-700">Tax services, accounting and payroll, and consulting.</p>
    </section>
  );
}
