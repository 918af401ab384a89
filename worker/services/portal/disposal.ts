// Which portal files are due for disposal (docs/decisions/0022-client-portal-files.md, "Disposal"):
// a file of a request that closed more than the owner's retention period ago (portal_settings,
// whole years, default 3). Pure queries: the cron job that deletes them (deleteFile, audited) and
// the notice that lists them DISPOSAL_NOTICE_DAYS ahead are the next step's.
//
// A file is due at its request's closing time plus the retention years, in UTC on the calendar (a
// request closed on 29 February is due on 28 February). A file that belongs to no request (a
// document staff sent on its own) is never selected here: its keeping is decided with the next step.
import { and, asc, eq, isNull, lte } from 'drizzle-orm';
import { DAY_MS } from '#core/firm-time';
import type { Db } from '../../db/client';
import { portalFiles, portalRequests, portalSettings } from '../../db/schema';

export const DEFAULT_RETENTION_YEARS = 3;
/** How far ahead the disposal notice lists what will be deleted. */
export const DISPOSAL_NOTICE_DAYS = 30;

export interface DueFile {
  id: number;
  clientId: number;
  requestId: number;
  storageKey: string;
  /** When the file is (or was) due: its request's closing plus the retention years. */
  dueAt: Date;
}

/** The owner's retention period in whole years (the default when no setting was saved). */
export async function retentionYears(db: Db): Promise<number> {
  const [row] = await db.select({ years: portalSettings.retentionYears }).from(portalSettings).where(eq(portalSettings.id, 1));
  return row?.years ?? DEFAULT_RETENTION_YEARS;
}

/** `from` moved by whole `years` on the UTC calendar, a 29 February landing on the 28th. */
export function shiftYears(from: Date, years: number): Date {
  const moved = new Date(from);
  moved.setUTCFullYear(from.getUTCFullYear() + years);
  if (moved.getUTCMonth() !== from.getUTCMonth()) moved.setUTCDate(0);
  return moved;
}

/**
 * The files due for disposal by `until`, earliest first, at most `limit`: with `until` = now, what
 * the purge deletes; with now + DISPOSAL_NOTICE_DAYS, what the notice lists ahead.
 */
export async function filesDueBy(db: Db, until: Date, options: { years?: number; limit?: number } = {}): Promise<DueFile[]> {
  const years = options.years ?? (await retentionYears(db));
  // A query a little wider than the rule (the calendar's 29 February), then the rule itself.
  const widest = new Date(shiftYears(until, -years).getTime() + 2 * DAY_MS);
  const rows = await db
    .select({ id: portalFiles.id, clientId: portalFiles.clientId, requestId: portalRequests.id, storageKey: portalFiles.storageKey, closedAt: portalRequests.closedAt })
    .from(portalFiles)
    .innerJoin(portalRequests, eq(portalFiles.requestId, portalRequests.id))
    .where(and(isNull(portalFiles.deletedAt), eq(portalRequests.status, 'closed'), lte(portalRequests.closedAt, widest)))
    .orderBy(asc(portalRequests.closedAt), asc(portalFiles.id))
    .limit(options.limit ?? 500);
  return rows
    .map(({ closedAt, ...file }) => ({ ...file, dueAt: shiftYears(closedAt!, years) }))
    .filter((file) => file.dueAt.getTime() <= until.getTime());
}

/** The files to delete now. */
export const filesDueForDisposal = (db: Db, at: Date, options?: { years?: number; limit?: number }) => filesDueBy(db, at, options);

/** The files the disposal notice lists: due within DISPOSAL_NOTICE_DAYS of `at` (those due already too). */
export const filesDueWithinNotice = (db: Db, at: Date, options?: { years?: number; limit?: number }) =>
  filesDueBy(db, new Date(at.getTime() + DISPOSAL_NOTICE_DAYS * DAY_MS), options);
