import { env } from 'cloudflare:test';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { builtOnce, slot } from '../../worker/db/built-once';
import { getDb } from '../../worker/db/client';
import { mixedBatch } from '../../worker/db/granted-batch';
import { contactMessages } from '../../worker/db/schema';

// worker/db/built-once.ts: a query's SQL is built on its first use in the isolate; every use binds
// its own values, through the columns' encoders, and maps its rows back as Drizzle does.

describe('builtOnce', () => {
  it('builds the SQL once and binds each use’s own values', async () => {
    const db = getDb(env.DB);
    let builds = 0;
    const insert = (values: { name: string; createdAt: Date }) =>
      builtOnce(
        'test:contact-insert',
        () => {
          builds++;
          return db
            .insert(contactMessages)
            .values({ name: slot('name'), email: 'same@example.com', message: 'Hello', createdAt: slot('createdAt') })
            .returning({ id: contactMessages.id, name: contactMessages.name, createdAt: contactMessages.createdAt });
        },
        values,
      );
    const first = new Date('2026-01-02T03:04:05.678Z');
    const second = new Date('2026-02-03T04:05:06.789Z');
    const [a, b] = (await mixedBatch(env.DB, [insert({ name: 'Ada', createdAt: first }), insert({ name: 'Bo', createdAt: second })])) as { id: number; name: string; createdAt: Date }[][];
    expect(builds).toBe(1);
    // Rows mapped back (a timestamp column is a Date again), each with its own values.
    expect(a[0]).toMatchObject({ name: 'Ada', createdAt: first });
    expect(b[0]).toMatchObject({ name: 'Bo', createdAt: second });
    const stored = await db.select().from(contactMessages).where(eq(contactMessages.id, b[0].id));
    // The timestamp went through the column's encoder: stored as milliseconds.
    expect(stored[0].createdAt.getTime()).toBe(second.getTime());
  });

  it('refuses a use that leaves a placeholder without its value', () => {
    const db = getDb(env.DB);
    const build = () => db.select().from(contactMessages).where(eq(contactMessages.email, slot('email')));
    expect(() => builtOnce('test:by-email', build, {})).toThrow(/No value for placeholder "email"/);
  });
});
