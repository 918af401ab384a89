import { ArrowLeft } from 'lucide-react';
import { Link, useLocation } from 'react-router';
import { useEndSessionOn401, useLoadFailureToast } from '../features/admin/api/admin-api';
import { AdminSpinner, SignedInOnly } from '../features/admin/components/admin-page-parts';
import { useContent } from '../features/content-admin/content-api';
import { SectionEditor } from '../features/content-admin/section-editor';
import { sectionBySlug, type ContentSection } from '../features/content-admin/sections';
import { errorMessage, isUnauthorized } from '../lib/api';
import { usePageMeta } from '../lib/page-meta';

/** /admin/content/<section>: one section of the site's content (docs/product.md §6.6), behind the admin session. */
export default function AdminContentSectionPage() {
  const section = sectionBySlug(useLocation().pathname.split('/')[3] ?? '');
  usePageMeta({ title: section ? `${section.title} · Site content` : 'Site content', description: 'Edit the site content' });
  if (!section) return null;
  return <SignedInOnly>{() => <SectionAdministration section={section} />}</SignedInOnly>;
}

function SectionAdministration({ section }: { section: ContentSection }) {
  const content = useContent();
  useEndSessionOn401(content);
  const reloadContent = async () => {
    const result = await content.refetch();
    if (result.error) throw result.error;
    return result.data;
  };

  useLoadFailureToast(content.error, 'Failed to load the content. Please try again.');

  return (
    <section className="mx-auto max-w-4xl space-y-8 px-4 py-10 [overflow-wrap:anywhere] sm:px-6 lg:px-8">
      <div>
        <Link to="/admin/content" className="mb-2 inline-flex min-h-6 items-center gap-1 text-sm text-brand-700 hover:underline">
          <ArrowLeft className="h-4 w-4" aria-hidden="true" />
          Site content
        </Link>
        <h1 id="content-section-title" className="text-3xl font-bold text-brand-800">
          {section.title}
        </h1>
        <p className="mt-1 text-slate-600">{section.intro}</p>
      </div>
      {content.isPending ? (
        <AdminSpinner />
      ) : content.isError ? (
        isUnauthorized(content.error) ? null : (
          <p role="alert" className="rounded-md border border-red-200 bg-red-50 p-4 text-sm text-red-800">
            Failed to load the content: {errorMessage(content.error, 'Please try again.')}
          </p>
        )
      ) : (
        <SectionEditor key={section.slug} section={section} state={content.data} reload={reloadContent} />
      )}
    </section>
  );
}
