import { and, asc, type Column, desc, eq, gte, isNotNull, lt, lte, ne, or, sql, type SQL } from 'drizzle-orm';
import { bookingTimeSlots } from '#core/content/booking';
import { LIST_PAGE_SIZE } from '#core/schemas/admin-list';
import type { AppointmentListQuery } from '#core/schemas/appointments';
import { likePattern, pageOffset } from '../platform/list-page';
import type { Db } from '../../db/client';
import { appointments, type AppointmentStatus } from '../../db/schema';
import { isUniqueViolation } from '../../db/unique-violation';

// The appointments table as the booking answer, the admin list and the admin's status change read
// and write it. The visitor's booking itself is written by storeSubmission
// (worker/services/limits/submission-limits.ts); the visitor's cancel and move by changes.ts.

export type AppointmentRow = typeof appointments.$inferSelect;

/** True when the partial UNIQUE index over active bookings (appointments_active_slot_uq) refused a row. */
export const isSlotTaken = (error: unknown) => isUniqueViolation(error, [appointments.date, appointments.timeSlot]);

// A request without a time (null) comes first in its day: it still needs the admin to pick one.
export const slotOrder = (slot: string | null) => (slot === null ? -1 : (bookingTimeSlots as readonly string[]).indexOf(slot));

// Past appointments shown below the upcoming ones.
const PAST_LIMIT = 500;

/** The slots of `date` an active (requested or confirmed) booking holds. */
export async function takenSlots(db: Db, date: string): Promise<Set<string>> {
  const rows = await db
    .select({ timeSlot: appointments.timeSlot })
    .from(appointments)
    .where(and(eq(appointments.date, date), ne(appointments.status, 'cancelled')));
  return new Set(rows.map((row) => row.timeSlot).filter((slot) => slot !== null));
}

/** The taken slots of every day from `from` to `to` (YYYY-MM-DD, inclusive), by day: one read on appointments_date_idx. */
export async function takenSlotsBetween(db: Db, from: string, to: string): Promise<Map<string, Set<string>>> {
  const rows = await db
    .select({ date: appointments.date, timeSlot: appointments.timeSlot })
    .from(appointments)
    .where(and(gte(appointments.date, from), lte(appointments.date, to), ne(appointments.status, 'cancelled'), isNotNull(appointments.timeSlot)));
  const byDay = new Map<string, Set<string>>();
  for (const row of rows) byDay.set(row.date, (byDay.get(row.date) ?? new Set()).add(row.timeSlot!));
  return byDay;
}

/** The admin's list: upcoming (from `today`, soonest first), then past (most recent first, at most 500). */
export async function listAppointments(db: Db, today: string): Promise<AppointmentRow[]> {
  const [upcoming, past] = await Promise.all([
    db.select().from(appointments).where(gte(appointments.date, today)).orderBy(asc(appointments.date), asc(appointments.id)),
    db.select().from(appointments).where(lt(appointments.date, today)).orderBy(desc(appointments.date), desc(appointments.id)).limit(PAST_LIMIT),
  ]);
  // Slot labels ('9:00 AM', '10:00 AM') do not sort as text; order within a day by the slot list.
  upcoming.sort((a, b) => a.date.localeCompare(b.date) || slotOrder(a.timeSlot) - slotOrder(b.timeSlot) || a.id - b.id);
  past.sort((a, b) => b.date.localeCompare(a.date) || slotOrder(b.timeSlot) - slotOrder(a.timeSlot) || b.id - a.id);
  return [...upcoming, ...past];
}

// The slot's place in the day in SQL, as slotOrder has it (a request without a time first).
const slotIndex = sql`(case ${appointments.timeSlot} ${sql.join(
  bookingTimeSlots.map((slot, i) => sql`when ${slot} then ${i}`),
  sql` `,
)} else -1 end)`;

