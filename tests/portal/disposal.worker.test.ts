import { env } from 'cloudflare:test';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '../../worker/db/client';
import { portalClients, portalFiles, portalRequests, portalSettings } from '../../worker/db/schema';
import { DISPOSAL_NOTICE_DAYS, filesDueForDisposal, filesDueWithinNotice, retentionYears, shiftYears } from '../../worker/services/portal';

// Which files are due for disposal (docs/decisions/0022-client-portal-files.md, "Disposal"): every
// instant is taken from the clock, so `npm run test:dates -- tests/portal/disposal.worker.test.ts`
// runs it on the days scripts/test-dates.ts lists.

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** A client whose requests closed at the given instants (null: still open), each with one file; and a file of no request. */
async function scene(closings: Record<string, Date | null>) {
  const db = getDb(env.DB);
  const [client] = await db.insert(portalClients).values({ name: 'Pat', email: 'pat@example.com', createdBy: 1 }).returning();
  const ids: Record<string, number> = {};
  for (const [name, closedAt] of Object.entries(closings)) {
    const [request] = await db
      .insert(portalRequests)
      .values({ clientId: client.id, title: name, createdBy: 1, status: closedAt ? 'closed' : 'open', closedAt })
      .returning();
    const [file] = await db
      .insert(portalFiles)
      .values({ storageKey: `portal/${name}`, clientId: client.id, requestId: request.id, originalName: `${name}.pdf`, detectedType: 'pdf', size: 10, keyId: 'k1', createdByKind: 'client', createdById: client.id })
      .returning();
    ids[name] = file.id;
  }
  const [loose] = await db
    .insert(portalFiles)
    .values({ storageKey: 'portal/loose', clientId: client.id, originalName: 'engagement.pdf', detectedType: 'pdf', size: 10, keyId: 'k1', createdByKind: 'staff', createdById: 1 })
    .returning();
  ids.loose = loose.id;
  return ids;
}

const names = (ids: Record<string, number>, files: { id: number }[]) => files.map((f) => Object.keys(ids).find((name) => ids[name] === f.id)).sort();

describe('portal disposal selector', () => {
  it('selects exactly the files of requests closed more than the retention period ago, and lists 30 days ahead', async () => {
    const now = new Date();
    const db = getDb(env.DB);
    expect(await retentionYears(db)).toBe(3);
    const dueAt = (years: number) => shiftYears(now, -years);
    const ids = await scene({
      longAgo: new Date(dueAt(3).getTime() - 400 * DAY),
      justDue: new Date(dueAt(3).getTime() - HOUR),
      dueInAnHour: new Date(dueAt(3).getTime() + HOUR),
      dueIn29Days: new Date(dueAt(3).getTime() + 29 * DAY),
      dueIn31Days: new Date(dueAt(3).getTime() + 31 * DAY),
      closedYesterday: new Date(now.getTime() - DAY),
      open: null,
      disposed: new Date(dueAt(3).getTime() - 10 * DAY),
    });
    // A file already disposed of is not selected again.
    const [gone] = await db
      .update(portalFiles)
      .set({ deletedAt: new Date(now.getTime() - DAY) })
      .where(eq(portalFiles.id, ids.disposed))
      .returning({ id: portalFiles.id });
    expect(gone).toBeDefined();

    const due = await filesDueForDisposal(db, now);
    expect(names(ids, due)).toEqual(['justDue', 'longAgo']);
    for (const file of due) expect(file.dueAt.getTime()).toBeLessThanOrEqual(now.getTime());
    expect(due.map((f) => f.storageKey)).toEqual(['portal/longAgo', 'portal/justDue']);

    const notice = await filesDueWithinNotice(db, now);
    expect(names(ids, notice)).toEqual(['dueIn29Days', 'dueInAnHour', 'justDue', 'longAgo']);
    for (const file of notice) expect(file.dueAt.getTime()).toBeLessThanOrEqual(now.getTime() + DISPOSAL_NOTICE_DAYS * DAY);

    // The owner's setting: one year keeps only what closed less than a year ago.
    await db.insert(portalSettings).values({ id: 1, retentionYears: 1 });
    expect(names(ids, await filesDueForDisposal(db, now))).toEqual(['dueIn29Days', 'dueIn31Days', 'dueInAnHour', 'justDue', 'longAgo']);
    // A limit takes the earliest first.
    expect(names(ids, await filesDueForDisposal(db, now, { limit: 1 }))).toEqual(['longAgo']);
  });

  it('moves years on the calendar, 29 February landing on the 28th', () => {
    expect(shiftYears(new Date('2024-02-29T15:00:00Z'), 3).toISOString()).toBe('2027-02-28T15:00:00.000Z');
    expect(shiftYears(new Date('2028-02-29T15:00:00Z'), -3).toISOString()).toBe('2025-02-28T15:00:00.000Z');
    expect(shiftYears(new Date('2026-12-31T23:30:00Z'), 3).toISOString()).toBe('2029-12-31T23:30:00.000Z');
  });

  it('holds the rule itself on a request closed on 29 February', async () => {
    const db = getDb(env.DB);
    const ids = await scene({ leap: new Date('2024-02-29T12:00:00Z') });
    expect(names(ids, await filesDueForDisposal(db, new Date('2027-02-28T11:59:59Z')))).toEqual([]);
    expect(names(ids, await filesDueForDisposal(db, new Date('2027-02-28T12:00:00Z')))).toEqual(['leap']);
  });
});

