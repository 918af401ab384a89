import type { Db } from '../../db/client';
import { expiredChatPurge } from '../chat/sessions';
import { pruneChatWindows } from '../chat/throttle';
import { oldEmailBodiesPurge } from '../email/log-retention';
import { auditPrunes } from '../audit/audit-log';
import { safeErrorSummary } from './log-safe';
import { prunes as adminAuthPrunes } from '../admin-auth';
import { oldDeliveryEventsPurge, stalePendingPurge } from '../newsletter/list-hygiene';
import { pruneSignupWindows } from '../newsletter/signup-throttle';
import { pruneSubmissionWindows } from '../limits/submission-limits';

export interface HousekeepingResult {
  chatConversations: number;
  staleSignUps: number;
}

/**
 * Every cleanup of a cron tick in ONE D1 batch, so housekeeping costs one subrequest whatever it
 * covers and the newsletter batch keeps its room under the plan's limit (50 on the free plan,
 * docs/operations.md): expired sign-in attempt windows, revoked sessions past their expiry, chat,
 * submission and newsletter sign-up windows, chat conversations past
 * their retention (docs/product.md §4.1), sign-ups never confirmed within 30 days and old
 * delivery-event keys (§5), e-mail bodies in the log after 90 days (email/log-retention.ts), audit
 * entries after 400 days (audit/audit-log.ts, §6.9). A
 * failure is logged and the next tick tries again; it never stops the reminders or the newsletter.
 */
export async function housekeeping(db: Db, at: Date): Promise<HousekeepingResult | null> {
  try {
    const [, , chats, stale] = await db.batch([
      pruneSubmissionWindows(db, at.getTime()),
      ...expiredChatPurge(db, at),
      stalePendingPurge(db, at),
      oldDeliveryEventsPurge(db, at),
      oldEmailBodiesPurge(db, at),
      pruneChatWindows(db, at.getTime()),
      pruneSignupWindows(db, at.getTime()),
      // The domains' and the floor's prunes (worker/services/platform/jobs.ts), after the statements whose rows are counted above.
      ...[...adminAuthPrunes, ...auditPrunes].flatMap((prune) => prune.statements(db, at)),
    ]);
    return { chatConversations: chats.length, staleSignUps: stale.length };
  } catch (error) {
    console.error('Housekeeping failed; the next tick tries again', safeErrorSummary(error));
    return null;
  }
}
