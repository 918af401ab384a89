import { useLocation } from 'react-router';
import { useReadFailures } from '../features/admin/api/admin-api';
import { AdminSubPage, QueryView, SignedInOnly } from '../features/admin/components/admin-page-parts';
import { useContentState } from '../features/content-admin/content-api';
import { SectionEditor } from '../features/content-admin/section-editor';
import { CONTENT_OVERVIEW_LINK } from '../features/content-admin/section-slugs';
import { sectionBySlug, type ContentSection } from '../features/content-admin/sections';
import { usePageMeta } from '../lib/page-meta';

/** /admin/content/<section>: one section of the site's content (docs/product.md §6.6), behind the admin session. */
export default function AdminContentSectionPage() {
  const section = sectionBySlug(useLocation().pathname.split('/')[3] ?? '');
  usePageMeta({ title: section ? `${section.title} · Site content` : 'Site content', description: 'Edit the site content' });
  if (!section) return null;
  return <SignedInOnly>{() => <SectionAdministration section={section} />}</SignedInOnly>;
}

function SectionAdministration({ section }: { section: ContentSection }) {
  const content = useContentState();
  useReadFailures(content, 'Failed to load the content. Please try again.');
  const reloadContent = async () => {
    const result = await content.refetch();
    if (result.error) throw result.error;
    return result.data;
  };

  return (
    <AdminSubPage width="4xl" title={section.title} titleId="content-section-title" intro={section.intro} back={CONTENT_OVERVIEW_LINK}>
      <QueryView query={content} what="the content">
        {(state) => <SectionEditor key={section.slug} section={section} state={state} reload={reloadContent} />}
      </QueryView>
    </AdminSubPage>
  );
}
