import { usePageMeta } from '../lib/page-meta';

export default function PrivacyPolicyPage() {
  usePageMeta({ title: 'Privacy Policy', description: 'How we collect, use and protect your information.' });
  return (
    <section className="mx-auto max-w-5xl px-4 py-16 sm:px-6 lg:px-8">
      <h1 className="text-3xl font-bold text-brand-800 sm:text-4xl">Privacy Policy</h1>
      <p className="mt-4 text-lg text-slate-700">How we collect, use and protect your information.</p>
    </section>
  );
}
