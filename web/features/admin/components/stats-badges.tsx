import { Badge } from '../../../components/ui/badge';
import type { NewsletterStats, RateLimitStats } from '../api/admin-api';
import { formatDate } from '../lib/format';

// docs/product.md §6.2 and §8: contact messages and bookings each have their own daily cap (so one
// form filling up never closes the other); the protection badge turns destructive once either
// passes three quarters of its cap (60 of 80 by default).
export const PROTECTION_WARNING_SHARE = 0.75;

export function SubmissionBadges({ totalMessages, stats }: { totalMessages: number | undefined; stats: RateLimitStats | undefined }) {
  const warning = stats ? [stats.contact, stats.booking].some((form) => form.count > form.cap * PROTECTION_WARNING_SHARE) : false;
  return (
    <ul aria-label="Submission statistics" className="flex flex-wrap gap-2">
      <li>
        <Badge variant="secondary">Total Messages: {totalMessages ?? '…'}</Badge>
      </li>
      <li>
        <Badge variant="secondary">
          Today's Submissions: {stats ? `${stats.contact.count}/${stats.contact.cap} messages, ${stats.booking.count}/${stats.booking.cap} bookings` : '…'}
        </Badge>
      </li>
      <li>
        <Badge variant="secondary">Active IPs: {stats?.ipCount ?? '…'}</Badge>
      </li>
      <li>
        <Badge variant={warning ? 'destructive' : 'success'}>MailChannels Protection: Active</Badge>
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
