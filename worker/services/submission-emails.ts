import { firm, firmAddressLine } from '../../web/content/firm';
import type { BookingTimeSlot } from '../../web/content/booking';
import type { appointments, contactMessages } from '../db/schema';
import type { Bindings } from '../env';
import { slotStartMinutes } from '../schemas/appointments';
import { sendEmail } from './email/send-email';
import type { EmailTransport, OutgoingEmail, SendOutcome } from './email/types';
import { timeZoneLabel } from './firm-time';
import { buildInvite, toBase64 } from './ics';

// The e-mails the two public forms cause: the firm's notification of a contact message, the
// visitor's booking confirmation (with an .ics invite), the firm's booking notification, and the
// visitor's notice when the admin confirms or cancels. Visitor text goes into bodies only, escaped
// for HTML; header fields (subject, names) are flattened to one line.

/** The columns of a stored contact message (contact_messages) the firm's notification shows. */
export type MailedContactMessage = Pick<typeof contactMessages.$inferSelect, 'id' | 'name' | 'email' | 'phone' | 'message' | 'createdAt'>;

/** The columns of a stored booking (appointments) the booking e-mails show. */
export type MailedAppointment = Pick<
  typeof appointments.$inferSelect,
  'id' | 'name' | 'email' | 'phone' | 'serviceType' | 'date' | 'timeSlot' | 'notes' | 'status'
>;

/** Where the firm's notifications go: the firm's address, the one on the site (web/content/firm.ts). */
export const firmNotificationAddress = firm.contact.email;

const oneLine = (value: string, max = 120) => value.replace(/[\r\n\t]+/g, ' ').replace(/\s{2,}/g, ' ').trim().slice(0, max);

export function escapeHtml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** "Monday, November 23, 2026" for a YYYY-MM-DD calendar day (no zone shift). */
export function longDate(date: string): string {
  const [y, m, d] = date.split('-').map(Number);
  return new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', weekday: 'long', year: 'numeric', month: 'long', day: 'numeric' }).format(
    new Date(Date.UTC(y, m - 1, d)),
  );
}

/** "Monday, November 23, 2026 at 10:00 AM Eastern Time" */
export const appointmentWhen = (a: Pick<MailedAppointment, 'date' | 'timeSlot'>, timeZone: string) =>
  `${longDate(a.date)} at ${a.timeSlot} ${timeZoneLabel(timeZone)}`;

function htmlDocument(title: string, paragraphs: string[], rows: [string, string][] = []): string {
  const table = rows.length
    ? `<table cellpadding="6" style="border-collapse:collapse;margin:16px 0">${rows
        .map(([k, v]) => `<tr><th align="left" style="color:#475569;vertical-align:top">${escapeHtml(k)}</th><td style="white-space:pre-wrap">${escapeHtml(v)}</td></tr>`)
        .join('')}</table>`
    : '';
  return `<!doctype html><html><body style="font-family:Arial,Helvetica,sans-serif;color:#0f172a;line-height:1.5">
<h1 style="font-size:20px;color:#0f2a4a">${escapeHtml(title)}</h1>
${paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}
${table}
<p style="color:#475569;font-size:13px">${escapeHtml(firm.name)} &middot; ${escapeHtml(firmAddressLine)} &middot; ${escapeHtml(firm.contact.phone)}</p>
</body></html>`;
}

const textRows = (rows: [string, string][]) => rows.map(([k, v]) => `${k}: ${v}`).join('\n');
const signature = `${firm.name}\n${firmAddressLine}\n${firm.contact.phone} · ${firm.contact.email}`;

export function contactNotificationEmail(message: MailedContactMessage): OutgoingEmail {
  const rows: [string, string][] = [
    ['Name', message.name],
    ['Email', message.email],
    ['Phone', message.phone ?? '(not given)'],
    ['Received', message.createdAt.toISOString()],
    ['Message', message.message],
  ];
  return {
    kind: 'contact-notification',
    to: firmNotificationAddress,
    toName: firm.name,
    replyTo: message.email,
    subject: oneLine(`New contact message from ${message.name}`),
    text: `A visitor sent a message through the contact form (message #${message.id}).\n\n${textRows(rows)}\n\nReply to this e-mail to answer ${message.email}.`,
    html: htmlDocument('New contact message', [`A visitor sent a message through the contact form (message #${message.id}).`], rows),
  };
}

function appointmentRows(a: MailedAppointment, timeZone: string): [string, string][] {
  return [
    ['Service', a.serviceType],
    ['When', appointmentWhen(a, timeZone)],
    ['Name', a.name],
    ['Email', a.email],
    ['Phone', a.phone ?? '(not given)'],
    ['Notes', a.notes ?? '(none)'],
  ];
}

