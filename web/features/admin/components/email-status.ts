import type { BadgeVariant } from '../../../components/ui/badge';
import type { EmailLogEntry } from '../api/admin-api';

/** The badge of each e-mail log status. */
export const emailStatusVariant: Record<EmailLogEntry['status'], BadgeVariant> = {
  sent: 'success',
  stored: 'secondary',
  queued: 'warning',
  failed: 'destructive',
};
