import { usePageMeta } from '../lib/page-meta';

export default function ContactPage() {
  usePageMeta({ title: 'Contact Us', description: 'Send us a message and we will get back to you as soon as possible.' });
  return (
    <section className="mx-auto max-w-5xl px-4 py-16 sm:px-6 lg:px-8">
      <h1 className="text-3xl font-bold text-brand-800 sm:text-4xl">Contact Us</h1>
      <p className="mt-4 text-lg text-slate-700">Send us a message and we will get back to you as soon as possible.</p>
    </section>
  );
}
