import { ArrowLeft } from 'lucide-react';
import { Link } from 'react-router';
import { useEndSessionOn401, useLoadFailureToast } from '../features/admin/api/admin-api';
import { AdminSpinner, SignedInOnly } from '../features/admin/components/admin-page-parts';
import { useContentVersions } from '../features/content-admin/content-api';
import { ContentHistory } from '../features/content-admin/content-history';
import { errorMessage, isUnauthorized } from '../lib/api';
import { usePageMeta } from '../lib/page-meta';

/** /admin/content/history: every published version of the site's content, with Restore (docs/product.md §6.6). */
export default function AdminContentHistoryPage() {
  usePageMeta({ title: 'Content history', description: 'Published versions of the site content' });
  return <SignedInOnly>{() => <HistoryAdministration />}</SignedInOnly>;
}

function HistoryAdministration() {
  const versions = useContentVersions();
  useEndSessionOn401(versions);

  useLoadFailureToast(versions.error, 'Failed to load the history. Please try again.');

  return (
    <section className="mx-auto max-w-4xl space-y-8 px-4 py-10 [overflow-wrap:anywhere] sm:px-6 lg:px-8">
      <div>
        <Link to="/admin/content" className="mb-2 inline-flex min-h-6 items-center gap-1 text-sm text-brand-700 hover:underline">
          <ArrowLeft className="h-4 w-4" aria-hidden="true" />
          Site content
        </Link>
        <h1 className="text-3xl font-bold text-brand-800">Content history</h1>
        <p className="mt-1 text-slate-600">Every published version, who published it and when, and what it changed. Restore publishes a copy of an earlier version.</p>
      </div>
      {versions.isPending ? (
        <AdminSpinner />
      ) : versions.isError ? (
        isUnauthorized(versions.error) ? null : (
          <p role="alert" className="rounded-md border border-red-200 bg-red-50 p-4 text-sm text-red-800">
            Failed to load the history: {errorMessage(versions.error, 'Please try again.')}
          </p>
        )
      ) : (
        <ContentHistory versions={versions.data} />
      )}
    </section>
  );
}