function invite(env: Bindings, a: MailedAppointment, status: 'TENTATIVE' | 'CONFIRMED', sequence: number) {
  const ics = buildInvite({
    uid: `appointment-${a.id}@${new URL(env.SITE_URL).hostname}`,
    date: a.date,
    startMinutes: slotStartMinutes(a.timeSlot as BookingTimeSlot),
    // Slots are an hour apart (docs/product.md §3), so an appointment holds its hour.
    durationMinutes: 60,
    timeZone: firm.timeZone,
    summary: `${a.serviceType} consultation with ${firm.name}`,
    description: `${a.serviceType} consultation${status === 'TENTATIVE' ? ' (requested; we will contact you within 24 hours to confirm)' : ''}.\nQuestions: ${firm.contact.phone} or ${firm.contact.email}.`,
    location: `${firm.name}, ${firmAddressLine}`,
    organizerName: firm.name,
    organizerEmail: firm.contact.email,
    status,
    sequence,
  });
  return { filename: 'appointment.ics', contentType: 'text/calendar; charset=utf-8; method=PUBLISH', content: toBase64(ics) };
}

export function appointmentConfirmationEmail(env: Bindings, a: MailedAppointment): OutgoingEmail {
  const when = appointmentWhen(a, firm.timeZone);
  const rows = appointmentRows(a, firm.timeZone);
  const intro = `Thank you, ${oneLine(a.name)}. We have received your request for a ${a.serviceType} appointment on ${when}.`;
  const next = `${firm.confirmationPromise} The attached invite adds the time to your calendar.`;
  return {
    kind: 'appointment-confirmation',
    to: a.email,
    toName: oneLine(a.name, 80),
    replyTo: firm.contact.email,
    subject: `Your appointment request with ${firm.name}: ${longDate(a.date)}, ${a.timeSlot}`,
    text: `${intro}\n\n${next}\n\n${textRows(rows)}\n\n${signature}`,
    html: htmlDocument('Appointment request received', [intro, next], rows),
    attachments: [invite(env, a, 'TENTATIVE', 0)],
  };
}

export function appointmentNotificationEmail(a: MailedAppointment): OutgoingEmail {
  const rows = appointmentRows(a, firm.timeZone);
  const intro = `New appointment request #${a.id}. Please confirm it with the visitor within 24 hours.`;
  return {
    kind: 'appointment-notification',
    to: firmNotificationAddress,
    toName: firm.name,
    replyTo: a.email,
    subject: oneLine(`New appointment request: ${a.serviceType}, ${a.date} ${a.timeSlot}, ${a.name}`, 160),
    text: `${intro}\n\n${textRows(rows)}`,
    html: htmlDocument('New appointment request', [intro], rows),
  };
}

export function appointmentStatusEmail(env: Bindings, a: MailedAppointment): OutgoingEmail {
  const when = appointmentWhen(a, firm.timeZone);
  const rows = appointmentRows(a, firm.timeZone);
  const confirmed = a.status === 'confirmed';
  const intro = confirmed
    ? `Good news, ${oneLine(a.name)}: your ${a.serviceType} appointment on ${when} is confirmed. The attached invite updates your calendar.`
    : `${oneLine(a.name)}, your ${a.serviceType} appointment on ${when} has been cancelled. To choose another time, reply to this e-mail, call ${firm.contact.phone} or book again on our website.`;
  return {
    kind: 'appointment-status',
    to: a.email,
    toName: oneLine(a.name, 80),
    replyTo: firm.contact.email,
    subject: `${confirmed ? 'Appointment confirmed' : 'Appointment cancelled'}: ${longDate(a.date)}, ${a.timeSlot}`,
    text: `${intro}\n\n${textRows(rows)}\n\n${signature}`,
    html: htmlDocument(confirmed ? 'Appointment confirmed' : 'Appointment cancelled', [intro], rows),
    attachments: confirmed ? [invite(env, a, 'CONFIRMED', 1)] : undefined,
  };
}

/**
 * Sends after the record is safely stored. Never throws: a broken mail path (even a broken e-mail
 * log) is logged and the visitor's request still succeeds.
 */
export async function sendAfterStoring(env: Bindings, messages: OutgoingEmail[], transport?: EmailTransport): Promise<(SendOutcome | null)[]> {
  const results = await Promise.allSettled(messages.map((m) => (transport ? sendEmail(env, m, transport) : sendEmail(env, m))));
  return results.map((result, i) => {
    if (result.status === 'fulfilled') {
      if (!result.value.ok) console.error('E-mail not sent', messages[i].kind, result.value.error);
      return result.value;
    }
    console.error('E-mail failed', messages[i].kind, result.reason);
    return null;
  });
}
