import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { defaultContent } from '#core/content/default-content';
import { bookingTimeSlots } from '#core/content/booking';
import { firm } from '#core/content/firm';
import worker from '../../worker/index';
import { hashIp, networkOf, UNKNOWN_NETWORK } from '../../worker/services/limits/client-ip';
import { claimUnverifiedMail } from '../../worker/services/limits/daily-counters';
import { OPEN_BOOKINGS_MESSAGE } from '../../worker/services/appointments/open-bookings';
import { fakeAi, newSessionId, postChat, storedTurns } from '../harness/worker/chat-helpers';
import { ORIGIN } from '../harness/worker/helpers';
import { bookingRequest, callWithEnv, nextWeekday, visitorIp } from '../harness/worker/submission-helpers';

// Limits an attacker cannot turn against the firm (docs/product.md §8, docs/decisions/0006).

const contact = { name: 'Jane Visitor', email: 'jane@example.com', message: 'I need help with my 2025 return.' };
const date = nextWeekday(7);
const slots = bookingTimeSlots;
const countRows = async (table: string) => (await env.DB.prepare(`SELECT count(*) AS n FROM ${table}`).first<{ n: number }>())!.n;

/** POST /api/contact with exactly these headers (no default CF-Connecting-IP). */
async function contactWithHeaders(headers: Record<string, string>, overrides: Partial<typeof env> = {}): Promise<Response> {
  const ctx = createExecutionContext();
  const res = await worker.fetch(
    new Request(`${ORIGIN}/api/contact`, { method: 'POST', headers: { 'content-type': 'application/json', origin: ORIGIN, ...headers }, body: JSON.stringify(contact) }),
    { ...env, ...overrides },
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return res;
}

let warn: MockInstance<typeof console.warn>;
beforeEach(() => {
  warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('per-network buckets (CF-Connecting-IP only; IPv4 address, IPv6 /64)', () => {
  it.each([
    ['192.0.2.7', '192.0.2.7'],
    ['2001:db8:1:2::1', '2001:db8:1:2::/64'],
    ['2001:0DB8:0001:0002:ffff:1:2:3', '2001:db8:1:2::/64'],
    ['2001:db8:1:3::1', '2001:db8:1:3::/64'],
    ['::ffff:192.0.2.7', '192.0.2.7'],
    ['::1', '0:0:0:0::/64'],
    [undefined, UNKNOWN_NETWORK],
    ['not an address', UNKNOWN_NETWORK],
    ['1:2:3:4:5:6:7:8:9', UNKNOWN_NETWORK],
  ])('keys IPv4 by the address and IPv6 by its /64, in any spelling: %j', (input, expected) => {
    expect(networkOf(input)).toBe(expected);
  });

  it('two addresses in one /64 share a bucket; another /64 has its own', async () => {
    const one = { SUBMISSIONS_PER_IP_PER_WINDOW: '1' };
    expect((await callWithEnv(one, '/api/contact', { body: contact, ip: '2001:db8:aa:1::1' })).status).toBe(201);
    const sameNetwork = await callWithEnv(one, '/api/contact', { body: contact, ip: '2001:db8:aa:1:dead:beef:0:2' });
    expect(sameNetwork.status).toBe(429);
    expect(((await sameNetwork.json()) as { message: string }).message).toMatch(/Too many submissions/);
    expect((await callWithEnv(one, '/api/contact', { body: contact, ip: '2001:db8:aa:2::1' })).status).toBe(201);
    expect(await countRows('contact_messages')).toBe(2);
    const { results } = await env.DB.prepare('SELECT ip_hash FROM submission_windows ORDER BY ip_hash').all<{ ip_hash: string }>();
    expect(results.map((r) => r.ip_hash).sort()).toEqual(
      [await hashIp('2001:db8:aa:1::/64', env.JWT_SECRET), await hashIp('2001:db8:aa:2::/64', env.JWT_SECRET)].sort(),
    );
  });

  it('ignores X-Real-IP and X-Forwarded-For: without CF-Connecting-IP every request shares one bucket', async () => {
    const one = { SUBMISSIONS_PER_IP_PER_WINDOW: '1' };
    expect((await contactWithHeaders({ 'x-real-ip': '192.0.2.1', 'x-forwarded-for': '192.0.2.1' }, one)).status).toBe(201);
    expect((await contactWithHeaders({ 'x-real-ip': '192.0.2.2', 'x-forwarded-for': '192.0.2.2' }, one)).status).toBe(429);
    // X-Real-IP cannot move a visitor with CF-Connecting-IP into another bucket either.
    expect((await contactWithHeaders({ 'cf-connecting-ip': '198.51.100.9', 'x-real-ip': '192.0.2.3' }, one)).status).toBe(201);
    expect((await contactWithHeaders({ 'cf-connecting-ip': '198.51.100.9', 'x-real-ip': '192.0.2.4' }, one)).status).toBe(429);
    const { results } = await env.DB.prepare('SELECT ip_hash FROM submission_windows').all<{ ip_hash: string }>();
    expect(results.map((r) => r.ip_hash).sort()).toEqual(
      [await hashIp(UNKNOWN_NETWORK, env.JWT_SECRET), await hashIp('198.51.100.9', env.JWT_SECRET)].sort(),
    );
  });
});

describe('open bookings per e-mail address and per network', () => {
  it('a parallel burst from one address gets exactly OPEN_BOOKINGS_PER_EMAIL (2) requests; the rest 429 naming the phone', async () => {
    const responses = await Promise.all(
      slots.map((timeSlot, i) => callWithEnv({}, '/api/appointments', { body: bookingRequest(date, { timeSlot, email: i % 2 ? 'Squat@Example.com' : 'squat@example.com' }), ip: visitorIp(i) })),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(2);
    expect(statuses.filter((s) => s === 429)).toHaveLength(5);
    const refused = responses.find((r) => r.status === 429)!;
    expect(refused.headers.get('retry-after')).toBeNull();
    const { message } = (await refused.json()) as { message: string };
    expect(message).toBe(OPEN_BOOKINGS_MESSAGE);
    expect(message).toContain(firm.contact.phone);
    expect(await countRows('appointments')).toBe(2);
    // The refused ones gave their daily slot back.
    expect(await env.DB.prepare("SELECT count FROM daily_counters WHERE counter = 'booking'").first()).toEqual({ count: 2 });
  }, 30_000);

  it('a parallel burst from one network with different addresses gets exactly OPEN_BOOKINGS_PER_NETWORK (3)', async () => {
    const responses = await Promise.all(
      slots.map((timeSlot, i) =>
        callWithEnv({ SUBMISSIONS_PER_IP_PER_WINDOW: '100' }, '/api/appointments', { body: bookingRequest(date, { timeSlot, email: `visitor${i}@example.com` }), ip: `2001:db8:77:1::${i + 1}` }),
      ),
    );
    expect(responses.map((r) => r.status).filter((s) => s === 201)).toHaveLength(3);
    expect(responses.map((r) => r.status).filter((s) => s === 429)).toHaveLength(4);
    expect(await countRows('appointments')).toBe(3);
  }, 30_000);

  it('counts only open requests: once one is confirmed or cancelled, the address may book again', async () => {
    const first = (await (await callWithEnv({}, '/api/appointments', { body: bookingRequest(date, { timeSlot: '9:00 AM' }), ip: visitorIp(1) })).json()) as { id: number };
    expect((await callWithEnv({}, '/api/appointments', { body: bookingRequest(date, { timeSlot: '10:00 AM' }), ip: visitorIp(2) })).status).toBe(201);
    expect((await callWithEnv({}, '/api/appointments', { body: bookingRequest(date, { timeSlot: '11:00 AM' }), ip: visitorIp(3) })).status).toBe(429);
    await env.DB.prepare("UPDATE appointments SET status = 'confirmed' WHERE id = ?").bind(first.id).run();
    expect((await callWithEnv({}, '/api/appointments', { body: bookingRequest(date, { timeSlot: '11:00 AM' }), ip: visitorIp(4) })).status).toBe(201);
    // A request for a day that has passed is not open either.
    await env.DB.prepare("UPDATE appointments SET date = '2025-01-06' WHERE time_slot = '10:00 AM'").run();
    expect((await callWithEnv({}, '/api/appointments', { body: bookingRequest(date, { timeSlot: '1:00 PM' }), ip: visitorIp(5) })).status).toBe(201);
  });
});

describe('the daily Workers AI budget', () => {
  it('with a budget of 2 the third question is answered from the knowledge base without calling the model', async () => {
    const { ai, calls } = fakeAi(() => ({ response: 'From the model: our office hours are 9 to 5.' }));
    const budget = { AI: ai, CHAT_AI_DAILY_BUDGET: '2' };
    const answers: string[] = [];
    for (let i = 0; i < 3; i++) {
      const sessionId = newSessionId();
      const res = await postChat({ message: 'What are your office hours?', sessionId }, { env: budget, ip: visitorIp(i) });
      expect(res.status).toBe(200);
      answers.push(((await res.json()) as { content: string }).content);
      expect(await storedTurns(sessionId)).toHaveLength(2);
    }
    expect(calls).toHaveLength(2);
    expect(answers.slice(0, 2)).toEqual(['From the model: our office hours are 9 to 5.', 'From the model: our office hours are 9 to 5.']);
    expect(answers[2]).not.toContain('From the model');
    expect(answers[2].length).toBeGreaterThan(0);
    expect(await env.DB.prepare("SELECT count FROM daily_counters WHERE counter = 'chat-ai'").first()).toEqual({ count: 2 });
  });

  it('holds under a parallel burst: 6 simultaneous questions with a budget of 3 call the model 3 times', async () => {
    const { ai, calls } = fakeAi(() => ({ response: 'From the model.' }));
    const responses = await Promise.all(
      Array.from({ length: 6 }, (_, i) => postChat({ message: 'Do you do payroll?', sessionId: newSessionId() }, { env: { AI: ai, CHAT_AI_DAILY_BUDGET: '3' }, ip: visitorIp(i) })),
    );
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(calls).toHaveLength(3);
  });
});

describe('mail to unverified addresses', () => {
  const spammy = { name: 'Win $$$ http://spam.example', notes: 'Claim your prize at http://spam.example/now' };

  it('carries no visitor-chosen text: the booking confirmation has neither name nor notes; the firm notification keeps both', async () => {
    expect((await callWithEnv({}, '/api/appointments', { body: bookingRequest(date, spammy), ip: visitorIp(1) })).status).toBe(201);
    const { results } = await env.DB.prepare('SELECT "to", kind, subject, text_body, html_body, attachments FROM email_log ORDER BY kind').all<Record<string, string>>();
    const [visitor, firmMail] = results;
    expect(visitor.kind).toBe('appointment-confirmation');
    for (const part of [visitor.subject, visitor.text_body, visitor.html_body, atob(JSON.parse(visitor.attachments)[0].content)]) {
      expect(part).not.toContain('spam.example');
      expect(part).not.toContain('Win $$$');
    }
    expect(visitor.text_body).toContain('Individual Tax Return');
    expect(firmMail.kind).toBe('appointment-notification');
    expect(firmMail.text_body).toContain('Win $$$ http://spam.example');
    expect(firmMail.text_body).toContain('Claim your prize at http://spam.example/now');
  });

  it('the admin confirming sends the visitor a status e-mail without the name or notes', async () => {
    const { id } = (await (await callWithEnv({}, '/api/appointments', { body: bookingRequest(date, spammy), ip: visitorIp(1) })).json()) as { id: number };
    const { appointmentStatusEmail } = await import('../../worker/services/appointments/emails');
    const row = await env.DB.prepare('SELECT * FROM appointments WHERE id = ?').bind(id).first<Record<string, unknown>>();
    const mail = appointmentStatusEmail(env, defaultContent.firm, {
      id,
      name: row!.name as string,
      email: row!.email as string,
      phone: row!.phone as string,
      serviceType: row!.service_type as string,
      date: row!.date as string,
      timeSlot: row!.time_slot as string,
      notes: row!.notes as string,
      status: 'confirmed',
    });
    expect(mail.toName).toBeUndefined();
    for (const part of [mail.subject, mail.text, mail.html]) expect(part).not.toContain('spam.example');
  });

  it('past BOOKING_CONFIRMATION_DAILY_CAP the booking is stored and the firm told, but the visitor mail is skipped and logged', async () => {
    const cap = { BOOKING_CONFIRMATION_DAILY_CAP: '1' };
    expect((await callWithEnv(cap, '/api/appointments', { body: bookingRequest(date, { timeSlot: '9:00 AM', email: 'one@example.com' }), ip: visitorIp(1) })).status).toBe(201);
    expect((await callWithEnv(cap, '/api/appointments', { body: bookingRequest(date, { timeSlot: '10:00 AM', email: 'two@example.com' }), ip: visitorIp(2) })).status).toBe(201);
    expect(await countRows('appointments')).toBe(2);
    const { results } = await env.DB.prepare('SELECT "to", kind FROM email_log ORDER BY id').all<{ to: string; kind: string }>();
    expect(results.filter((r) => r.kind === 'appointment-notification')).toHaveLength(2);
    expect(results.filter((r) => r.kind === 'appointment-confirmation')).toEqual([{ to: 'one@example.com', kind: 'appointment-confirmation' }]);
    const lines = warn.mock.calls.map((args) => args.map(String).join(' '));
    expect(lines).toContainEqual(expect.stringContaining('[mail] appointment-confirmation to an unverified address skipped'));
    expect(lines).toContainEqual(expect.stringContaining('(BOOKING_CONFIRMATION_DAILY_CAP)'));
    // Nothing is left today for another booking confirmation; the other kinds have budgets of their own.
    expect(await claimUnverifiedMail({ ...env, ...cap }, 'appointment-confirmation')).toBe(false);
    expect(await claimUnverifiedMail({ ...env, ...cap }, 'newsletter-confirmation')).toBe(true);
  });

  it('counts newsletter confirmations under NEWSLETTER_CONFIRMATION_DAILY_CAP: past it the sign-up is kept but not mailed', async () => {
    const cap = { NEWSLETTER_CONFIRMATION_DAILY_CAP: '1' };
    for (const [i, email] of ['first@example.com', 'second@example.com'].entries()) {
      expect((await callWithEnv(cap, '/api/newsletter/subscribe', { body: { email }, ip: visitorIp(i) })).status).toBe(200);
    }
    expect(await countRows('newsletter_subscriptions')).toBe(2);
    const { results } = await env.DB.prepare("SELECT \"to\" FROM email_log WHERE kind = 'newsletter-confirmation'").all<{ to: string }>();
    expect(results).toEqual([{ to: 'first@example.com' }]);
    expect(warn.mock.calls.map((args) => args.map(String).join(' '))).toContainEqual(expect.stringContaining('[mail] newsletter-confirmation to an unverified address skipped'));
  });
});
