import type { Db } from '../../db/client';
import { expiredChatPurge, pruneChatWindows } from '../chat';
import { oldEmailBodiesPurge } from '../email/log-retention';
import { oldAuditPurge } from '../audit/audit-log';
import { safeErrorSummary } from './log-safe';
import { pruneExpiredSessions } from '../admin-auth/session';
import { pruneLoginAttempts } from '../admin-auth/login-throttle';
import { deliveryEventsPrune, signupWindowsPrune, stalePendingPrune } from '../newsletter';
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
    const [, , , chats, stale] = await db.batch([
      pruneLoginAttempts(db, at.getTime()),
      pruneSubmissionWindows(db, at.getTime()),
      ...expiredChatPurge(db, at),
      ...stalePendingPrune.statements(db, at),
      ...deliveryEventsPrune.statements(db, at),
      oldEmailBodiesPurge(db, at),
      pruneChatWindows(db, at.getTime()),
      // A session's expiry is a wall-clock fact: a tick stamped ahead of now (a replayed or test
      // tick) must not end sessions that are still valid.
      pruneExpiredSessions(db, Math.min(at.getTime(), Date.now())),
      ...signupWindowsPrune.statements(db, at),
      oldAuditPurge(db, at),
    ]);
    return { chatConversations: chats.length, staleSignUps: stale.length };
  } catch (error) {
    console.error('Housekeeping failed; the next tick tries again', safeErrorSummary(error));
    return null;
  }
}
