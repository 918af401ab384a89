import { Badge } from '../../../components/ui/badge';
import type { NewsletterStats, RateLimitStats } from '../api/admin-api';
import { formatDate } from '../lib/format';

// docs/product.md §6.2 and §8: the daily submission cap shown to the admin, and the count above
// which the protection badge turns destructive.
export const DAILY_SUBMISSION_CAP = 80;
export const PROTECTION_WARNING_THRESHOLD = 60;

export function SubmissionBadges({ totalMessages, stats }: { totalMessages: number | undefined; stats: RateLimitStats | undefined }) {
  const today = stats?.globalCount ?? 0;
  return (
    <ul aria-label="Submission statistics" className="flex flex-wrap gap-2">
      <li>
        <Badge variant="secondary">Total Messages: {totalMessages ?? '…'}</Badge>
      </li>
      <li>
        <Badge variant="secondary">
          Today's Submissions: {stats ? today : '…'}/{DAILY_SUBMISSION_CAP}
        </Badge>
      </li>
      <li>
        <Badge variant="secondary">Active IPs: {stats?.ipCount ?? '…'}</Badge>
      </li>
      <li>
        <Badge variant={today > PROTECTION_WARNING_THRESHOLD ? 'destructive' : 'success'}>MailChannels Protection: Active</Badge>
      </li>
    </ul>
  );
}

export function NewsletterBadges({ stats }: { stats: NewsletterStats | undefined }) {
  return (
    <ul aria-label="Newsletter statistics" className="flex flex-wrap gap-2">
      <li>
        <Badge variant="outline">Active Subscribers: {stats?.activeSubscribers ?? '…'}</Badge>
      </li>
      <li>
        <Badge variant="outline">Newsletters Sent: {stats?.totalSent ?? '…'}</Badge>
      </li>
      <li>
        <Badge variant="outline">Last Sent: {stats ? (stats.lastSent ? formatDate(stats.lastSent) : 'Never') : '…'}</Badge>
      </li>
    </ul>
  );
}
