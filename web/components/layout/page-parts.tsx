import type { AnchorHTMLAttributes, ReactNode } from 'react';
import type { trackedClick } from '../../lib/analytics';

// Pieces the public pages share, so each page states only its own words.

/** A link that opens in a new tab, with the hidden note screen readers announce. */
export function NewTabLink({ children, ...props }: AnchorHTMLAttributes<HTMLAnchorElement> & { href: string }) {
  return (
    <a {...props} target="_blank" rel="noopener noreferrer">
      {children}
      <span className="sr-only"> (opens in a new tab)</span>
    </a>
  );
}

/** The light-blue banner at the top of a content page: optional breadcrumb, the h1, a lead paragraph, extras. */
export function PageHero({ title, lead, breadcrumb, children }: { title: string; lead: ReactNode; breadcrumb?: ReactNode; children?: ReactNode }) {
  return (
    <section className="bg-brand-50">
      <div className={`mx-auto max-w-7xl px-4 ${breadcrumb ? 'py-12' : 'py-14'} sm:px-6 ${breadcrumb ? 'sm:py-16' : 'sm:py-20'} lg:px-8`}>
        {breadcrumb}
        <h1 className={`${breadcrumb ? 'mt-6 ' : ''}text-4xl font-bold text-brand-800 sm:text-5xl`}>{title}</h1>
        <p className="mt-4 max-w-3xl text-lg text-slate-700">{lead}</p>
        {children}
      </div>
    </section>
  );
}

/** The dark call-to-action band that closes a page: a heading, a line of text and one button. */
export function CtaBand({ title, text, to, label, track }: { title: string; text: ReactNode; to: string; label: string; track?: ReturnType<typeof trackedClick> }) {
  return (
    <section className="bg-brand-800 py-14 text-white">
      <div className="mx-auto flex max-w-7xl flex-col items-start justify-between gap-6 px-4 sm:px-6 md:flex-row md:items-center lg:px-8">
        <div>
          <h2 className="text-2xl font-bold sm:text-3xl">{title}</h2>
          <p className="mt-2 text-slate-200">{text}</p>
        </div>
        <a
          href={to}
          {...track}
          className="inline-flex h-12 shrink-0 items-center justify-center rounded-md bg-accent-400 px-6 font-semibold text-brand-900 hover:bg-accent-500"
        >
          {label}
        </a>
      </div>
    </section>
  );
}

/** A page section in the 7xl container, labelled by its h2 (the heading's look and wrapper vary by page). */
export function TitledSection({
  id,
  title,
  className,
  headingClassName = 'text-3xl font-bold text-brand-800',
  children,
}: {
  id: string;
  title: ReactNode;
  className: string;
  headingClassName?: string;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={`${id}-heading`} className={className}>
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <h2 id={`${id}-heading`} className={headingClassName}>
          {title}
        </h2>
        {children}
      </div>
    </section>
  );
}

/** The Contact and Schedule pages: a header, then the form beside its sidebar. */
export function FormPageShell({ title, lead, children }: { title: string; lead: string; children: ReactNode }) {
  return (
    <div className="bg-slate-50">
      <section className="mx-auto max-w-6xl px-4 py-12 sm:px-6 sm:py-16 lg:px-8">
        <header className="max-w-3xl">
          <h1 className="text-3xl font-bold text-brand-800 sm:text-4xl">{title}</h1>
          <p className="mt-4 text-lg text-slate-700">{lead}</p>
        </header>
        {children}
      </section>
    </div>
  );
}

/** The items of an in-page table of contents: one link per section, to its id. */
export function SectionLinks({ sections, linkClassName }: { sections: readonly { id: string; title: string }[]; linkClassName: string }) {
  return sections.map((section) => (
    <li key={section.id}>
      <a href={`#${section.id}`} className={linkClassName}>
        {section.title}
      </a>
    </li>
  ));
}
