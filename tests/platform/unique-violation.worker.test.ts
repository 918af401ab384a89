import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { getDb } from '../../worker/db/client';
import { appointments, newsletterSubscriptions } from '../../worker/db/schema';
import { isUniqueViolation } from '../../worker/db/unique-violation';
import { nextWeekday } from '../harness/worker/submission-helpers';

/** The error D1 (through Drizzle) raises for `write`, or null when it succeeds. */
async function errorOf(write: Promise<unknown>): Promise<unknown> {
  return write.then(
    () => null,
    (error: unknown) => error,
  );
}

const slot = { name: 'A', email: 'a@example.com', serviceType: 'Tax Planning Consultation', date: nextWeekday(9), timeSlot: '1:00 PM' };

describe('isUniqueViolation: the one reader of D1 constraint errors (worker/db/unique-violation.ts)', () => {
  it("recognises the active-slot index's refusal by its columns, through Drizzle's wrapping", async () => {
    const db = getDb(env.DB);
    await db.insert(appointments).values(slot);
    const error = await errorOf(db.insert(appointments).values({ ...slot, email: 'b@example.com' }));
    expect(error).toBeInstanceOf(Error);
    expect(isUniqueViolation(error, [appointments.date, appointments.timeSlot])).toBe(true);
    // Another index's columns, a subset, or another order are not this refusal.
    expect(isUniqueViolation(error, [newsletterSubscriptions.email])).toBe(false);
    expect(isUniqueViolation(error, [appointments.date])).toBe(false);
    expect(isUniqueViolation(error, [appointments.timeSlot, appointments.date])).toBe(false);
  });

  it("tells another table's UNIQUE index apart, and ignores other failures", async () => {
    const db = getDb(env.DB);
    await db.insert(newsletterSubscriptions).values({ email: 'twice@example.com' });
    const duplicate = await errorOf(db.insert(newsletterSubscriptions).values({ email: 'twice@example.com' }));
    expect(isUniqueViolation(duplicate, [newsletterSubscriptions.email])).toBe(true);
    expect(isUniqueViolation(duplicate, [appointments.date, appointments.timeSlot])).toBe(false);

    const notNull = await errorOf(env.DB.prepare('INSERT INTO appointments (name) VALUES (?)').bind('x').run());
    expect(notNull).toBeInstanceOf(Error);
    expect(isUniqueViolation(notNull, [appointments.date, appointments.timeSlot])).toBe(false);
    expect(isUniqueViolation('UNIQUE constraint failed: appointments.date, appointments.time_slot', [appointments.date, appointments.timeSlot])).toBe(false);
    expect(isUniqueViolation(null, [appointments.date, appointments.timeSlot])).toBe(false);
  });
});
