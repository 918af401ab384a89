import { ArrowLeft } from 'lucide-react';
import { Link } from 'react-router';

/** The heading of a page under /admin/content (a section, the history), with the link back to the overview. */
export function ContentSubPageHeading({ title, titleId, intro }: { title: string; titleId?: string; intro: string }) {
  return (
    <div>
      <Link to="/admin/content" className="mb-2 inline-flex min-h-6 items-center gap-1 text-sm text-brand-700 hover:underline">
        <ArrowLeft className="h-4 w-4" aria-hidden="true" />
        Site content
      </Link>
      <h1 id={titleId} className="text-3xl font-bold text-brand-800">
        {title}
      </h1>
      <p className="mt-1 text-slate-600">{intro}</p>
    </div>
  );
}
