// RFC 5545 calendar invites for appointments. Times are written as local times with the firm's
// TZID (firm.timeZone, core/content/firm.ts) plus the matching VTIMEZONE, so every calendar shows
// the slot at the firm's wall-clock time, whatever the reader's own zone (and across daylight-saving
// changes). A zone without an entry below falls back to UTC times, which every calendar reads but
// which lose the zone's name; tests/appointments/appointments.worker.test.ts fails while the firm's zone has none.

import { cachedFormat } from '#core/firm-time';

const CRLF = '\r\n';

/** VTIMEZONE definitions we can emit, by IANA zone id. US Eastern rules since 2007 (Energy Policy Act of 2005). */
const VTIMEZONES: Record<string, readonly string[]> = {
  'America/New_York': [
    'BEGIN:VTIMEZONE',
    'TZID:America/New_York',
    'X-LIC-LOCATION:America/New_York',
    'BEGIN:DAYLIGHT',
    'TZOFFSETFROM:-0500',
    'TZOFFSETTO:-0400',
    'TZNAME:EDT',
    'DTSTART:20070311T020000',
    'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU',
    'END:DAYLIGHT',
    'BEGIN:STANDARD',
    'TZOFFSETFROM:-0400',
    'TZOFFSETTO:-0500',
    'TZNAME:EST',
    'DTSTART:20071104T020000',
    'RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU',
    'END:STANDARD',
    'END:VTIMEZONE',
  ],
};

/** The VTIMEZONE lines for a zone, or undefined when this module carries none for it. */
export const vtimezoneFor = (timeZone: string): readonly string[] | undefined => (Object.hasOwn(VTIMEZONES, timeZone) ? VTIMEZONES[timeZone] : undefined);

export interface InviteEvent {
  uid: string;
  /** Calendar day YYYY-MM-DD in `timeZone`. */
  date: string;
  /** Minutes after local midnight. */
  startMinutes: number;
  durationMinutes: number;
  timeZone: string;
  summary: string;
  description: string;
  location: string;
  organizerName: string;
  organizerEmail: string;
  status: 'TENTATIVE' | 'CONFIRMED' | 'CANCELLED';
  /**
   * iTIP method (RFC 5546): REQUEST for a new or changed event, CANCEL (with STATUS:CANCELLED) when
   * it is off. Calendars apply a REQUEST or CANCEL to the event they hold with the same UID when its
   * SEQUENCE is not lower than theirs. PUBLISH (the default) for a plain, attendee-less copy.
   */
  method?: 'PUBLISH' | 'REQUEST' | 'CANCEL';
  /** The person invited (REQUEST and CANCEL must name one, RFC 5546 3.2.2 and 3.2.5). */
  attendee?: { name: string; email: string };
  /** Bumped on every change of the same event (RFC 5545 3.8.7.4). */
  sequence?: number;
  now?: Date;
}

/** TEXT value escaping (RFC 5545 3.3.11): backslash, semicolon, comma and line breaks. */
export function escapeIcsText(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r\n|\r|\n/g, '\\n');
}

/** Folds a content line at 75 octets (RFC 5545 3.1), never inside a UTF-8 character. */
export function foldIcsLine(line: string): string {
  // Most lines are short ASCII: no encoding at all (a UTF-16 unit is at most 3 UTF-8 octets).
  if (line.length * 3 <= 75 || utf8Length(line) <= 75) return line;
  const parts: string[] = [];
  let current = '';
  let currentBytes = 0;
  for (const char of line) {
    const size = utf8Length(char);
    // The first line holds 75 octets; continuation lines start with a space, leaving 74.
    const limit = parts.length === 0 ? 75 : 74;
    if (currentBytes + size > limit) {
      parts.push(current);
      current = '';
      currentBytes = 0;
    }
    current += char;
    currentBytes += size;
  }
  parts.push(current);
  return parts.join(`${CRLF} `);
}

/** The UTF-8 length of a string, counted from its code points (no encoder per character: every booking folds its invite). */
function utf8Length(text: string): number {
  let octets = 0;
  for (const char of text) {
    const code = char.codePointAt(0)!;
    octets += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
  }
  return octets;
}

/** `n` in `width` digits, zero-padded (dates and times in iCalendar and busy-interval keys). */
export const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** 20261123T100000 for a local day and minute of day (rolls over midnight correctly). */
function localDateTime(date: string, minutes: number): string {
  const [y, m, d] = date.split('-').map(Number);
  const at = new Date(Date.UTC(y, m - 1, d, 0, minutes));
  return `${at.getUTCFullYear()}${pad(at.getUTCMonth() + 1)}${pad(at.getUTCDate())}T${pad(at.getUTCHours())}${pad(at.getUTCMinutes())}00`;
}

