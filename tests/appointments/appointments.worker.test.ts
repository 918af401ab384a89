import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { defaultContent } from '#core/content/default-content';
import { bookingTimeSlots } from '#core/content/booking';
import { firm } from '#core/content/firm';
import { BOOKING_MESSAGES, createAppointmentSchema, toFirmCalendarDate } from '#core/schemas/appointments';
import { buildInvite, escapeIcsText, foldIcsLine, vtimezoneFor } from '../../worker/services/appointments/ics';
import { appointmentConfirmationEmail } from '../../worker/services/appointments/emails';
import { call, client, okJson } from '../harness/worker/helpers';
import { callWithEnv, nextSaturday, nextWeekday, validBooking, visitorIp } from '../harness/worker/submission-helpers';

const date = nextWeekday(7);
const booking = validBooking(date, { notes: 'Bring last year’s return?' });

const countRows = async (table: string) => (await env.DB.prepare(`SELECT count(*) AS n FROM ${table}`).first<{ n: number }>())!.n;

async function errorOf(res: { json(): Promise<unknown> }) {
  return (await res.json()) as { message: string; fields?: Record<string, string[]> };
}

describe('POST /api/appointments', () => {
  it('stores a valid request as requested and answers 201 with its id, date and slot', async () => {
    const res = await client().api.appointments.$post({ json: booking });
    expect(res.status).toBe(201);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toEqual({ id: expect.any(Number), message: expect.any(String), date, timeSlot: '10:00 AM', status: 'requested' });
    const row = await env.DB.prepare('SELECT * FROM appointments').first<Record<string, unknown>>();
    expect(row).toMatchObject({ name: 'Sam Client', email: 'sam@example.com', phone: '412-555-0199', service_type: 'Individual Tax Return', date, time_slot: '10:00 AM', status: 'requested' });
  });

  it('e-mails the visitor a confirmation in the firm time zone, and notifies the firm', async () => {
    await client().api.appointments.$post({ json: booking });
    const { results } = await env.DB.prepare('SELECT "to", kind, subject, text_body, status FROM email_log ORDER BY kind').all<Record<string, string>>();
    expect(results.map((r) => [r.kind, r.to, r.status])).toEqual([
      ['appointment-confirmation', 'sam@example.com', 'stored'],
      ['appointment-notification', firm.contact.email, 'stored'],
    ]);
    expect(results[0].text_body).toMatch(/at 10:00 AM Eastern Time/);
    expect(results[0].text_body).toContain('within 24 hours');
    expect(results[1].text_body).toContain('Individual Tax Return');
  });

  it('accepts an ISO timestamp (the original site sent one) as the day it falls on in New York', async () => {
    // Midnight in New York on that day is 04:00 or 05:00 UTC, depending on daylight saving.
    const iso = new Date(`${date}T12:00:00Z`).toISOString();
    const res = await client().api.appointments.$post({ json: { ...booking, date: iso } });
    expect(res.status).toBe(201);
    expect((await okJson(res)).date).toBe(date);
    // The conversion itself, in an explicit zone: these instants are New York facts, whatever firm.timeZone is.
    expect(toFirmCalendarDate('2026-11-23T05:00:00.000Z', 'America/New_York')).toBe('2026-11-23');
    expect(toFirmCalendarDate('2026-11-23T03:00:00.000Z', 'America/New_York')).toBe('2026-11-22');
  });

  it('takes phone and notes as optional', async () => {
    const res = await client().api.appointments.$post({ json: { ...booking, phone: '', notes: undefined } });
    expect(res.status).toBe(201);
    expect(await env.DB.prepare('SELECT phone, notes FROM appointments').first()).toEqual({ phone: null, notes: null });
  });

  it.each([
    ['an invalid e-mail', { email: 'sam@' }, 'email', 'Please enter a valid email address'],
    ['a missing name', { name: undefined }, 'name', 'Name is required'],
    ['a phone with fewer than 10 digits', { phone: '555-0199' }, 'phone', 'Please enter a valid phone number'],
    ['a phone with letters', { phone: 'call me maybe 1234567890' }, 'phone', 'Please enter a valid phone number'],
    ['a service outside the 10', { serviceType: 'Audit & Assurance' }, 'serviceType', BOOKING_MESSAGES.service],
    ['a missing service', { serviceType: undefined }, 'serviceType', BOOKING_MESSAGES.service],
    ['a missing date', { date: undefined }, 'date', BOOKING_MESSAGES.dateMissing],
    ['an impossible date', { date: '2027-02-30' }, 'date', BOOKING_MESSAGES.dateInvalid],
    ['a date that is not a date', { date: 'next tuesday' }, 'date', BOOKING_MESSAGES.dateInvalid],
    ['a Saturday', { date: nextSaturday() }, 'date', BOOKING_MESSAGES.weekend],
    ['a past weekday', { date: '2024-03-04' }, 'date', BOOKING_MESSAGES.past],
    ['a slot outside the 7', { timeSlot: '12:00 PM' }, 'timeSlot', BOOKING_MESSAGES.slot],
    ['overlong notes', { notes: 'n'.repeat(2001) }, 'notes', 'Notes must be at most 2000 characters'],
  ])('answers 400 to %s with the field message, and stores nothing', async (_label, change, field, message) => {
    // Raw call: the body is malformed on purpose, which the typed client would not compile.
    const res = await call('/api/appointments', { body: { ...booking, ...change } });
    expect(res.status).toBe(400);
    const body = await errorOf(res);
    expect(body.message).toBe(message);
    expect(body.fields?.[field]).toContain(message);
    expect(await countRows('appointments')).toBe(0);
    expect(await countRows('daily_counters')).toBe(0);
  });

  it('refuses a second booking of a taken slot with 409 and a clear message, and gives the daily slot back', async () => {
    expect((await client({ ip: visitorIp(1) }).api.appointments.$post({ json: booking })).status).toBe(201);
    const second = await client({ ip: visitorIp(2) }).api.appointments.$post({ json: { ...booking, name: 'Other Person', email: 'o@example.com' } });
    expect(second.status).toBe(409);
    expect((await errorOf(second)).message).toBe(BOOKING_MESSAGES.taken);
    expect(await countRows('appointments')).toBe(1);
    expect(await env.DB.prepare("SELECT count FROM daily_counters WHERE counter = 'booking'").first()).toEqual({ count: 1 });
    // The same slot on another day, and another slot on the same day, are free.
    expect((await client({ ip: visitorIp(3) }).api.appointments.$post({ json: { ...booking, timeSlot: '11:00 AM' } })).status).toBe(201);
    // (Another address: one address may hold only two open requests.)
    expect((await client({ ip: visitorIp(4) }).api.appointments.$post({ json: { ...booking, email: 'sam2@example.com', date: nextWeekday(14) } })).status).toBe(201);
  });

  it('gives 20 simultaneous bookings of one slot exactly one 201 and nineteen 409, never a 5xx', async () => {
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => client({ ip: visitorIp(i) }).api.appointments.$post({ json: { ...booking, name: `Client ${i}`, timeSlot: '2:00 PM' } })),
    );
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    expect(await countRows('appointments')).toBe(1);
    expect(await env.DB.prepare("SELECT count FROM daily_counters WHERE counter = 'booking'").first()).toEqual({ count: 1 });
  }, 30_000);

  it('counts bookings under their own daily cap: a full booking cap leaves the contact form open, and a full contact cap the booking form', async () => {
    const cap = { DAILY_BOOKING_CAP: '1', DAILY_CONTACT_CAP: '2' };
    const contact = { name: 'A', email: 'a@example.com', message: 'Hello, I have a question.' };
    expect((await callWithEnv(cap, '/api/appointments', { body: booking, ip: visitorIp(1) })).status).toBe(201);
    const over = await callWithEnv(cap, '/api/appointments', { body: { ...booking, email: 'other@example.com', timeSlot: '9:00 AM' }, ip: visitorIp(2) });
    expect(over.status).toBe(429);
    expect((await errorOf(over)).message).toMatch(/unusually high number of requests today/);
    expect(await countRows('appointments')).toBe(1);
    // The booking cap is full; the contact form still takes its own two.
    expect((await callWithEnv(cap, '/api/contact', { body: contact, ip: visitorIp(3) })).status).toBe(201);
    expect((await callWithEnv(cap, '/api/contact', { body: contact, ip: visitorIp(4) })).status).toBe(201);
    expect((await callWithEnv(cap, '/api/contact', { body: contact, ip: visitorIp(5) })).status).toBe(429);
    // And a full contact cap does not close the booking form.
    expect((await callWithEnv({ DAILY_CONTACT_CAP: '2' }, '/api/appointments', { body: { ...booking, email: 'third@example.com', timeSlot: '1:00 PM' }, ip: visitorIp(6) })).status).toBe(201);
    const counts = await env.DB.prepare("SELECT counter, count FROM daily_counters WHERE counter IN ('contact', 'booking') ORDER BY counter").all();
    expect(counts.results).toEqual([{ counter: 'booking', count: 2 }, { counter: 'contact', count: 2 }]);
  });

  it('takes DAILY_SUBMISSION_CAP as the default of both caps when a form has none of its own', async () => {
    const fallback = { DAILY_SUBMISSION_CAP: '1', DAILY_CONTACT_CAP: undefined, DAILY_BOOKING_CAP: undefined } as unknown as Partial<typeof env>;
    const contact = { name: 'A', email: 'a@example.com', message: 'Hello, I have a question.' };
    expect((await callWithEnv(fallback, '/api/contact', { body: contact, ip: visitorIp(1) })).status).toBe(201);
    expect((await callWithEnv(fallback, '/api/contact', { body: contact, ip: visitorIp(2) })).status).toBe(429);
    expect((await callWithEnv(fallback, '/api/appointments', { body: booking, ip: visitorIp(3) })).status).toBe(201);
    expect((await callWithEnv(fallback, '/api/appointments', { body: { ...booking, email: 'b@example.com', timeSlot: '9:00 AM' }, ip: visitorIp(4) })).status).toBe(429);
  });

  it('throttles one IP across both forms', async () => {
    const limit = { SUBMISSIONS_PER_IP_PER_WINDOW: '2' };
    const contact = { name: 'A', email: 'a@example.com', message: 'Hello, I have a question.' };
    expect((await callWithEnv(limit, '/api/contact', { body: contact })).status).toBe(201);
    expect((await callWithEnv(limit, '/api/appointments', { body: booking })).status).toBe(201);
    const res = await callWithEnv(limit, '/api/appointments', { body: { ...booking, timeSlot: '9:00 AM' } });
    expect(res.status).toBe(429);
    expect((await errorOf(res)).message).toMatch(/Too many submissions/);
  });

  it('frees a cancelled booking’s slot for a new request', async () => {
    await client().api.appointments.$post({ json: booking });
    await env.DB.prepare("UPDATE appointments SET status = 'cancelled'").run();
    expect((await client({ ip: visitorIp(9) }).api.appointments.$post({ json: booking })).status).toBe(201);
  });
});