/** What the admin list's search narrows to, but for `when` (core/schemas/appointments.ts appointmentListQuerySchema). */
function appointmentConditions(query: AppointmentListQuery): SQL[] {
  const conditions: SQL[] = [];
  if (query.q) {
    const pattern = likePattern(query.q);
    const like = (column: Column) => sql`${column} LIKE ${pattern} ESCAPE '\\'`;
    conditions.push(or(like(appointments.name), like(appointments.email), like(appointments.phone), like(appointments.notes), like(appointments.serviceType))!);
  }
  if (query.status) conditions.push(eq(appointments.status, query.status));
  // The appointment's day is a calendar day of the firm already: compared as text (YYYY-MM-DD).
  if (query.from) conditions.push(gte(appointments.date, query.from));
  if (query.to) conditions.push(lte(appointments.date, query.to));
  return conditions;
}

/** One page of the admin list's search and its figures. */
export interface AppointmentPage {
  rows: AppointmentRow[];
  /** The rows the search matches in the view asked for (`when`). */
  total: number;
  /** The rows the search matches from `today` on, and before it (whatever `when` is). */
  upcoming: number;
  past: number;
  /** Requests from `today` on still waiting for the firm, whatever is searched (the header's badge). */
  awaiting: number;
}

/**
 * The admin list's search (docs/product.md §6.2): upcoming (from `today`, soonest first, by slot
 * within a day), then past (most recent first), LIST_PAGE_SIZE a page; `when` keeps one side only.
 */
export async function searchAppointments(db: Db, query: AppointmentListQuery, today: string): Promise<AppointmentPage> {
  const matching = appointmentConditions(query);
  const view = [...matching];
  if (query.when === 'upcoming') view.push(gte(appointments.date, today));
  if (query.when === 'past') view.push(lt(appointments.date, today));
  const isPast = sql`(${appointments.date} < ${today})`;
  const [rows, [figures], [awaiting]] = await db.batch([
    db
      .select()
      .from(appointments)
      .where(and(...view))
      .orderBy(
        isPast,
        sql`case when ${isPast} then null else ${appointments.date} end`,
        sql`case when ${isPast} then null else ${slotIndex} end`,
        sql`case when ${isPast} then null else ${appointments.id} end`,
        desc(appointments.date),
        sql`${slotIndex} desc`,
        desc(appointments.id),
      )
      .limit(LIST_PAGE_SIZE)
      .offset(pageOffset(query.page)),
    db
      .select({
        upcoming: sql<number>`coalesce(sum(${appointments.date} >= ${today}), 0)`,
        past: sql<number>`coalesce(sum(${appointments.date} < ${today}), 0)`,
      })
      .from(appointments)
      .where(and(...matching)),
    db
      .select({ count: sql<number>`count(*)` })
      .from(appointments)
      .where(and(eq(appointments.status, 'requested'), gte(appointments.date, today))),
  ]);
  const total = query.when === 'upcoming' ? figures.upcoming : query.when === 'past' ? figures.past : figures.upcoming + figures.past;
  return { rows, total, upcoming: figures.upcoming, past: figures.past, awaiting: awaiting.count };
}

export async function findAppointment(db: Db, id: number): Promise<AppointmentRow | undefined> {
  return db.query.appointments.findFirst({ where: eq(appointments.id, id) });
}

/**
 * The admin's status change, with the slot picked for a request without a time (or null to keep
 * the row's). Every change bumps the invite's SEQUENCE (and so voids the visitor's older links).
 * The picked slot is taken in the same statement: the UNIQUE index refuses it if someone has it
 * (isSlotTaken tells that error). The changed row, or undefined when there is none with that id.
 */
export async function setAppointmentStatus(db: Db, id: number, status: AppointmentStatus, pickedSlot: string | null): Promise<AppointmentRow | undefined> {
  const [updated] = await db
    .update(appointments)
    .set({ status, ...(pickedSlot !== null ? { timeSlot: pickedSlot } : {}), sequence: sql`${appointments.sequence} + 1`, updatedAt: new Date() })
    .where(eq(appointments.id, id))
    .returning();
  return updated;
}
