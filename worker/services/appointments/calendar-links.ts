import { zonedToUtc } from './ics';

/**
 * "Add to Google Calendar" and "Outlook" links for an appointment (docs/product.md §3, §7), beside
 * the .ics invite for visitors whose mail app does not offer to add it: the event's start and end
 * as UTC instants, so the calendar shows it in the reader's own zone.
 */
export interface CalendarLinks {
  google: string;
  outlook: string;
}

/** 20260715T140000Z, as Google's `dates` wants it. */
const googleInstant = (at: Date) => at.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
/** 2026-07-15T14:00:00Z, as Outlook's `startdt` and `enddt` want it. */
const isoInstant = (at: Date) => at.toISOString().replace(/\.\d{3}/, '');

const query = (params: Record<string, string>) =>
  Object.entries(params)
    .map(([key, value]) => `${key}=${encodeURIComponent(value)}`)
    .join('&');

export function calendarLinks(event: {
  date: string;
  startMinutes: number;
  durationMinutes: number;
  timeZone: string;
  title: string;
  details: string;
  location: string;
}): CalendarLinks {
  const start = zonedToUtc(event.date, event.startMinutes, event.timeZone);
  const end = new Date(start.getTime() + event.durationMinutes * 60_000);
  return {
    google: `https://calendar.google.com/calendar/render?${query({
      action: 'TEMPLATE',
      text: event.title,
      dates: `${googleInstant(start)}/${googleInstant(end)}`,
      details: event.details,
      location: event.location,
    })}`,
    outlook: `https://outlook.live.com/calendar/0/deeplink/compose?${query({
      subject: event.title,
      startdt: isoInstant(start),
      enddt: isoInstant(end),
      body: event.details,
      location: event.location,
    })}`,
  };
}
