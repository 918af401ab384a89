import { Mail } from 'lucide-react';
import { Skeleton } from '../../../components/ui/skeleton';
import { formatIssueDate, useArchivedIssues } from '../api/archive-api';

/**
 * The archive's list of sent issues, newest first (docs/product.md §5): an island of the
 * prerendered /newsletter page (web/pages/newsletter-archive.tsx), prerendered in its loading state;
 * the list comes from GET /api/newsletters in the browser.
 */
export function ArchiveList() {
  const issues = useArchivedIssues();
  return (
    <section className="mx-auto min-h-96 max-w-3xl px-4 py-12 sm:px-6 lg:px-8" aria-labelledby="past-issues" aria-busy={issues.state === 'loading'}>
      <h2 id="past-issues" className="text-2xl font-bold text-brand-800">
        Past issues
      </h2>
      {issues.state === 'loading' && (
        <div className="mt-6 space-y-3">
          <Skeleton className="h-16" />
          <Skeleton className="h-16" />
          <Skeleton className="h-16" />
        </div>
      )}
      {issues.state === 'error' && (
        <p role="alert" className="mt-6 text-red-700">
          {issues.message}
        </p>
      )}
      {issues.state === 'ready' && issues.data.length === 0 && (
        <div className="mt-6 flex items-start gap-3 rounded-lg border border-slate-200 bg-white p-6 text-slate-700">
          <Mail className="mt-0.5 h-5 w-5 shrink-0 text-brand-700" aria-hidden="true" />
          <p>No issues have been published yet. Subscribe at the foot of this page and the first one will reach your inbox.</p>
        </div>
      )}
      {issues.state === 'ready' && issues.data.length > 0 && (
        <ul className="mt-6 divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
          {issues.data.map((issue) => (
            <li key={issue.id}>
              <a href={`/newsletter/${issue.id}`} className="flex flex-col gap-1 p-4 hover:bg-slate-50 sm:flex-row sm:items-baseline sm:justify-between sm:gap-4">
                <span className="font-semibold text-brand-800 underline-offset-2 hover:underline">{issue.subject}</span>
                <time dateTime={issue.sentOn} className="shrink-0 text-sm text-slate-600">
                  {formatIssueDate(issue.sentOn)}
                </time>
              </a>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
