import { and, count, desc, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import { LIST_PAGE_SIZE, type ListPage } from '#core/schemas/admin-list';
import type { SubscriberListQuery } from '#core/schemas/newsletter';
import type { Db } from '../../db/client';
import { newsletterSubscriptions as subs } from '../../db/schema';
import { firmDayRange, likePattern, pageOffset } from '../platform/list-page';

// The subscriber screen's list (docs/product.md §6.3): searched, filtered and paged in D1, so the
// screen reads 50 rows and three counts whatever the size of the list (10,000 rows: bench:load).

/** Recent means subscribed within this many days (docs/product.md §6.3). */
export const RECENT_SUBSCRIBER_DAYS = 30;

/** A newsletter_subscriptions row as read. */
export type SubscriptionRow = typeof subs.$inferSelect;

export type SubscriberStatus = 'active' | 'pending' | 'unsubscribed' | 'bounced' | 'complained';

export function subscriberStatus(row: Pick<SubscriptionRow, 'active' | 'unsubscribedAt' | 'suppressionReason'>): SubscriberStatus {
  if (row.active === 'true') return 'active';
  if (row.suppressionReason) return row.suppressionReason;
  return row.unsubscribedAt ? 'unsubscribed' : 'pending';
}

/** The admin's view of a subscriber (docs/product.md §11). */
export function toSubscriber(row: SubscriptionRow) {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    subscriptionDate: row.subscriptionDate.toISOString(),
    active: row.active,
    status: subscriberStatus(row),
    suppressionReason: row.suppressionReason,
    suppressionDetail: row.suppressionDetail,
    suppressedAt: row.suppressedAt ? row.suppressedAt.toISOString() : null,
  };
}

export async function listSubscribers(db: Db) {
  const rows = await db.select().from(subs).orderBy(desc(subs.subscriptionDate), desc(subs.id));
  return rows.map(toSubscriber);
}

export type Subscriber = ReturnType<typeof toSubscriber>;

function subscriberListConditions(query: SubscriberListQuery, timeZone: string): SQL | undefined {
  const where: (SQL | undefined)[] = [];
  if (query.q) {
    // The pattern escapes the text's own % _ and \ (platform/list-page.ts); LIKE ignores ASCII case.
    const pattern = likePattern(query.q);
    where.push(sql`(${subs.email} LIKE ${pattern} ESCAPE '\\' OR ${subs.name} LIKE ${pattern} ESCAPE '\\')`);
  }
  // Active is the flag sending reads; a suppressed or pending address is 'false', so Inactive.
  if (query.status) where.push(eq(subs.active, query.status === 'active' ? 'true' : 'false'));
  const { start, end } = firmDayRange(query.from, query.to, timeZone);
  if (start) where.push(gte(subs.subscriptionDate, start));
  if (end) where.push(lt(subs.subscriptionDate, end));
  return and(...where);
}

/** One page of the subscribers matching the query, newest subscription first, and how many match in all. */
export async function searchSubscribers(db: Db, query: SubscriberListQuery, timeZone: string): Promise<ListPage<Subscriber>> {
  const where = subscriberListConditions(query, timeZone);
  const [rows, [{ total }]] = await db.batch([
    db
      .select()
      .from(subs)
      .where(where)
      .orderBy(desc(subs.subscriptionDate), desc(subs.id))
      .limit(LIST_PAGE_SIZE)
      .offset(pageOffset(query.page)),
    db.select({ total: count() }).from(subs).where(where),
  ]);
  return { items: rows.map(toSubscriber), total, page: query.page, pageSize: LIST_PAGE_SIZE };
}

/** The three statistic cards of docs/product.md §6.3, counted by D1 in one statement. */
export async function subscriberCounts(db: Db, now = new Date()): Promise<{ total: number; active: number; recent: number }> {
  const since = new Date(now.getTime() - RECENT_SUBSCRIBER_DAYS * 24 * 60 * 60 * 1000);
  const [row] = await db
    .select({
      total: count(),
      active: sql<number>`coalesce(sum(${subs.active} = 'true'), 0)`.mapWith(Number),
      recent: sql<number>`coalesce(sum(${subs.subscriptionDate} >= ${since.getTime()}), 0)`.mapWith(Number),
    })
    .from(subs);
  return { total: row.total, active: row.active, recent: row.recent };
}
