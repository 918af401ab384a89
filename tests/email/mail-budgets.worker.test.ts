import { env } from 'cloudflare:test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { claimUnverifiedMail } from '../../worker/services/limits/daily-counters';
import { bookingRequest, callWithEnv, nextWeekday, visitorIp } from '../harness/worker/submission-helpers';

// Every e-mail kind sent to an unverified address has its own daily budget, and
// the newsletter sign-up throttle per network is exact (one D1 statement, like the forms').
// Real parallel requests through the worker, inside workerd.

const countRows = async (sql: string) => (await env.DB.prepare(sql).first<{ n: number }>())!.n;
const statusCounts = (statuses: number[]) => statuses.reduce<Record<number, number>>((acc, s) => ({ ...acc, [s]: (acc[s] ?? 0) + 1 }), {});

beforeEach(() => {
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('newsletter sign-ups per network: exact under a parallel burst', () => {
  it('220 simultaneous sign-ups from one network get exactly SUBSCRIBES_PER_IP_PER_HOUR (10) answers of 200, the rest 429', async () => {
    // One /64: every address in it is the same network (worker/services/limits/client-ip.ts).
    const responses = await Promise.all(
      Array.from({ length: 220 }, (_, i) =>
        callWithEnv({}, '/api/newsletter/subscribe', { body: { email: `burst${i}@example.com` }, ip: `2001:db8:27:1::${(i + 1).toString(16)}` }),
      ),
    );
    expect(statusCounts(responses.map((r) => r.status))).toEqual({ 200: 10, 429: 210 });
    expect(await countRows('SELECT count(*) AS n FROM newsletter_subscriptions')).toBe(10);
    expect(await countRows("SELECT count(*) AS n FROM email_log WHERE kind = 'newsletter-confirmation'")).toBe(10);
    expect(await countRows('SELECT sum(count) AS n FROM signup_windows')).toBe(10);
    // Another network has its own allowance.
    expect((await callWithEnv({}, '/api/newsletter/subscribe', { body: { email: 'elsewhere@example.com' }, ip: '2001:db8:27:2::1' })).status).toBe(200);
  }, 60_000);

  it('honours SUBSCRIBES_PER_IP_PER_HOUR under a burst too', async () => {
    const responses = await Promise.all(
      Array.from({ length: 30 }, (_, i) => callWithEnv({ SUBSCRIBES_PER_IP_PER_HOUR: '3' }, '/api/newsletter/subscribe', { body: { email: `three${i}@example.com` }, ip: '192.0.2.27' })),
    );
    expect(statusCounts(responses.map((r) => r.status))).toEqual({ 200: 3, 429: 27 });
  }, 30_000);
});

describe('a budget per kind of e-mail to unverified addresses', () => {
  it('a booking after three networks filled the sign-up budget still gets its confirmation, with the invite and the links', async () => {
    // The caps as a small deployment might set them; UNVERIFIED_MAIL_DAILY_CAP was once
    // the one budget of both kinds.
    const caps = { NEWSLETTER_CONFIRMATION_DAILY_CAP: '30', UNVERIFIED_MAIL_DAILY_CAP: '30', BOOKING_CONFIRMATION_DAILY_CAP: '30' };
    // Three networks, each sending its whole hourly allowance of sign-ups at once (and more).
    const flood = await Promise.all(
      [1, 2, 3].flatMap((network) =>
        Array.from({ length: 15 }, (_, i) => callWithEnv(caps, '/api/newsletter/subscribe', { body: { email: `stranger${network}-${i}@example.com` }, ip: `203.0.113.${network}` })),
      ),
    );
    expect(statusCounts(flood.map((r) => r.status))).toEqual({ 200: 30, 429: 15 });
    expect(await countRows("SELECT count(*) AS n FROM email_log WHERE kind = 'newsletter-confirmation'")).toBe(30);
    // The sign-up budget is spent: a fourth network's sign-up is stored but not mailed.
    expect((await callWithEnv(caps, '/api/newsletter/subscribe', { body: { email: 'late@example.com' }, ip: visitorIp(40) })).status).toBe(200);
    expect(await countRows("SELECT count(*) AS n FROM email_log WHERE kind = 'newsletter-confirmation'")).toBe(30);

    const booking = await callWithEnv(caps, '/api/appointments', { body: bookingRequest(nextWeekday(7), { email: 'real.client@example.com' }), ip: visitorIp(41) });
    expect(booking.status).toBe(201);
    const confirmation = await env.DB.prepare("SELECT \"to\", text_body, attachments FROM email_log WHERE kind = 'appointment-confirmation'").first<{
      to: string;
      text_body: string;
      attachments: string | null;
    }>();
    expect(confirmation).not.toBeNull();
    expect(confirmation!.to).toBe('real.client@example.com');
    expect(confirmation!.text_body).toContain('/appointment/cancel?token=');
    expect(confirmation!.text_body).toContain('/appointment/reschedule?token=');
    expect((JSON.parse(confirmation!.attachments ?? '[]') as { filename: string }[]).map((a) => a.filename)).toEqual(['appointment.ics']);
    expect(await env.DB.prepare('SELECT counter, count FROM daily_counters WHERE counter LIKE \'%mail\' ORDER BY counter').all().then((r) => r.results)).toEqual([
      { counter: 'booking-confirmation-mail', count: 1 },
      { counter: 'newsletter-confirmation-mail', count: 30 },
    ]);
  }, 60_000);

  it('each kind draws on its own cap: filling one leaves the others whole', async () => {
    const caps = { BOOKING_CONFIRMATION_DAILY_CAP: '2', NEWSLETTER_CONFIRMATION_DAILY_CAP: '3', UNVERIFIED_MAIL_DAILY_CAP: '1' };
    const testEnv = { ...env, ...caps };
    // Any other kind (none is sent to an unverified address today) shares UNVERIFIED_MAIL_DAILY_CAP.
    expect(await claimUnverifiedMail(testEnv, 'appointment-status')).toBe(true);
    expect(await claimUnverifiedMail(testEnv, 'contact-notification')).toBe(false);
    expect(await claimUnverifiedMail(testEnv, 'appointment-confirmation')).toBe(true);
    expect(await claimUnverifiedMail(testEnv, 'appointment-confirmation')).toBe(true);
    expect(await claimUnverifiedMail(testEnv, 'appointment-confirmation')).toBe(false);
    for (let i = 0; i < 3; i++) expect(await claimUnverifiedMail(testEnv, 'newsletter-confirmation')).toBe(true);
    expect(await claimUnverifiedMail(testEnv, 'newsletter-confirmation')).toBe(false);
  });

  it('UNVERIFIED_MAIL_DAILY_CAP, the former shared cap, is the default of a kind whose own cap is unset, counted apart', async () => {
    const testEnv = { ...env, BOOKING_CONFIRMATION_DAILY_CAP: '', NEWSLETTER_CONFIRMATION_DAILY_CAP: '', UNVERIFIED_MAIL_DAILY_CAP: '1' };
    expect(await claimUnverifiedMail(testEnv, 'newsletter-confirmation')).toBe(true);
    expect(await claimUnverifiedMail(testEnv, 'newsletter-confirmation')).toBe(false);
    expect(await claimUnverifiedMail(testEnv, 'appointment-confirmation')).toBe(true);
    expect(await claimUnverifiedMail(testEnv, 'appointment-confirmation')).toBe(false);
  });
});
