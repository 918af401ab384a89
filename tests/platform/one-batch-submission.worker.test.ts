import { env } from 'cloudflare:test';
import { describe, expect, it, vi } from 'vitest';
import { firm } from '#core/content/firm';
import { zonedDateTime } from '#core/firm-time';
import { BOOKING_MESSAGES } from '#core/schemas/appointments';
import { AVAILABILITY_MESSAGES } from '../../worker/services/appointments/availability';
import { DAILY_CAP_MESSAGE, IP_LIMIT_MESSAGE } from '../../worker/services/limits/submission-limits';
import { OPEN_BOOKINGS_MESSAGE } from '../../worker/services/appointments/open-bookings';
import { newSessionId, postChat } from '../harness/worker/chat-helpers';
import { bookingRequest, callWithEnv, nextWeekday } from '../harness/worker/submission-helpers';

// A visitor's form is stored in ONE D1 call (worker/services/limits/submission-limits.ts
// storeSubmission, through worker/db/one-call-write.ts): the per-network claim, the daily claim,
// today's submitter record, the row and its e-mails queued in the outbox, each statement only when
// the one before it changed a row.

/** The real D1 binding, counting the calls that reach the database (the binding boundary). */
function countingDb(failBatches = new Set<number>()) {
  const calls: string[] = [];
  const real = env.DB;
  const statement = (s: D1PreparedStatement): D1PreparedStatement =>
    new Proxy(s, {
      get(target, key) {
        const value = Reflect.get(target, key);
        if (key === 'bind') return (...args: unknown[]) => statement(target.bind(...args));
        if (key === 'first' || key === 'run' || key === 'all' || key === 'raw')
          return (...args: unknown[]) => {
            calls.push(String(key));
            return (value as (...a: unknown[]) => unknown).apply(target, args);
          };
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  const db = new Proxy(real, {
    get(target, key) {
      if (key === 'prepare') return (query: string) => statement(target.prepare(query));
      if (key === 'batch')
        return (statements: D1PreparedStatement[]) => {
          calls.push(`batch(${statements.length})`);
          if (failBatches.has(calls.length)) return Promise.reject(new Error('D1_ERROR: simulated outage'));
          // The proxies wrap real statements: hand D1 the real ones.
          return target.batch(statements.map((s) => (s as unknown as { valueOf(): D1PreparedStatement }).valueOf()));
        };
      const value = Reflect.get(target, key);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { db, calls };
}

const contact = { name: 'Ora Batch', email: 'ora@example.com', phone: '', message: 'Can you help with a late 1099?' };
const rows = async (sql: string) => (await env.DB.prepare(sql).all<Record<string, unknown>>()).results;
const count = async (table: string) => (await env.DB.prepare(`SELECT count(*) AS n FROM ${table}`).first<{ n: number }>())!.n;

/**
 * The booking `id`'s two e-mails are in the outbox: the visitor's confirmation with its cancel link
 * and the firm's notification naming the stored row's numeric id (put in by the batch, no stand-in
 * left); the day's booking and unverified-mail counters each claimed once.
 */
async function expectBothBookingEmailsQueued(id: number) {
  const log = await rows('SELECT kind, status, subject, text_body, html_body FROM email_log ORDER BY kind');
  expect(log.map((r) => [r.kind, r.status])).toEqual([
    ['appointment-confirmation', 'stored'],
    ['appointment-notification', 'stored'],
  ]);
  expect(log[0].text_body).toContain('/appointment/cancel?token=');
  // The firm's notification names the booking by its service, time and visitor, as the admin's list shows it.
  const [stored] = await rows(`SELECT service_type, date, time_slot, name, email, phone FROM appointments WHERE id = ${id}`);
  expect(log[1].subject).toBe(`New appointment request: ${stored.service_type}, ${stored.date} ${stored.time_slot} ET, ${stored.name}`);
  expect(log[1].text_body).toMatch(
    new RegExp(
      `^New appointment request\\. Please confirm it with the visitor within 24 hours\\.\\n\\nService: ${stored.service_type}\\nWhen: [^\\n]+ at ${stored.time_slot} Eastern Time\\nName: ${stored.name}\\nEmail: ${stored.email}\\nPhone: ${stored.phone}\\n`,
    ),
  );
  expect(log[1].html_body).toContain('<p>New appointment request. Please confirm it with the visitor within 24 hours.</p>');
  expect(await rows('SELECT counter, count FROM daily_counters ORDER BY counter')).toEqual([
    { counter: 'booking', count: 1 },
    { counter: 'booking-confirmation-mail', count: 1 },
  ]);
}

/**
 * Under these limits: a contact message from the first address is stored (201, one row, one e-mail),
 * and the next one, from the second address, is refused with 429 and this message, storing no row
 * and no e-mail.
 */
async function storeOneThenRefuse(limits: Partial<typeof env>, [firstIp, secondIp]: [string, string], message: string) {
  expect((await callWithEnv(limits, '/api/contact', { body: contact, ip: firstIp })).status).toBe(201);
  const refused = await callWithEnv(limits, '/api/contact', { body: contact, ip: secondIp });
  expect(refused.status).toBe(429);
  expect(((await refused.json()) as { message: string }).message).toBe(message);
  expect(await count('contact_messages')).toBe(1);
  expect(await count('email_log')).toBe(1);
}

describe('a contact message in one D1 call', () => {
  it('stores the row, the submitter and the notification in one batch, and makes no other D1 call (the offline transport stores it there)', async () => {
    const { db, calls } = countingDb();
    const res = await callWithEnv({ DB: db }, '/api/contact', { body: contact, ip: '203.0.113.90' });
    expect(res.status).toBe(201);
    expect(calls).toEqual(['batch(5)']);
    expect(await count('contact_messages')).toBe(1);
    expect(await count('daily_submitters')).toBe(1);
  });

  it("the notification queued with the row is the message built from the visitor's fields as stored, naming it by them (no id)", async () => {
    await callWithEnv({}, '/api/contact', { body: { ...contact, message: 'The first question about my return.' }, ip: '203.0.113.91' });
    await callWithEnv({}, '/api/contact', { body: { ...contact, message: 'The second question about my return.' }, ip: '203.0.113.91' });
    const messages = await rows('SELECT name, email, message, message_id, created_at FROM contact_messages ORDER BY id');
    const log = await rows('SELECT reply_to, subject, text_body, html_body, headers, status FROM email_log ORDER BY id');
    expect(log).toHaveLength(2);
    for (const [i, entry] of log.entries()) {
      const m = messages[i];
      expect(entry.reply_to).toBe(m.email);
      expect(entry.subject).toBe(`New contact message from ${m.name}`);
      expect(entry.text_body).toBe(
        `A visitor sent a message through the contact form.\n\nName: ${m.name}\nEmail: ${m.email}\nPhone: (not given)\nReceived: ${zonedDateTime(new Date(Number(m.created_at)), firm.timeZone)}\nMessage: ${m.message}\n\nReply to this e-mail to answer ${m.email}.`,
      );
      expect(entry.html_body).toContain('<p>A visitor sent a message through the contact form.</p>');
      expect(JSON.parse(String(entry.headers))).toEqual({ 'Message-ID': m.message_id });
      expect(entry.status).toBe('stored');
    }
    // The second submission from the same network is recorded once for the day, and still stored.
    expect(await count('daily_submitters')).toBe(1);
  });

  it('a request the per-network window refuses writes no row, no log row and no submitter record', async () => {
    await storeOneThenRefuse({ SUBMISSIONS_PER_IP_PER_WINDOW: '1' }, ['203.0.113.92', '203.0.113.92'], IP_LIMIT_MESSAGE);
    expect(await rows("SELECT count FROM daily_counters WHERE counter = 'contact'")).toEqual([{ count: 1 }]);
  });

  it('a request the daily cap refuses keeps its window claim but writes no row, no log row and no submitter record', async () => {
    await storeOneThenRefuse({ DAILY_CONTACT_CAP: '1' }, ['203.0.113.93', '203.0.113.94'], DAILY_CAP_MESSAGE);
    expect(await count('daily_submitters')).toBe(1);
    // Both networks' attempts are counted in their windows.
    expect((await rows('SELECT count FROM submission_windows ORDER BY count')).map((r) => r.count)).toEqual([1, 1]);
  });
});

describe('a chat hand-off in one write', () => {
  it('marks the session with the id of the message the same batch stored', async () => {
    // An older message, so the hand-off's row is not the table's only one.
    await callWithEnv({}, '/api/contact', { body: contact, ip: '203.0.113.95' });
    const sessionId = newSessionId();
    expect((await postChat({ message: 'What are your office hours?', sessionId }, { env: { AI: undefined } })).status).toBe(200);
    const { db, calls } = countingDb();
    const res = await callWithEnv({ DB: db }, '/api/chat/handoff', { body: { sessionId, name: 'Ora Batch', email: 'ora@example.com', note: 'Call me.' }, ip: '203.0.113.96' });
    expect(res.status).toBe(201);
    // The conversation read (one batch of two selects), the write (led by the one-hand-off gate).
    expect(calls).toEqual(['batch(2)', 'batch(7)']);
    const [stored] = await rows("SELECT id FROM contact_messages WHERE message LIKE '%Call me.%'");
    expect(await rows(`SELECT contact_message_id FROM chat_sessions WHERE id = '${sessionId}'`)).toEqual([{ contact_message_id: stored.id }]);
    const [log] = await rows("SELECT text_body FROM email_log WHERE text_body LIKE '%chat assistant%'");
    expect(log.text_body).toMatch(/^A visitor asked to talk to a person from the chat assistant\.\n\nName: Ora Batch\nEmail: ora@example\.com\n/);
    expect(log.text_body).toContain('Call me.');
  });
});

describe('a booking whose slot is taken', () => {
  it('answers 409, keeps the window claim, gives the daily slot and the submitter record back and logs no e-mail', async () => {
    const date = nextWeekday();
    expect((await callWithEnv({}, '/api/appointments', { body: bookingRequest(date), ip: '203.0.113.97' })).status).toBe(201);
    const mailsBefore = await count('email_log');
    const taken = await callWithEnv({}, '/api/appointments', { body: bookingRequest(date, { email: 'other@example.com' }), ip: '203.0.113.98' });
    expect(taken.status).toBe(409);
    expect(((await taken.json()) as { message: string }).message).toBe(BOOKING_MESSAGES.taken);
    expect(await count('appointments')).toBe(1);
    expect(await count('email_log')).toBe(mailsBefore);
    expect(await rows("SELECT count FROM daily_counters WHERE counter = 'booking'")).toEqual([{ count: 1 }]);
    expect((await rows('SELECT count FROM submission_windows')).map((r) => r.count)).toEqual([1, 1]);
    // The refused network is not counted among today's submitters.
    expect(await count('daily_submitters')).toBe(1);
  });
});

describe('a booking in one D1 call before the answer', () => {
  const isoWeekday = (date: string) => ((new Date(`${date}T12:00:00Z`).getUTCDay() + 6) % 7) + 1;
  const nothingWritten = async () => {
    expect(await count('appointments')).toBe(0);
    expect(await count('email_log')).toBe(0);
    expect(await count('submission_windows')).toBe(0);
    expect(await count('daily_counters')).toBe(0);
    expect(await count('daily_submitters')).toBe(0);
  };
  const unverifiedMailCount = async () => (await rows("SELECT count FROM daily_counters WHERE counter = 'booking-confirmation-mail'"))[0]?.count ?? 0;

  it('judges the day, claims the limits, stores the row and logs both e-mails under the unverified-mail claim in one batch, and makes no other D1 call', async () => {
    const { db, calls } = countingDb();
    const res = await callWithEnv({ DB: db }, '/api/appointments', { body: bookingRequest(nextWeekday()), ip: '203.0.113.101' });
    expect(res.status).toBe(201);
    expect(calls).toEqual(['batch(10)']);
    const { id } = (await res.json()) as { id: number };
    await expectBothBookingEmailsQueued(id);
  });

  it('past the cap on mail to unverified addresses the booking stands and the same call logs only the firm notification', async () => {
    const cap = { BOOKING_CONFIRMATION_DAILY_CAP: '1' };
    const date = nextWeekday();
    expect((await callWithEnv(cap, '/api/appointments', { body: bookingRequest(date, { timeSlot: '9:00 AM' }), ip: '203.0.113.102' })).status).toBe(201);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const { db, calls } = countingDb();
      const res = await callWithEnv({ ...cap, DB: db }, '/api/appointments', { body: bookingRequest(date, { email: 'two@example.com' }), ip: '203.0.113.103' });
      expect(res.status).toBe(201);
      expect(calls).toEqual(['batch(10)']);
      const { id } = (await res.json()) as { id: number };
      expect(await rows(`SELECT email FROM appointments WHERE id = ${id}`)).toEqual([{ email: 'two@example.com' }]);
      expect(await rows("SELECT \"to\" FROM email_log WHERE kind = 'appointment-confirmation'")).toEqual([{ to: 'sam@example.com' }]);
      expect(await rows("SELECT count(*) AS n FROM email_log WHERE kind = 'appointment-notification' AND text_body LIKE '%Email: two@example.com%'")).toEqual([{ n: 1 }]);
      expect(await count('email_log')).toBe(3);
      expect(await unverifiedMailCount()).toBe(1);
      expect(warn.mock.calls.map((args) => args.map(String).join(' '))).toContainEqual(
        expect.stringContaining('[mail] appointment-confirmation to an unverified address skipped'),
      );
    } finally {
      warn.mockRestore();
    }
  });

  it('with the cap at 0 the booking stands with only the firm notification, and no claim is made', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const { db, calls } = countingDb();
      const res = await callWithEnv({ BOOKING_CONFIRMATION_DAILY_CAP: '0', DB: db }, '/api/appointments', { body: bookingRequest(nextWeekday()), ip: '203.0.113.108' });
      expect(res.status).toBe(201);
      expect(calls).toEqual(['batch(8)']);
      expect(await rows('SELECT kind FROM email_log')).toEqual([{ kind: 'appointment-notification' }]);
      expect(await unverifiedMailCount()).toBe(0);
    } finally {
      warn.mockRestore();
    }
  });

  it('a booking the open-bookings recheck takes back logs no e-mail and leaves the unverified-mail count as it was', async () => {
    const one = { OPEN_BOOKINGS_PER_EMAIL: '1' };
    const date = nextWeekday();
    expect((await callWithEnv(one, '/api/appointments', { body: bookingRequest(date, { timeSlot: '9:00 AM' }), ip: '203.0.113.109' })).status).toBe(201);
    const mailsBefore = await count('email_log');
    const countBefore = await unverifiedMailCount();
    expect(countBefore).toBe(1);
    const { db, calls } = countingDb();
    const refused = await callWithEnv({ ...one, DB: db }, '/api/appointments', { body: bookingRequest(date), ip: '203.0.113.110' });
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { message: string }).message).toBe(OPEN_BOOKINGS_MESSAGE);
    // The write, then the daily slot and this new network's submitter record given back (as for a taken slot).
    expect(calls).toEqual(['batch(10)', 'batch(2)']);
    expect(await count('appointments')).toBe(1);
    expect(await count('email_log')).toBe(mailsBefore);
    expect(await unverifiedMailCount()).toBe(countBefore);
  });

  it('a booking whose slot is taken logs no e-mail and leaves the unverified-mail count as it was', async () => {
    const date = nextWeekday();
    expect((await callWithEnv({}, '/api/appointments', { body: bookingRequest(date), ip: '203.0.113.111' })).status).toBe(201);
    const mailsBefore = await count('email_log');
    const { db, calls } = countingDb();
    const taken = await callWithEnv({ DB: db }, '/api/appointments', { body: bookingRequest(date, { email: 'other@example.com' }), ip: '203.0.113.112' });
    expect(taken.status).toBe(409);
    expect(calls).toEqual(['batch(10)', 'batch(2)']);
    expect(await count('appointments')).toBe(1);
    expect(await count('email_log')).toBe(mailsBefore);
    expect(await unverifiedMailCount()).toBe(1);
  });

  it('when the write batch fails, the same write is made again without the per-network claim: both e-mails are queued and sent, nothing lost', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const { db, calls } = countingDb(new Set([1]));
      const res = await callWithEnv({ DB: db }, '/api/appointments', { body: bookingRequest(nextWeekday()), ip: '203.0.113.113' });
      expect(res.status).toBe(201);
      const { id } = (await res.json()) as { id: number };
      // The failed batch; the same write without the window claim.
      expect(calls).toEqual(['batch(10)', 'batch(9)']);
      await expectBothBookingEmailsQueued(id);
      expect(await count('daily_submitters')).toBe(1);
      expect(await count('submission_windows')).toBe(0);
    } finally {
      error.mockRestore();
    }
  });

  it('when the retry fails too, the booking is stored without its e-mails (reported), never lost', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const { db, calls } = countingDb(new Set([1, 2]));
      const res = await callWithEnv({ DB: db }, '/api/appointments', { body: bookingRequest(nextWeekday()), ip: '203.0.113.107' });
      expect(res.status).toBe(201);
      expect(calls).toEqual(['batch(10)', 'batch(9)', 'batch(6)']);
      expect(await count('appointments')).toBe(1);
      expect(await count('email_log')).toBe(0);
      expect(await unverifiedMailCount()).toBe(0);
      expect(await rows("SELECT counter, count FROM daily_counters ORDER BY counter")).toEqual([{ counter: 'booking', count: 1 }]);
      expect(error.mock.calls.map((args) => args.map(String).join(' '))).toContainEqual(expect.stringContaining('E-mail not logged, not sent'));
    } finally {
      error.mockRestore();
    }
  });

  it('a blocked date is refused in that batch before any claim: 409, nothing counted, stored or logged', async () => {
    const date = nextWeekday();
    await env.DB.prepare("INSERT INTO blocked_dates (date, reason, created_at) VALUES (?1, 'Office closed', 0)").bind(date).run();
    const { db, calls } = countingDb();
    const res = await callWithEnv({ DB: db }, '/api/appointments', { body: bookingRequest(date), ip: '203.0.113.104' });
    expect(res.status).toBe(409);
    expect(((await res.json()) as { message: string }).message).toBe(AVAILABILITY_MESSAGES.closed);
    expect(calls).toEqual(['batch(10)']);
    await nothingWritten();
  });

  it('a slot the weekday does not offer is refused the same way, with its own message', async () => {
    const date = nextWeekday();
    await env.DB.prepare("DELETE FROM weekday_slots WHERE weekday = ?1 AND time_slot = '10:00 AM'").bind(isoWeekday(date)).run();
    const res = await callWithEnv({}, '/api/appointments', { body: bookingRequest(date), ip: '203.0.113.105' });
    expect(res.status).toBe(409);
    expect(((await res.json()) as { message: string }).message).toBe(AVAILABILITY_MESSAGES.notOffered);
    await nothingWritten();
    // Another slot of that day is still offered and booked.
    expect((await callWithEnv({}, '/api/appointments', { body: bookingRequest(date, { timeSlot: '11:00 AM' }), ip: '203.0.113.105' })).status).toBe(201);
  });

  it('a booking the per-network window refuses stores no row and logs no e-mail', async () => {
    const limited = { SUBMISSIONS_PER_IP_PER_WINDOW: '1' };
    const date = nextWeekday();
    expect((await callWithEnv(limited, '/api/appointments', { body: bookingRequest(date, { timeSlot: '9:00 AM' }), ip: '203.0.113.106' })).status).toBe(201);
    const mailsBefore = await count('email_log');
    const refused = await callWithEnv(limited, '/api/appointments', { body: bookingRequest(date, { email: 'other@example.com' }), ip: '203.0.113.106' });
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { message: string }).message).toBe(IP_LIMIT_MESSAGE);
    expect(await count('appointments')).toBe(1);
    expect(await count('email_log')).toBe(mailsBefore);
    expect(await rows("SELECT count FROM daily_counters WHERE counter = 'booking-confirmation-mail'")).toEqual([{ count: 1 }]);
  });
});
