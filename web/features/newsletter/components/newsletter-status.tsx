import type { ReactNode } from 'react';
import { Link } from 'react-router';

/** The frame of the newsletter link pages: an icon, a heading, a message and actions. */
export function NewsletterStatus({ icon, title, children, actions }: { icon: ReactNode; title: string; children: ReactNode; actions?: ReactNode }) {
  return (
    <section className="mx-auto flex max-w-2xl flex-col items-center px-4 py-20 text-center sm:py-24">
      {icon}
      <h1 className="mt-6 text-3xl font-bold text-brand-800 sm:text-4xl">{title}</h1>
      <div className="mt-4 text-lg text-slate-700">{children}</div>
      <div className="mt-8 flex flex-col items-center gap-3 sm:flex-row">
        {actions}
        <Link to="/" className="inline-flex h-12 items-center justify-center rounded-md border border-slate-300 bg-white px-6 font-semibold text-slate-800 hover:bg-slate-50">
          Return to Home
        </Link>
      </div>
    </section>
  );
}
