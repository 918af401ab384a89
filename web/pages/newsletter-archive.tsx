import { PageHero } from '../components/layout/page-parts';
import { useContent } from '../lib/content';
import { ArchiveList } from '../features/newsletter/components/archive-list';
import { island } from '../islands/island';
import { usePageMeta } from '../lib/page-meta';

const ArchiveListIsland = island('newsletter-archive', ArchiveList);

/**
 * The newsletter archive (docs/product.md §5): every issue that went out, newest first. The build
 * prerenders it in its loading state; the list comes from GET /api/newsletters in the browser.
 */
export default function NewsletterArchivePage() {
  const { firm } = useContent();
  usePageMeta({
    title: 'Newsletter Archive',
    description: `Past issues of the ${firm.name} newsletter: tax tips, deadlines and planning ideas, once a month.`,
  });

  return (
    <>
      <PageHero title="Newsletter Archive" lead="Every issue of our monthly newsletter: tax tips, deadlines and planning ideas. Subscribe at the foot of any page to get the next one by e-mail." />
      <ArchiveListIsland />
    </>
  );
}
