import { ArrowLeft } from 'lucide-react';
import { Skeleton } from '../../../components/ui/skeleton';
import { usePageMeta } from '../../../lib/page-meta';
import { NotFoundContent } from '../../../components/layout/not-found-content';
import { formatIssueDate, useArchivedIssue } from '../api/archive-api';
import { IssueFrame } from './issue-frame';

/** The issue's id from the page's address (/newsletter/:id): an island knows no router. */
const issueIdFromPath = (pathname: string) => /^\/newsletter\/([^/]+)\/?$/.exec(pathname)?.[1] ?? '';

/**
 * One newsletter issue from the archive (docs/product.md §5): the island of /newsletter/:id
 * (web/pages/newsletter-issue.tsx). The worker serves the page's shell only for a sent issue, with
 * the issue's title in the head (worker/routes/site-pages.ts); the first render (the loading state)
 * is the same for every issue, so the shell hydrates in place, then the issue is fetched.
 */
export function ArchivedIssue({ pathname, firmName }: { pathname: string; firmName: string }) {
  const id = issueIdFromPath(typeof window === 'undefined' ? pathname : window.location.pathname);
  const issue = useArchivedIssue(id);
  const notFound = issue.state === 'not-found';
  usePageMeta(
    issue.state === 'ready'
      ? { title: issue.data.subject, description: `The ${firmName} newsletter of ${formatIssueDate(issue.data.sentOn)}.`, siteName: firmName }
      : notFound
        ? { title: '404 Page Not Found', description: 'The page you are looking for does not exist.', noindex: true, siteName: firmName }
        : { title: 'Newsletter', description: `An issue of the ${firmName} newsletter.`, siteName: firmName },
  );
  // The worker answered this address with the 404 page (an unknown or unsent issue): once the API
  // agrees, show that same page rather than a page of our own.
  if (notFound) return <NotFoundContent />;

  return (
    <section className="mx-auto max-w-4xl px-4 py-10 sm:px-6 lg:px-8" aria-busy={issue.state === 'loading'}>
      <a href="/newsletter" className="inline-flex items-center gap-1 text-sm font-semibold text-brand-700 hover:underline">
        <ArrowLeft className="h-4 w-4" aria-hidden="true" />
        All issues
      </a>
      {issue.state === 'loading' && (
        <div className="mt-6 space-y-4">
          <Skeleton className="h-10 w-3/4" />
          <Skeleton className="h-5 w-40" />
          <Skeleton className="h-[28rem]" />
        </div>
      )}
      {issue.state === 'ready' && (
        <>
          <h1 className="mt-6 text-3xl font-bold text-brand-800 sm:text-4xl">{issue.data.subject}</h1>
          <p className="mt-2 text-slate-600">
            Sent <time dateTime={issue.data.sentOn}>{formatIssueDate(issue.data.sentOn)}</time>
          </p>
          <div className="mt-6">
            <IssueFrame html={issue.data.html} title={issue.data.subject} />
          </div>
        </>
      )}
      {issue.state === 'error' && (
        <p role="alert" className="mt-6 text-red-700">
          {issue.message}
        </p>
      )}
    </section>
  );
}
