import { Loader2 } from 'lucide-react';
import type { SentNewsletter } from '../api/admin-api';

/** A newsletter still going out (sending resumes on each cron tick): delivered of total, failures. */
export function SendingProgress({ newsletter: n }: { newsletter: SentNewsletter }) {
  const settled = n.recipientCount + n.failedCount;
  const percent = n.totalRecipients > 0 ? Math.round((settled / n.totalRecipients) * 100) : 0;
  return (
    <div className="space-y-1 rounded-md border border-amber-200 bg-amber-50 p-3 text-sm" data-testid="sending-progress">
      <p className="flex items-center gap-2 font-medium text-amber-900">
        <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" />
        Sending “{n.subject}”: {n.recipientCount} of {n.totalRecipients} delivered
        {n.failedCount > 0 && `, ${n.failedCount} failed`}
      </p>
      <div
        role="progressbar"
        aria-label={`Sending ${n.subject}`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        className="h-2 w-full overflow-hidden rounded-full bg-amber-100"
      >
        <div className="h-full bg-amber-500 transition-all" style={{ width: `${percent}%` }} />
      </div>
    </div>
  );
}
