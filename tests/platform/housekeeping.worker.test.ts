import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { countingD1 } from '../../worker/services/platform/d1-call-count';
import { getDb } from '../../worker/db/client';
import { cronTable } from '../../worker/cron';
import { DELIVERY_EVENT_RETENTION_DAYS } from '../../worker/services/newsletter/list-hygiene';
import { cronTick } from '../harness/worker/helpers';

const DAY = 24 * 60 * 60 * 1000;

describe('cron housekeeping', () => {
  it(`forgets delivery-event keys after ${DELIVERY_EVENT_RETENTION_DAYS} days and keeps recent ones`, async () => {
    const now = Date.now();
    await env.DB.batch([
      env.DB.prepare("INSERT INTO delivery_events (event_key, event, created_at) VALUES ('old', 'delivered', ?)").bind(now - (DELIVERY_EVENT_RETENTION_DAYS + 1) * DAY),
      env.DB.prepare("INSERT INTO delivery_events (event_key, event, created_at) VALUES ('recent', 'delivered', ?)").bind(now - DAY),
    ]);
    await cronTick(now);
    const { results } = await env.DB.prepare('SELECT event_key FROM delivery_events ORDER BY event_key').all<{ event_key: string }>();
    expect(results.map((r) => r.event_key)).toEqual(['recent']);
  });

  it('costs one D1 call however much it cleans', async () => {
    const now = Date.now();
    await env.DB.batch([
      env.DB.prepare("INSERT INTO chat_sessions (id, started_at, last_activity_at, message_count, first_question) VALUES ('11111111-1111-4111-8111-111111111111', 1, 1, 2, 'q')"),
      env.DB.prepare("INSERT INTO chat_messages (role, content, session_id, created_at) VALUES ('user', 'q', '11111111-1111-4111-8111-111111111111', 1)"),
      env.DB.prepare("INSERT INTO newsletter_subscriptions (email, active, subscription_date) VALUES ('stale@example.com', 'false', 1)"),
    ]);
    const d1 = countingD1(env.DB);
    const housekeeping = cronTable[0];
    expect(housekeeping.name).toBe('Housekeeping');
    const report = await housekeeping.run({ env, db: getDb(d1.db), at: new Date(now), room: 50, d1Calls: d1.calls });
    expect(report).toEqual({ subrequests: 1, didWork: true, chatConversations: 1, staleSignUps: 1 });
    expect(d1.calls()).toBe(1);
  });
});