function utcStamp(at: Date): string {
  return `${at.getUTCFullYear()}${pad(at.getUTCMonth() + 1)}${pad(at.getUTCDate())}T${pad(at.getUTCHours())}${pad(at.getUTCMinutes())}${pad(at.getUTCSeconds())}Z`;
}

const wallClockFormats = new Map<string, Intl.DateTimeFormat>();

/** The UTC instant of a wall-clock time in a zone (DST-aware, through Intl). */
export function zonedToUtc(date: string, minutes: number, timeZone: string): Date {
  const [y, m, d] = date.split('-').map(Number);
  const guess = Date.UTC(y, m - 1, d, 0, minutes);
  const parts = cachedFormat(wallClockFormats, timeZone, {
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    hourCycle: 'h23',
  }).formatToParts(new Date(guess));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const asIfUtc = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'));
  return new Date(guess - (asIfUtc - guess));
}

/**
 * A parameter value (CN) as a quoted string: RFC 5545 allows no DQUOTE or control character in it,
 * so a quote and a line break are written in RFC 6868's caret encoding (^' and ^n, ^ itself as ^^)
 * and any other control character is dropped: a firm name such as `Smith "Tax" CPA` stays whole.
 */
const paramValue = (value: string) =>
  `"${value
    .trim()
    .replace(/\^/g, '^^')
    .replace(/"/g, "^'")
    .replace(/\r\n|\r|\n/g, '^n')
    .replace(/[\x00-\x1f\x7f]/g, '')}"`;

/** The VEVENT lines of one event (unfolded): the invites' and the firm's feed's one builder. */
function veventLines(event: InviteEvent, hasVtimezone: boolean): string[] {
  const end = event.startMinutes + event.durationMinutes;
  const times = hasVtimezone
    ? [`DTSTART;TZID=${event.timeZone}:${localDateTime(event.date, event.startMinutes)}`, `DTEND;TZID=${event.timeZone}:${localDateTime(event.date, end)}`]
    : [`DTSTART:${utcStamp(zonedToUtc(event.date, event.startMinutes, event.timeZone))}`, `DTEND:${utcStamp(zonedToUtc(event.date, end, event.timeZone))}`];
  return [
    'BEGIN:VEVENT',
    `UID:${event.uid}`,
    `DTSTAMP:${utcStamp(event.now ?? new Date())}`,
    ...times,
    `SEQUENCE:${event.sequence ?? 0}`,
    `STATUS:${event.status}`,
    `SUMMARY:${escapeIcsText(event.summary)}`,
    `DESCRIPTION:${escapeIcsText(event.description)}`,
    `LOCATION:${escapeIcsText(event.location)}`,
    `ORGANIZER;CN=${paramValue(event.organizerName)}:mailto:${event.organizerEmail}`,
    ...(event.attendee
      ? [`ATTENDEE;CN=${paramValue(event.attendee.name)};ROLE=REQ-PARTICIPANT;PARTSTAT=ACCEPTED;RSVP=FALSE:mailto:${event.attendee.email}`]
      : []),
    'TRANSP:OPAQUE',
    'END:VEVENT',
  ];
}

/**
 * A complete VCALENDAR of any number of events in one zone (the firm's), METHOD as given, with
 * CRLF line endings. `header` adds calendar properties (the feed's name and refresh interval).
 */
export function buildCalendar(options: {
  prodName: string;
  method: 'PUBLISH' | 'REQUEST' | 'CANCEL';
  timeZone: string;
  events: InviteEvent[];
  header?: string[];
}): string {
  const vtimezone = vtimezoneFor(options.timeZone);
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    `PRODID:-//${escapeIcsText(options.prodName)}//Appointments//EN`,
    'CALSCALE:GREGORIAN',
    `METHOD:${options.method}`,
    ...(options.header ?? []),
    ...(vtimezone ?? []),
    ...options.events.flatMap((event) => veventLines(event, vtimezone !== undefined)),
    'END:VCALENDAR',
  ];
  return lines.map(foldIcsLine).join(CRLF) + CRLF;
}

/** A complete VCALENDAR (one VEVENT, METHOD as given, PUBLISH by default) with CRLF line endings. */
export function buildInvite(event: InviteEvent): string {
  const method = event.method ?? 'PUBLISH';
  if (method === 'CANCEL' && event.status !== 'CANCELLED') throw new Error('A CANCEL carries STATUS:CANCELLED');
  if (method !== 'PUBLISH' && !event.attendee) throw new Error(`METHOD:${method} needs an attendee`);
  return buildCalendar({ prodName: event.organizerName, method, timeZone: event.timeZone, events: [event] });
}

