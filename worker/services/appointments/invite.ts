import { firm as firmCode } from '#core/content/firm';
import { NO_PREFERRED_TIME, type BookingTimeSlot } from '#core/content/booking';
import type { appointments } from '../../db/schema';
import type { Bindings } from '../../env';
import { slotStartMinutes } from '#core/schemas/appointments';
import { longDate, timeZoneLabel } from '#core/firm-time';
import { firmAddressLine, type FirmFacts } from '#core/content/firm-facts';
import { appointmentRef } from './links';
import { calendarLinks, type CalendarLinks } from './calendar-links';
import { buildInvite } from './ics';
import { bytesToBase64 } from '#core/encoding';

// What an appointment's e-mails (./emails.ts) and the firm's calendar feed (./calendar-feed.ts) say
// of it: its day and time in words, and its calendar event (RFC 5545/5546): one UID per appointment
// for its whole life, SEQUENCE = appointments.sequence (bumped by every change), METHOD:REQUEST for
// the booking, a confirmation, a reschedule and the reminder, METHOD:CANCEL with STATUS:CANCELLED
// for a cancellation.

/** The firm's calendar zone: code, not content (docs/decisions/0013-content-as-a-versioned-document.md). */
const timeZone = firmCode.timeZone;

/**
 * The columns of a booking (appointments) the booking e-mails show. A booking not inserted yet (its
 * e-mails are queued in the batch that inserts it) has its public id for its id (appointmentRef):
 * the invite's UID and the links name it by that. The firm's notifications name it by its service,
 * day, time and visitor, as the admin's appointment list shows it, never by its numeric id.
 */
export type MailedAppointment = Pick<
  typeof appointments.$inferSelect,
  'name' | 'email' | 'phone' | 'serviceType' | 'date' | 'timeSlot' | 'notes' | 'status'
> & { id: number | string } & Partial<
    // The stored row always has both: sequence 0 is a first invite, a null public id an older row.
    Pick<typeof appointments.$inferSelect, 'sequence' | 'publicId'>
  >;

/** "Monday, November 23, 2026 at 10:00 AM Eastern Time", or "Monday, November 23, 2026 (No preferred time)". */
export const appointmentWhen = (a: Pick<MailedAppointment, 'date' | 'timeSlot'>, timeZone: string) =>
  a.timeSlot === null ? `${longDate(a.date)} (${NO_PREFERRED_TIME})` : `${longDate(a.date)} at ${a.timeSlot} ${timeZoneLabel(timeZone)}`;

/** An appointment with a time: only these have an invite and self-service links. */
export type TimedAppointment = MailedAppointment & { timeSlot: string };

export const hasTime = <T extends Pick<MailedAppointment, 'timeSlot'>>(a: T): a is T & { timeSlot: string } => a.timeSlot !== null;

export const inviteStatus = { requested: 'TENTATIVE', confirmed: 'CONFIRMED', cancelled: 'CANCELLED' } as const;

/**
 * One UID for the appointment's whole life (its invites and the firm's calendar feed): its public
 * id, or its numeric id for rows stored before it.
 */
export const appointmentUid = (env: Pick<Bindings, 'SITE_URL'>, a: Pick<MailedAppointment, 'id' | 'publicId'>) =>
  `appointment-${appointmentRef(a)}@${new URL(env.SITE_URL).hostname}`;

/**
 * The appointment's calendar invite as it stands: METHOD:CANCEL (STATUS:CANCELLED) once cancelled,
 * else METHOD:REQUEST with TENTATIVE (requested) or CONFIRMED; same UID always, SEQUENCE from the row.
 * Every caller passes the row as selected, public_id included, so the UID never changes.
 */
export function appointmentInvite(env: Pick<Bindings, 'SITE_URL'>, firm: FirmFacts, a: TimedAppointment, now?: Date): string {
  const status = inviteStatus[a.status];
  return buildInvite({
    uid: appointmentUid(env, a),
    date: a.date,
    startMinutes: slotStartMinutes(a.timeSlot as BookingTimeSlot),
    // Slots are an hour apart (docs/product.md §3), so an appointment holds its hour.
    durationMinutes: 60,
    timeZone,
    summary: `${a.serviceType} consultation with ${firm.name}`,
    description: `${a.serviceType} consultation${status === 'TENTATIVE' ? ' (requested; we will contact you within 24 hours to confirm)' : status === 'CANCELLED' ? ' (cancelled)' : ''}.\nQuestions: ${firm.contact.phone} or ${firm.contact.email}.`,
    location: `${firm.name}, ${firmAddressLine(firm)}`,
    organizerName: firm.name,
    organizerEmail: firm.contact.email,
    // The address, not the visitor's name: the invite goes to the visitor's unverified address.
    attendee: { name: a.email, email: a.email },
    status,
    method: status === 'CANCELLED' ? 'CANCEL' : 'REQUEST',
    sequence: a.sequence ?? 0,
    now,
  });
}

/** "Add to Google Calendar" and "Outlook" links for the invite's event (its hour, in UTC). */
export function appointmentCalendarLinks(firm: FirmFacts, a: TimedAppointment): CalendarLinks {
  return calendarLinks({
    date: a.date,
    startMinutes: slotStartMinutes(a.timeSlot as BookingTimeSlot),
    durationMinutes: 60,
    timeZone,
    title: `${a.serviceType} consultation with ${firm.name}`,
    details: `${a.serviceType} consultation. Questions: ${firm.contact.phone} or ${firm.contact.email}.`,
    location: `${firm.name}, ${firmAddressLine(firm)}`,
  });
}

/** The invite as an e-mail attachment: REQUEST, or CANCEL once cancelled. */
export function inviteAttachment(env: Bindings, firm: FirmFacts, a: TimedAppointment) {
  const method = a.status === 'cancelled' ? 'CANCEL' : 'REQUEST';
  return {
    filename: a.status === 'cancelled' ? 'cancellation.ics' : 'appointment.ics',
    contentType: `text/calendar; charset=utf-8; method=${method}`,
    content: bytesToBase64(new TextEncoder().encode(appointmentInvite(env, firm, a))),
  };
}
