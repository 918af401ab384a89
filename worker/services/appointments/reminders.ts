import { and, gte, inArray, isNotNull, lte, sql } from 'drizzle-orm';
import { firm } from '#core/content/firm';
import type { Db } from '../../db/client';
import { appointmentReminders, appointments } from '../../db/schema';
import type { Bindings } from '../../env';
import { appointmentLinks, appointmentStartsAt } from './links';
import { enqueue } from '../email/enqueue';
import { firmToday } from '#core/firm-time';
import { safeErrorSummary } from '../platform/log-safe';
import { appointmentReminderEmail } from './emails';
import { hasTime } from './invite';
import { publishedContent } from '../content';

// The reminder e-mail before an appointment (docs/product.md §3), sent by the cron (worker/cron.ts).
//
// Exactly once, whatever the cron's timing: the primary key of appointment_reminders
// (appointment_id, date, time_slot) is the claim. Each tick INSERTs the rows for the appointments
// it found due, ON CONFLICT DO NOTHING RETURNING, and sends only for the rows its own insert
// returned, so of two overlapping ticks exactly one gets each row. The INSERT copies the row from
// appointments only while it is still active at the same date, slot and sequence, so a cancelled
// appointment is never reminded and one changed meanwhile waits for the next tick (with links that
// match its new sequence). A rescheduled appointment has a new (date, time_slot) key, so it is
// reminded again for its new time. A request without a time has no start to remind of: it is
// skipped until the admin confirms it with a slot. A reminder whose e-mail fails is not retried (the e-mail log
// shows the failure): at most one, never two.

/** Appointments starting within this long are due a reminder. */
export const REMINDER_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * Reminders per cron tick. The tick shares the Workers subrequest limit with the newsletter batch
 * (worker/services/newsletter/sender.ts); a tick spends N + 4 on reminders (one read, one batch of
 * claims, one batch logging the e-mails, N sends, one batch recording them), 14 at most. More due
 * than this wait for the next tick (a minute later), still well before their start.
 */
export const REMINDERS_PER_TICK = 10;

export interface ReminderStats {
  due: number;
  claimed: number;
  sent: number;
  failed: number;
  /** D1 calls, KV reads and e-mail requests this pass made (the cron gives the newsletter batch the rest). */
  subrequests: number;
}

const ONE_DAY_MS = 24 * 60 * 60 * 1000;

/** Claims and sends the reminders due at `now`, at most `limit` of them. */
export async function sendDueReminders(env: Bindings, db: Db, now: Date = new Date(), limit = REMINDERS_PER_TICK): Promise<ReminderStats> {
  // Calendar days that can hold a start within the window, in the firm's zone.
  const from = firmToday(firm.timeZone, now);
  const to = firmToday(firm.timeZone, new Date(now.getTime() + REMINDER_WINDOW_MS + ONE_DAY_MS));
  const candidates = await db
    .select()
    .from(appointments)
    .where(
      and(
        inArray(appointments.status, ['requested', 'confirmed']),
        isNotNull(appointments.timeSlot),
        gte(appointments.date, from),
        lte(appointments.date, to),
        sql`NOT EXISTS (SELECT 1 FROM ${appointmentReminders} r WHERE r.appointment_id = ${appointments.id} AND r.date = ${appointments.date} AND r.time_slot = ${appointments.timeSlot})`,
      ),
    );
  const due = candidates
    .filter(hasTime)
    .map((row) => ({ row, startsAt: appointmentStartsAt(row).getTime() }))
    .filter(({ startsAt }) => startsAt > now.getTime() && startsAt <= now.getTime() + REMINDER_WINDOW_MS)
    .sort((a, b) => a.startsAt - b.startsAt || a.row.id - b.row.id)
    .slice(0, limit)
    .map(({ row }) => row);
  if (due.length === 0) return { due: 0, claimed: 0, sent: 0, failed: 0, subrequests: 1 };

  // The claim: one batch (one subrequest), one INSERT ... SELECT per appointment.
  const claim = env.DB.prepare(
    `INSERT INTO appointment_reminders (appointment_id, date, time_slot)
     SELECT id, date, time_slot FROM appointments
     WHERE id = ?1 AND date = ?2 AND time_slot = ?3 AND sequence = ?4 AND status <> 'cancelled'
     ON CONFLICT DO NOTHING RETURNING appointment_id`,
  );
  const results = await env.DB.batch(due.map((row) => claim.bind(row.id, row.date, row.timeSlot, row.sequence)));
  const claimed = due.filter((_, i) => results[i].results.length > 0);
  if (claimed.length === 0) return { due: due.length, claimed: 0, sent: 0, failed: 0, subrequests: 2 };

  const { firm: firmFacts } = await publishedContent(env);
  const messages = await Promise.all(claimed.map(async (row) => appointmentReminderEmail(env, firmFacts, row, await appointmentLinks(env, row, now))));
  // Delivered within the tick, its claims already written: each reminder exactly once.
  const outcomes = await enqueue({ env, settle: () => [] }, messages);
  const failed = outcomes.filter((o) => !o.ok).length;
  for (const [i, o] of outcomes.entries()) if (!o.ok) console.error('Reminder not sent', claimed[i].id, safeErrorSummary(o.error));
  return { due: due.length, claimed: claimed.length, sent: outcomes.length - failed, failed, subrequests: 6 + claimed.length };
}
