import { Badge, type BadgeVariant } from '../../../components/ui/badge';
import type { NewsletterDraft } from '../api/newsletter-drafts-api';

const LABELS: Record<NewsletterDraft['status'], { label: string; variant: BadgeVariant }> = {
  draft: { label: 'Draft', variant: 'secondary' },
  scheduled: { label: 'Scheduled', variant: 'default' },
  sending: { label: 'Sending', variant: 'warning' },
  sent: { label: 'Sent', variant: 'success' },
  cancelled: { label: 'Cancelled', variant: 'outline' },
};

/** A draft's state in words (docs/product.md §5.9). */
export function DraftStatusBadge({ status }: { status: NewsletterDraft['status'] }) {
  const { label, variant } = LABELS[status];
  return <Badge variant={variant}>{label}</Badge>;
}
