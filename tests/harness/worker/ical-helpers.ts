import ICAL from 'ical.js';
import { env } from 'cloudflare:test';
import { expect } from 'vitest';
import { firm } from '#core/content/firm';
import type { RecordedRequest } from './mailchannels-fake';

/** What a calendar reads from one of our invites, parsed by a real iCalendar parser (ical.js). */
export interface ParsedInvite {
  method: string;
  uid: string;
  sequence: number;
  status: string;
  tzid: string;
  start: Date;
  end: Date;
  attendee: string;
  organizer: string;
  summary: string;
}

export const decodeBase64 = (content: string) => new TextDecoder().decode(Uint8Array.from(atob(content), (ch) => ch.charCodeAt(0)));

/** Parses an .ics text; its VTIMEZONE is registered first, so DTSTART;TZID=... resolves to the instant it means. */
export function parseInvite(ics: string): ParsedInvite {
  const calendar = new ICAL.Component(ICAL.parse(ics));
  for (const zone of calendar.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(zone);
  const events = calendar.getAllSubcomponents('vevent');
  expect(events).toHaveLength(1);
  const vevent = events[0];
  const event = new ICAL.Event(vevent);
  return {
    method: String(calendar.getFirstPropertyValue('method')),
    uid: event.uid,
    sequence: event.sequence,
    status: String(vevent.getFirstPropertyValue('status')),
    tzid: String(vevent.getFirstProperty('dtstart')!.getParameter('tzid')),
    start: event.startDate.toJSDate(),
    end: event.endDate.toJSDate(),
    attendee: String(vevent.getFirstPropertyValue('attendee')),
    organizer: String(vevent.getFirstPropertyValue('organizer')),
    summary: event.summary,
  };
}

/** The one .ics attachment of an e-mail as the fake MailChannels received it, parsed. */
export function inviteOf(request: RecordedRequest): ParsedInvite & { filename: string; type: string } {
  const attachments = (request.body.attachments ?? []) as { filename: string; type: string; content: string }[];
  expect(attachments).toHaveLength(1);
  const [a] = attachments;
  return { ...parseInvite(decodeBase64(a.content)), filename: a.filename, type: a.type };
}

/** The UID every invite of this appointment carries, for its whole life. */
/** The invite's UID: the appointment's public id, or its numeric id for a row stored without one. */
export const uidOf = (ref: number | string) => `appointment-${ref}@${new URL(env.SITE_URL).hostname}`;

/** The instant a wall-clock time on a day means in New York, from an explicit UTC offset (no zone code of ours). */
export const newYork = (date: string, hhmm: string, offset: '-04:00' | '-05:00') => new Date(`${date}T${hhmm}:00${offset}`);

/** The UTC offset New York has at that wall-clock time, as Intl knows it (for dates computed at run time). */
export function newYorkOffset(date: string, hhmm: string): '-04:00' | '-05:00' {
  const probe = new Date(`${date}T${hhmm}:00Z`);
  const name = new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York', timeZoneName: 'shortOffset' })
    .formatToParts(probe)
    .find((p) => p.type === 'timeZoneName')!.value;
  return name === 'GMT-4' ? '-04:00' : '-05:00';
}

/** '10:00 AM' -> '10:00', '1:00 PM' -> '13:00'. */
export function slot24(slot: string): string {
  const [, h, m, ampm] = /^(\d{1,2}):(\d{2}) (AM|PM)$/.exec(slot)!;
  return `${String((Number(h) % 12) + (ampm === 'PM' ? 12 : 0)).padStart(2, '0')}:${m}`;
}

/** Asserts the invite holds exactly the booked hour in the firm's zone. */
export function expectAtSlot(invite: ParsedInvite, date: string, slot: string) {
  expect(firm.timeZone).toBe('America/New_York');
  expect(invite.tzid).toBe('America/New_York');
  const start = newYork(date, slot24(slot), newYorkOffset(date, slot24(slot)));
  expect(invite.start.toISOString()).toBe(start.toISOString());
  expect(invite.end.getTime() - invite.start.getTime()).toBe(60 * 60 * 1000);
}
