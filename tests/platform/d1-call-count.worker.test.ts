import { describe, expect, it } from 'vitest';
import { bookingRequest, callWithEnv, nextWeekday } from '../harness/worker/submission-helpers';

// worker/services/platform/d1-call-count.ts: what `npm run bench:load` reads to check, on the
// running stack, that a visitor's submission is one D1 round trip before its answer.
describe('the D1 call count for the load bench', () => {
  const counting = { COUNT_D1_CALLS: '1' };
  const asks = { 'x-count-d1-calls': '1' };
  const contact = { name: 'Ora Count', email: 'ora@example.com', phone: '', message: 'Can you help with a late 1099?' };

  it('answers a contact message and a booking with X-D1-Calls: 1 (the one batch), a read with its own calls', async () => {
    const sent = await callWithEnv(counting, '/api/contact', { body: contact, ip: '203.0.113.60', headers: asks });
    expect(sent.status).toBe(201);
    expect(sent.headers.get('x-d1-calls')).toBe('1');
    const booked = await callWithEnv(counting, '/api/appointments', { body: bookingRequest(nextWeekday()), ip: '203.0.113.61', headers: asks });
    expect(booked.status).toBe(201);
    expect(booked.headers.get('x-d1-calls')).toBe('1');
    // A read that makes several calls is counted as several (so the count can tell).
    const availability = await callWithEnv(counting, `/api/appointments/availability?date=${nextWeekday()}`, { headers: asks });
    expect(availability.status).toBe(200);
    expect(Number(availability.headers.get('x-d1-calls'))).toBeGreaterThan(0);
  });

  it('adds nothing to a request that does not ask, nor unless COUNT_D1_CALLS is 1 (a deployed worker)', async () => {
    const unasked = await callWithEnv(counting, '/api/contact', { body: contact, ip: '203.0.113.62' });
    expect(unasked.status).toBe(201);
    expect(unasked.headers.has('x-d1-calls')).toBe(false);
    const deployed = await callWithEnv({}, '/api/contact', { body: contact, ip: '203.0.113.63', headers: asks });
    expect(deployed.status).toBe(201);
    expect(deployed.headers.has('x-d1-calls')).toBe(false);
  });
});