describe('GET /api/appointments/availability', () => {
  it('lists the 7 slots with the taken one unavailable', async () => {
    await client().api.appointments.$post({ json: { ...booking, timeSlot: '1:00 PM' } });
    const res = await client().api.appointments.availability.$get({ query: { date } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { date: string; slots: { time: string; available: boolean }[] };
    expect(body.date).toBe(date);
    expect(body.slots.map((s) => s.time)).toEqual([...bookingTimeSlots]);
    expect(body.slots.filter((s) => !s.available).map((s) => s.time)).toEqual(['1:00 PM']);
  });

  it('shows every slot of a past day as unavailable', async () => {
    const body = (await (await client().api.appointments.availability.$get({ query: { date: '2024-03-04' } })).json()) as { slots: { available: boolean }[] };
    expect(body.slots.every((s) => !s.available)).toBe(true);
  });

  it.each(['', '?date=2026-13-01', '?date=tomorrow', '?date=2026-1-5'])('answers 400 to %s', async (query) => {
    // Raw call: the query string as written is what is under test.
    const res = await call(`/api/appointments/availability${query}`);
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toBeTruthy();
  });
});

describe('the booking schema at a fixed moment', () => {
  // An explicit zone, not firm.timeZone: the instants and expectations below are New York wall-clock facts.
  // Monday 23 November 2026, 3:05 PM in New York (EST, UTC-5).
  const schema = createAppointmentSchema('America/New_York', () => new Date('2026-11-23T20:05:00Z'));
  const base = { name: 'A', email: 'a@example.com', serviceType: 'Payroll Services' };
  const first = (input: object) => {
    const result = schema.safeParse({ ...base, ...input });
    return result.success ? 'ok' : result.error.issues[0].message;
  };

  it('allows later slots today and any slot on a later weekday', () => {
    expect(first({ date: '2026-11-23', timeSlot: '4:00 PM' })).toBe('ok');
    expect(first({ date: '2026-11-24', timeSlot: '9:00 AM' })).toBe('ok');
  });

  it('refuses a slot that has already started today, and yesterday', () => {
    expect(first({ date: '2026-11-23', timeSlot: '3:00 PM' })).toBe(BOOKING_MESSAGES.slotPassed);
    expect(first({ date: '2026-11-20', timeSlot: '4:00 PM' })).toBe(BOOKING_MESSAGES.past);
  });

  it('judges "today" in New York, not UTC: at 9 PM Friday in New York it is already Saturday in UTC', () => {
    const friday = createAppointmentSchema('America/New_York', () => new Date('2026-11-28T02:00:00Z'));
    expect(friday.safeParse({ ...base, date: '2026-11-27', timeSlot: '4:00 PM' }).error?.issues[0].message).toBe(BOOKING_MESSAGES.slotPassed);
    expect(friday.safeParse({ ...base, date: '2026-11-30', timeSlot: '9:00 AM' }).success).toBe(true);
  });
});

describe('the .ics invite', () => {
  const appointment = {
    id: 42,
    name: 'Sam Client',
    email: 'sam@example.com',
    phone: null,
    serviceType: 'QuickBooks Setup/Training',
    date: '2026-07-14',
    timeSlot: '1:00 PM',
    notes: null,
    status: 'requested' as const,
  };

  it("is attached to the confirmation, with the slot as the firm's wall-clock time and its zone's VTIMEZONE", () => {
    const mail = appointmentConfirmationEmail(env, defaultContent.firm, appointment);
    expect(mail.attachments).toHaveLength(1);
    const [attachment] = mail.attachments!;
    expect(attachment.filename).toBe('appointment.ics');
    expect(attachment.contentType).toMatch(/^text\/calendar/);
    const ics = new TextDecoder().decode(Uint8Array.from(atob(attachment.content), (c) => c.charCodeAt(0)));
    expect(ics).toContain(`DTSTART;TZID=${firm.timeZone}:20260714T130000\r\n`);
    expect(ics).toContain(`DTEND;TZID=${firm.timeZone}:20260714T140000\r\n`);
    expect(ics).toContain(`BEGIN:VTIMEZONE\r\nTZID:${firm.timeZone}\r\n`);
    // The UID's host is the site's public host (SITE_URL), so it is unique to this firm's calendar.
    expect(ics).toContain(`UID:appointment-42@${new URL(env.SITE_URL).hostname}\r\n`);
    expect(ics).toContain('STATUS:TENTATIVE');
    expect(ics.startsWith('BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:')).toBe(true);
    expect(ics.endsWith('END:VCALENDAR\r\n')).toBe(true);
    // No bare LF, and no line longer than 75 octets.
    expect(ics.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    for (const line of ics.split('\r\n')) expect(new TextEncoder().encode(line).length).toBeLessThanOrEqual(75);
    // The comma in the address is escaped.
    expect(ics.replace(/\r\n /g, '')).toContain('LOCATION:Northgate CPA\\, 2000 Corporate Drive\\, Suite 250\\, Warrendale\\, PA 15086');
    expect(mail.text).toContain('Tuesday, July 14, 2026 at 1:00 PM Eastern Time');
  });

  it("has a VTIMEZONE for the firm's time zone: a new firm.timeZone needs its entry in worker/services/appointments/ics.ts", () => {
    const lines = vtimezoneFor(firm.timeZone);
    expect(lines, `worker/services/appointments/ics.ts has no VTIMEZONE for ${firm.timeZone}`).toBeDefined();
    expect(lines).toContain(`TZID:${firm.timeZone}`);
    expect(vtimezoneFor('toString')).toBeUndefined();
  });

  it('writes the US Eastern rules since 2007 for America/New_York', () => {
    const ics = [...vtimezoneFor('America/New_York')!].join('\r\n');
    expect(ics).toMatch(/BEGIN:DAYLIGHT\r\nTZOFFSETFROM:-0500\r\nTZOFFSETTO:-0400\r\nTZNAME:EDT\r\nDTSTART:20070311T020000\r\nRRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU/);
    expect(ics).toMatch(/BEGIN:STANDARD\r\nTZOFFSETFROM:-0400\r\nTZOFFSETTO:-0500\r\nTZNAME:EST\r\nDTSTART:20071104T020000\r\nRRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU/);
  });

  it('escapes text and folds long lines without splitting a character', () => {
    expect(escapeIcsText('a,b;c\\d\ne')).toBe('a\\,b\\;c\\\\d\\ne');
    const folded = foldIcsLine(`DESCRIPTION:${'é'.repeat(80)}`);
    const lines = folded.split('\r\n');
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) expect(new TextEncoder().encode(line).length).toBeLessThanOrEqual(75);
    expect(lines.slice(1).every((l) => l.startsWith(' '))).toBe(true);
    expect(lines.map((l, i) => (i ? l.slice(1) : l)).join('')).toBe(`DESCRIPTION:${'é'.repeat(80)}`);
  });

  it('falls back to UTC times for a zone without a VTIMEZONE definition', () => {
    const ics = buildInvite({
      uid: 'x@example',
      date: '2026-01-05',
      startMinutes: 9 * 60,
      durationMinutes: 60,
      timeZone: 'America/Chicago',
      summary: 's',
      description: 'd',
      location: 'l',
      organizerName: 'Firm',
      organizerEmail: 'f@example.com',
      status: 'CONFIRMED',
    });
    expect(ics).toContain('DTSTART:20260105T150000Z');
    expect(ics).not.toContain('VTIMEZONE');
  });
});
