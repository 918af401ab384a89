import { useReadFailures } from '../features/admin/api/admin-api';
import { AdminSubPage, QueryView, adminScreen } from '../features/admin/components/admin-page-parts';
import { useContentState } from '../features/content-admin/content-api';
import { ContentOverview } from '../features/content-admin/content-overview';

/** /admin/content: the site's content, its draft and publishing (docs/product.md §6.6), behind the admin session. */
export default adminScreen({ title: 'Site content', description: 'Edit and publish the site content' }, ContentAdministration);

function ContentAdministration() {
  const content = useContentState();
  useReadFailures(content, 'Failed to load the content. Please try again.');

  return (
    <AdminSubPage width="4xl" title="Site content" intro="The texts of the public site: edit a section, save the draft, then publish it.">
      <QueryView query={content} what="the content">
        {(state) => <ContentOverview state={state} reload={content.refetch} />}
      </QueryView>
    </AdminSubPage>
  );
}
