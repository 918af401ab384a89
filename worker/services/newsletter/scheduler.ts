import { eq, sql } from 'drizzle-orm';
import { firm } from '#core/content/firm';
import type { Db } from '../../db/client';
import { schedulerSettings } from '../../db/schema';
import type { Bindings } from '../../env';
import { firmDateParts, timeZoneLabel, weekdayOf } from '#core/firm-time';
import { generateNewsletter } from './ai-preview';
import { sanitizeHtml } from './sanitize-html';
import { countActiveSubscribers, createNewsletter, PeriodAlreadySentError } from './store';
import { siteOrigin } from '../platform/site-origin';

/**
 * The automated newsletter (docs/product.md §5.5): one issue per month, on the first Monday at
 * 9:00 AM in the firm's time zone. State lives in scheduler_settings (row id = 1, created on first
 * use). The every-minute cron sends when the scheduler is running and the period is due;
 * sent_newsletters.period_key is UNIQUE, so a period gets at most one issue however often the cron
 * fires or the admin triggers it.
 */
export const SCHEDULE_TEXT = `First Monday of every month at 9:00 AM (${timeZoneLabel(firm.timeZone)})`;
const SEND_HOUR = 9;
/** A missed slot (outage, scheduler started late) is caught up within the following week, not later. */
const CATCH_UP_DAYS = 7;

export async function schedulerState(db: Db) {
  await db.insert(schedulerSettings).values({ id: 1, running: false, schedule: SCHEDULE_TEXT }).onConflictDoNothing();
  const row = await db.query.schedulerSettings.findFirst({ where: eq(schedulerSettings.id, 1) });
  return row!;
}

export async function setSchedulerRunning(db: Db, running: boolean) {
  await db
    .insert(schedulerSettings)
    .values({ id: 1, running, schedule: SCHEDULE_TEXT })
    .onConflictDoUpdate({ target: schedulerSettings.id, set: { running, updatedAt: sql`(cast(unixepoch('subsec') * 1000 as integer))` } });
}

export interface Period {
  /** sent_newsletters.period_key, e.g. "2026-03". */
  key: string;
  label: string;
  /** Whether the scheduled slot of this period has come and its catch-up window has not passed. */
  due: boolean;
}

export function currentPeriod(at: Date = new Date()): Period {
  const { year, month, day, hour } = firmDateParts(firm.timeZone, at);
  const mm = String(month).padStart(2, '0');
  const firstWeekday = weekdayOf(`${year}-${mm}-01`);
  const firstMonday = 1 + ((1 - firstWeekday + 7) % 7);
  const due = (day > firstMonday || (day === firstMonday && hour >= SEND_HOUR)) && day < firstMonday + CATCH_UP_DAYS;
  const label = new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(Date.UTC(year, month - 1, 1)));
  return { key: `${year}-${mm}`, label, due };
}

export type ScheduledSendResult =
  | { outcome: 'created'; newsletterId: number; totalRecipients: number }
  | { outcome: 'already-sent' | 'no-subscribers' | 'not-due' | 'stopped'; newsletterId?: number };

/**
 * Creates this period's generated newsletter (sendNewsletterNow, send-now.ts, then sends its first batch).
 * `force` skips the running/due checks (the admin's trigger) but never the once-per-period rule.
 */
export async function startPeriodNewsletter(
  env: Bindings,
  db: Db,
  options: { at?: Date; force?: boolean; origin?: string; trigger: 'manual' | 'scheduled' },
): Promise<ScheduledSendResult> {
  const at = options.at ?? new Date();
  const period = currentPeriod(at);
  if (!options.force) {
    const state = await schedulerState(db);
    if (!state.running) return { outcome: 'stopped' };
    if (!period.due) return { outcome: 'not-due' };
    if (state.lastPeriodKey === period.key) return { outcome: 'already-sent' };
  }
  if ((await countActiveSubscribers(db)) === 0) return { outcome: 'no-subscribers' };
  const draft = await generateNewsletter(env, options.origin ?? siteOrigin(env), { at });
  try {
    const created = await createNewsletter(db, {
      subject: draft.subject,
      content: sanitizeHtml(draft.htmlContent),
      trigger: options.trigger,
      periodKey: period.key,
      // The running scheduler's own issue (the cron's, not the admin's trigger, which its route
      // records) is a send on the behalf of whoever started the scheduler.
      ...(options.trigger === 'scheduled' && !options.force ? { cronAudit: { action: 'newsletter.scheduler-send' as const, at } } : {}),
    });
    await schedulerState(db);
    await db.update(schedulerSettings).set({ lastPeriodKey: period.key }).where(eq(schedulerSettings.id, 1));
    return { outcome: 'created', newsletterId: created.id, totalRecipients: created.totalRecipients };
  } catch (error) {
    if (error instanceof PeriodAlreadySentError) return { outcome: 'already-sent' };
    throw error;
  }
}
