import ICAL from 'ical.js';
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { call, client, okJson, signIn } from '../harness/worker/helpers';
import { decodeBase64, newYork, newYorkOffset, parseInvite, slot24, uidOf } from '../harness/worker/ical-helpers';
import { type BookingInput, nextWeekday, validBooking, visitorIp } from '../harness/worker/submission-helpers';

// The firm's private calendar feed (docs/product.md §6.4): parsed here by ical.js, the parser
// behind many calendar clients, as Google Calendar, Outlook and Apple Calendar would read it.

const date = nextWeekday(7);

type Rotated = { active: boolean; createdAt: string; url: string; webcalUrl: string };

async function rotate(cookie: string): Promise<Rotated> {
  const res = await client({ cookie }).api.admin['calendar-feed'].rotate.$post();
  expect(res.status).toBe(201);
  return (await res.json()) as Rotated;
}

const pathOf = (url: string) => new URL(url).pathname;

async function book(overrides: Partial<BookingInput> = {}, n = 1) {
  const res = await client({ ip: visitorIp(n) }).api.appointments.$post({ json: validBooking(date, overrides) });
  expect(res.status).toBe(201);
  return okJson(res);
}

type FeedEvent = { uid: string; sequence: number; status: string; summary: string; description: string; start: Date; end: Date };

/** The feed as a calendar reads it: its VTIMEZONE resolves each TZID to the instant it means. */
function parseFeed(ics: string): FeedEvent[] {
  const calendar = new ICAL.Component(ICAL.parse(ics));
  expect(calendar.getFirstPropertyValue('method')).toBe('PUBLISH');
  expect(calendar.getAllSubcomponents('vtimezone')).toHaveLength(1);
  return calendar.getAllSubcomponents('vevent').map((vevent) => {
    const event = new ICAL.Event(vevent);
    return {
      uid: event.uid,
      sequence: event.sequence,
      status: String(vevent.getFirstPropertyValue('status')),
      summary: event.summary,
      description: event.description,
      start: event.startDate.toJSDate(),
      end: event.endDate.toJSDate(),
    };
  });
}

async function feed(path: string, headers: Record<string, string> = {}) {
  // Raw call: feed paths and conditional-request headers as a calendar app sends them.
  return call(path, { headers });
}

/** The latest invite e-mailed for the appointments (the outbox keeps attachments). */
async function latestInvite() {
  const row = await env.DB.prepare('SELECT attachments FROM email_log WHERE attachments IS NOT NULL ORDER BY id DESC LIMIT 1').first<{ attachments: string }>();
  return parseInvite(decodeBase64((JSON.parse(row!.attachments) as { content: string }[])[0].content));
}

describe('admin calendar feed endpoints', () => {
  it.each([
    ['GET', '/api/admin/calendar-feed'],
    ['POST', '/api/admin/calendar-feed/rotate'],
  ])('answer 401 to %s %s without a session, and make no feed', async (method, path) => {
    // Raw call: the path comes from a table of routes, which the typed client cannot address by string.
    const res = await call(path, { method });
    expect(res.status).toBe(401);
    expect(await env.DB.prepare('SELECT count(*) AS n FROM calendar_feed').first('n')).toBe(0);
  });

  it('has no feed until the admin makes one; the address is shown once and only its hash is stored', async () => {
    const cookie = await signIn();
    expect(await (await client({ cookie }).api.admin['calendar-feed'].$get()).json()).toEqual({ active: false, createdAt: null });
    const rotated = await rotate(cookie);
    // The site's public address (SITE_URL), what the firm's calendar app will reach.
    expect(rotated.url).toMatch(new RegExp(`^${env.SITE_URL}/api/calendar/[A-Za-z0-9_-]{43}\\.ics$`));
    expect(rotated.webcalUrl).toBe(rotated.url.replace('https://', 'webcal://'));
    const secret = pathOf(rotated.url).slice('/api/calendar/'.length, -'.ics'.length);
    const stored = await env.DB.prepare('SELECT token_hash FROM calendar_feed').first<{ token_hash: string }>();
    expect(stored!.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored!.token_hash).not.toContain(secret);
    const status = (await (await client({ cookie }).api.admin['calendar-feed'].$get()).json()) as Record<string, unknown>;
    expect(status).toEqual({ active: true, createdAt: expect.any(String) });
    expect(JSON.stringify(status)).not.toContain(secret);
  });
});

