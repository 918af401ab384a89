import { useReadFailures } from '../features/admin/api/admin-api';
import { AdminSubPage, QueryView, adminScreen } from '../features/admin/components/admin-page-parts';
import { useContentVersions } from '../features/content-admin/content-api';
import { ContentHistory } from '../features/content-admin/content-history';
import { CONTENT_OVERVIEW_LINK } from '../features/content-admin/section-slugs';

/** /admin/content/history: every published version of the site's content, with Restore (docs/product.md §6.6). */
export default adminScreen({ title: 'Content history', description: 'Published versions of the site content' }, HistoryAdministration);

function HistoryAdministration() {
  const versions = useContentVersions();
  useReadFailures(versions, 'Failed to load the history. Please try again.');

  return (
    <AdminSubPage
      width="4xl"
      back={CONTENT_OVERVIEW_LINK}
      title="Content history"
      intro="Every published version, who published it and when, and what it changed. Restore publishes a copy of an earlier version."
    >
      <QueryView query={versions} what="the history">
        {(data) => <ContentHistory versions={data} />}
      </QueryView>
    </AdminSubPage>
  );
}
