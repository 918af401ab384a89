import { ArchivedIssue } from '../features/newsletter/components/archived-issue';
import { island } from '../islands/island';
import { useContent } from '../lib/content';
import { usePageMeta } from '../lib/page-meta';

const ArchivedIssueIsland = island('newsletter-issue', ArchivedIssue);

/**
 * One newsletter issue from the archive (docs/product.md §5): the page is its island
 * (web/features/newsletter/components/archived-issue.tsx), which reads the issue's id from the address.
 */
export default function NewsletterIssuePage() {
  const { firm } = useContent();
  usePageMeta({ title: 'Newsletter', description: `An issue of the ${firm.name} newsletter.` });
  return <ArchivedIssueIsland pathname="/newsletter/:id" firmName={firm.name} />;
}