describe('GET /api/calendar/<secret>.ics', () => {
  it('answers 404 without a feed, for a wrong secret, and for the old address once rotated', async () => {
    expect((await feed(`/api/calendar/${'a'.repeat(43)}.ics`)).status).toBe(404);
    const cookie = await signIn();
    const first = await rotate(cookie);
    expect((await feed(pathOf(first.url))).status).toBe(200);
    expect((await feed(pathOf(first.url).replace(/.\.ics$/, (m) => (m[0] === 'A' ? 'B' : 'A') + '.ics'))).status).toBe(404);
    expect((await feed(pathOf(first.url).replace('.ics', ''))).status).toBe(404);
    const second = await rotate(cookie);
    expect(second.url).not.toBe(first.url);
    expect((await feed(pathOf(first.url))).status).toBe(404);
    expect((await feed(pathOf(second.url))).status).toBe(200);
  });

  it('is a valid calendar with one event per booking with a time, the same UID and SEQUENCE as its invite, and the visitor in the description', async () => {
    const { url } = await rotate(await signIn());
    const empty = await feed(pathOf(url));
    expect(empty.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    expect(empty.headers.get('cache-control')).toContain('private');
    expect(parseFeed(await empty.text())).toEqual([]);

    const { id } = await book({ name: 'Dana Visitor', email: 'dana@example.com', phone: '412-555-0101', timeSlot: '2:00 PM' });
    // A request without a time has no event (nor an invite) yet.
    await book({ timeSlot: null, email: 'notime@example.com' }, 2);
    const invite = await latestInviteFor(id);
    const events = parseFeed(await (await feed(pathOf(url))).text());
    expect(events).toHaveLength(1);
    const [event] = events;
    const publicId = (await env.DB.prepare('SELECT public_id FROM appointments WHERE id = ?').bind(id).first<string>('public_id'))!;
    expect(event.uid).toBe(uidOf(publicId));
    expect(event.uid).toBe(invite.uid);
    expect(event.sequence).toBe(invite.sequence);
    expect(event.status).toBe('TENTATIVE');
    expect(event.start).toEqual(newYork(date, slot24('2:00 PM'), newYorkOffset(date, slot24('2:00 PM'))));
    expect(event.end.getTime() - event.start.getTime()).toBe(3_600_000);
    expect(event.summary).toContain('Dana Visitor');
    for (const part of ['Dana Visitor', 'Individual Tax Return', 'dana@example.com', '412-555-0101']) expect(event.description).toContain(part);

    // Confirmed by the admin: the same UID, the invite's new SEQUENCE.
    const cookie = await signIn();
    expect((await client({ cookie }).api.admin.appointments[':id'].$patch({ param: { id: String(id) }, json: { status: 'confirmed' } })).status).toBe(200);
    const confirmed = await latestInviteFor(id);
    const [after] = parseFeed(await (await feed(pathOf(url))).text());
    expect(after).toMatchObject({ uid: confirmed.uid, sequence: confirmed.sequence, status: 'CONFIRMED' });
    expect(confirmed.sequence).toBe(1);
  });

  it('shows a new booking on the very next request, answers 304 to its ETag while nothing changed', async () => {
    const { url } = await rotate(await signIn());
    const first = await feed(pathOf(url));
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^".+"$/);
    const unchanged = await feed(pathOf(url), { 'if-none-match': etag });
    expect(unchanged.status).toBe(304);
    expect(await unchanged.text()).toBe('');
    expect(unchanged.headers.get('etag')).toBe(etag);

    await book();
    const changed = await feed(pathOf(url), { 'if-none-match': etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
    expect(parseFeed(await changed.text())).toHaveLength(1);
  });

  it('shows a cancelled appointment as STATUS:CANCELLED for 30 days after its cancellation, then leaves it out', async () => {
    const { url } = await rotate(await signIn());
    const { id } = await book();
    const cookie = await signIn();
    expect((await client({ cookie }).api.admin.appointments[':id'].$patch({ param: { id: String(id) }, json: { status: 'cancelled' } })).status).toBe(200);
    const cancelled = await latestInviteFor(id);
    const beforeExpiry = await feed(pathOf(url));
    const [event] = parseFeed(await beforeExpiry.text());
    expect(event).toMatchObject({ uid: cancelled.uid, sequence: cancelled.sequence, status: 'CANCELLED' });

    // 29 days after the cancellation it is still there; at 31 days it is gone (and the ETag moved).
    const day = 86_400_000;
    await env.DB.prepare('UPDATE appointments SET updated_at = ? WHERE id = ?').bind(Date.now() - 29 * day, id).run();
    expect(parseFeed(await (await feed(pathOf(url))).text())).toHaveLength(1);
    await env.DB.prepare('UPDATE appointments SET updated_at = ? WHERE id = ?').bind(Date.now() - 31 * day, id).run();
    const expired = await feed(pathOf(url), { 'if-none-match': beforeExpiry.headers.get('etag')! });
    expect(expired.status).toBe(200);
    expect(parseFeed(await expired.text())).toEqual([]);
  });
});

/** The invite most recently e-mailed for one appointment (by its UID). */
async function latestInviteFor(id: number) {
  const publicId = (await env.DB.prepare('SELECT public_id FROM appointments WHERE id = ?').bind(id).first<string>('public_id'))!;
  const invite = await latestInvite();
  expect(invite.uid).toBe(uidOf(publicId));
  return invite;
}
