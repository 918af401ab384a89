import { ContactForm } from '../features/contact/components/contact-form';
import { ContactInfoCard } from '../features/contact/components/contact-info-card';
import { usePageMeta } from '../lib/page-meta';

export default function ContactPage() {
  usePageMeta({ title: 'Contact Us', description: 'Send us a message and we will get back to you as soon as possible.' });
  return (
    <div className="bg-slate-50">
      <section className="mx-auto max-w-6xl px-4 py-12 sm:px-6 sm:py-16 lg:px-8">
        <header className="max-w-3xl">
          <h1 className="text-3xl font-bold text-brand-800 sm:text-4xl">Contact Us</h1>
          <p className="mt-4 text-lg text-slate-700">Send us a message and we will get back to you as soon as possible.</p>
        </header>
        <div className="mt-10 grid items-start gap-8 lg:grid-cols-[3fr_2fr]">
          <ContactForm />
          <ContactInfoCard />
        </div>
      </section>
    </div>
  );
}
