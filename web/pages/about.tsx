import { usePageMeta } from '../lib/page-meta';

export default function AboutPage() {
  usePageMeta({ title: 'About Us', description: 'Our story, our leader and how we work with clients.' });
  return (
    <section className="mx-auto max-w-5xl px-4 py-16 sm:px-6 lg:px-8">
      <h1 className="text-3xl font-bold text-brand-800 sm:text-4xl">About Us</h1>
      <p className="mt-4 text-lg text-slate-700">Our story, our leader and how we work with clients.</p>
    </section>
  );
}
