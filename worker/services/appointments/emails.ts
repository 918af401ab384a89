import { firm as firmCode } from '#core/content/firm';
import { NO_PREFERRED_TIME } from '#core/content/booking';
import type { Bindings } from '../../env';
import type { OutgoingEmail } from '../../mail-types';
import { timeZoneAbbreviation } from '#core/firm-time';
import { withArticle } from '#core/words';
import { firmAddressLine, type FirmFacts } from '#core/content/firm-facts';
import { escapeHtml } from '../platform/html';
import { framedHtml, oneLine, signature, textRows } from '../email/frame';
import type { AppointmentLinks } from './links';
import type { CalendarLinks } from './calendar-links';
import { appointmentCalendarLinks, appointmentWhen, hasTime, inviteAttachment, type MailedAppointment } from './invite';
import { longDate } from '#core/firm-time';

// The e-mails of an appointment (docs/product.md §3), built on the shared frame
// (worker/services/email/frame.ts): the visitor's booking confirmation (with an .ics invite), the
// firm's booking notification, the visitor's notice when the admin confirms or cancels, and the
// appointment's later life: the visitor's own cancel and reschedule and the reminder the day before.
// Visitor text goes into bodies only, escaped for HTML; header fields (subject, names) are
// flattened to one line. The visitor's own e-mails carry no text the visitor chose (name, notes):
// they go to an address nobody has verified, and whatever a visitor types would otherwise be sent,
// signed as the firm, to anyone. The firm's notifications keep every field.
//
// The calendar event each carries is ./invite.ts's. Every e-mail sent after a change carries fresh
// self-service links: the change voided the older ones.
//
// What they say about the firm (its name, address, phone, e-mail, promise) is the published content
// document's (worker/services/content/published.ts), passed in as `firm`: the builders stay pure.
// Every such text is escaped in HTML and in the invite (ics.ts) like any other text.

/** The firm's calendar zone: code, not content (docs/decisions/0013-content-as-a-versioned-document.md). */
const timeZone = firmCode.timeZone;

/** Where the firm's notifications go: the firm's address, the one the published site shows. */
const firmAddress = (firm: FirmFacts) => firm.contact.email;

/** A slot with its zone's label, "10:00 AM ET", or "No preferred time": a subject's time names its zone too. */
const slotWithZone = (a: Pick<MailedAppointment, 'timeSlot'>) => (a.timeSlot === null ? NO_PREFERRED_TIME : `${a.timeSlot} ${timeZoneAbbreviation(timeZone)}`);

/** The day and slot as subjects show them: "Monday, November 23, 2026, 10:00 AM ET". */
const subjectWhen = (a: Pick<MailedAppointment, 'date' | 'timeSlot'>) => `${longDate(a.date)}, ${slotWithZone(a)}`;

/** The self-service links as HTML: two plain anchors, the URLs escaped. */
const linksHtml = (links: AppointmentLinks | undefined) =>
  links
    ? `<p>Need to change your plans? <a href="${escapeHtml(links.rescheduleUrl)}" style="color:#0f4c81">Reschedule</a> or <a href="${escapeHtml(links.cancelUrl)}" style="color:#0f4c81">cancel this appointment</a>.</p>`
    : '';

const linksText = (links: AppointmentLinks | undefined) =>
  links ? `\n\nNeed to change your plans?\nReschedule: ${links.rescheduleUrl}\nCancel: ${links.cancelUrl}` : '';

/** The add-to-calendar links as HTML (the URLs escaped), beside the attached invite. */
const calendarHtml = (calendar: CalendarLinks | undefined) =>
  calendar
    ? `<p>Add it to your calendar: <a href="${escapeHtml(calendar.google)}" style="color:#0f4c81">Add to Google Calendar</a> &middot; <a href="${escapeHtml(calendar.outlook)}" style="color:#0f4c81">Outlook</a> (or open the attached invite).</p>`
    : '';

const calendarText = (calendar: CalendarLinks | undefined) =>
  calendar ? `\n\nAdd it to your calendar (or open the attached invite):\nAdd to Google Calendar: ${calendar.google}\nOutlook: ${calendar.outlook}` : '';

function appointmentHtml(firm: FirmFacts, title: string, paragraphs: string[], rows: [string, string][] = [], links?: AppointmentLinks, calendar?: CalendarLinks): string {
  const blocks = [calendarHtml(calendar), linksHtml(links)].filter(Boolean).map((html) => ({ html, text: '' }));
  return framedHtml(firm, { title, paragraphs, rows, blocks });
}

/** The details the visitor's own e-mails show: only what the firm chose or validated (no name, no notes). */
function visitorAppointmentRows(a: MailedAppointment, timeZone: string): [string, string][] {
  return [
    ['Service', a.serviceType],
    ['When', appointmentWhen(a, timeZone)],
    ['Email', a.email],
    ['Phone', a.phone ?? '(not given)'],
  ];
}

/** Every detail of the booking, for the firm. */
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

/**
 * An e-mail to the visitor about their appointment: the paragraphs, the appointment's details, the
 * self-service links when given, the signature, and the invite (REQUEST, or CANCEL once cancelled)
 * when it has a time: a request without one has no event to put in a calendar yet.
 */
function visitorAppointmentEmail(
  env: Bindings,
  firm: FirmFacts,
  a: MailedAppointment,
  mail: { kind: OutgoingEmail['kind']; subject: string; title: string; paragraphs: string[]; links?: AppointmentLinks },
): OutgoingEmail {
  const rows = visitorAppointmentRows(a, timeZone);
  // Beside an invite that adds or updates the event (not a cancellation): the same event as links.
  const calendar = hasTime(a) && a.status !== 'cancelled' ? appointmentCalendarLinks(firm, a) : undefined;
  return {
    kind: mail.kind,
    to: a.email,
    replyTo: firm.contact.email,
    subject: mail.subject,
    text: `${mail.paragraphs.join('\n\n')}\n\n${textRows(rows)}${calendarText(calendar)}${linksText(mail.links)}\n\n${signature(firm)}`,
    html: appointmentHtml(firm, mail.title, mail.paragraphs, rows, mail.links, calendar),
    ...(hasTime(a) ? { attachments: [inviteAttachment(env, firm, a)] } : {}),
  };
}

export function appointmentConfirmationEmail(env: Bindings, firm: FirmFacts, a: MailedAppointment, links?: AppointmentLinks): OutgoingEmail {
  if (!hasTime(a)) {
    // No time yet: no invite and no links (they expire at the start); both come with the
    // confirmation once the firm has picked the time (worker/routes/admin/appointments.ts).
    return visitorAppointmentEmail(env, firm, a, {
      kind: 'appointment-confirmation',
      subject: `Your appointment request with ${firm.name}: ${longDate(a.date)}`,
      title: 'Appointment request received',
      paragraphs: [
        `Thank you. We have received your request for ${withArticle(a.serviceType)} appointment on ${longDate(a.date)}, with no preferred time.`,
        `We will confirm a time with you within 24 hours, and send your calendar invite with that confirmation.`,
      ],
    });
  }
  const when = appointmentWhen(a, timeZone);
  const intro = `Thank you. We have received your request for ${withArticle(a.serviceType)} appointment on ${when}.`;
  const next = `${firm.confirmationPromise} The attached invite adds the time to your calendar.`;
  return visitorAppointmentEmail(env, firm, a, {
    kind: 'appointment-confirmation',
    subject: `Your appointment request with ${firm.name}: ${subjectWhen(a)}`,
    title: 'Appointment request received',
    paragraphs: [intro, next],
    links,
  });
}

export function appointmentNotificationEmail(firm: FirmFacts, a: MailedAppointment): OutgoingEmail {
  const rows = appointmentRows(a, timeZone);
  const intro = hasTime(a)
    ? `New appointment request. Please confirm it with the visitor within 24 hours.`
    : `New appointment request, with no preferred time: it holds no slot yet. Please pick a free time when you confirm it (within 24 hours); the visitor gets the invite then.`;
  return {
    kind: 'appointment-notification',
    to: firmAddress(firm),
    toName: firm.name,
    replyTo: a.email,
    subject: oneLine(`New appointment request: ${a.serviceType}, ${a.date} ${slotWithZone(a)}, ${a.name}`, 160),
    text: `${intro}\n\n${textRows(rows)}`,
    html: appointmentHtml(firm, 'New appointment request', [intro], rows),
  };
}

/** The admin confirmed (new links, REQUEST) or cancelled (CANCEL) the appointment. */
export function appointmentStatusEmail(env: Bindings, firm: FirmFacts, a: MailedAppointment, links?: AppointmentLinks): OutgoingEmail {
  const when = appointmentWhen(a, timeZone);
  const confirmed = a.status === 'confirmed';
  const intro = confirmed
    ? `Good news: your ${a.serviceType} appointment on ${when} is confirmed. The attached invite updates your calendar.`
    : `Your ${a.serviceType} ${hasTime(a) ? 'appointment' : 'appointment request'} on ${when} has been cancelled. To choose another time, reply to this e-mail, call ${firm.contact.phone} or book again on our website.`;
  const title = confirmed ? 'Appointment confirmed' : 'Appointment cancelled';
  return visitorAppointmentEmail(env, firm, a, {
    kind: 'appointment-status',
    subject: `${title}: ${subjectWhen(a)}`,
    title,
    paragraphs: [intro],
    links: confirmed ? links : undefined,
  });
}

/** The visitor cancelled through their link: the notice, with the CANCEL that removes the event. */
export function appointmentCancelledByVisitorEmail(env: Bindings, firm: FirmFacts, a: MailedAppointment): OutgoingEmail {
  const when = appointmentWhen(a, timeZone);
  const intro = `As you asked, your ${a.serviceType} appointment on ${when} is cancelled. The attached update removes it from your calendar.`;
  const next = `To choose another time, book again on our website or call ${firm.contact.phone}.`;
  return visitorAppointmentEmail(env, firm, a, {
    kind: 'appointment-status',
    subject: `Appointment cancelled: ${subjectWhen(a)}`,
    title: 'Appointment cancelled',
    paragraphs: [intro, next],
  });
}

/** The visitor moved their appointment: the updated confirmation (REQUEST, same UID, new SEQUENCE). */
export function appointmentRescheduledEmail(
  env: Bindings,
  firm: FirmFacts,
  a: MailedAppointment,
  previous: Pick<MailedAppointment, 'date' | 'timeSlot'>,
  links: AppointmentLinks,
): OutgoingEmail {
  const intro = `Your ${a.serviceType} appointment has moved from ${appointmentWhen(previous, timeZone)} to ${appointmentWhen(a, timeZone)}.`;
  const next = `${firm.confirmationPromise} The attached invite updates the event in your calendar.`;
  return visitorAppointmentEmail(env, firm, a, {
    kind: 'appointment-confirmation',
    subject: `Your appointment with ${firm.name} has moved: ${subjectWhen(a)}`,
    title: 'Appointment rescheduled',
    paragraphs: [intro, next],
    links,
  });
}

/** Tells the firm the visitor cancelled or moved an appointment through their link. */
export function appointmentChangeNotificationEmail(
  firm: FirmFacts,
  a: MailedAppointment,
  change: { kind: 'cancelled' } | { kind: 'rescheduled'; previous: Pick<MailedAppointment, 'date' | 'timeSlot'> },
): OutgoingEmail {
  const rows = appointmentRows(a, timeZone);
  const intro =
    change.kind === 'cancelled'
      ? `The visitor cancelled their appointment on ${appointmentWhen(a, timeZone)}. The slot is free again.`
      : `The visitor moved their appointment from ${appointmentWhen(change.previous, timeZone)} to ${appointmentWhen(a, timeZone)}. It is a request again: please confirm it within 24 hours. The old slot is free.`;
  const title = change.kind === 'cancelled' ? 'Appointment cancelled by the visitor' : 'Appointment rescheduled by the visitor';
  return {
    kind: 'appointment-notification',
    to: firmAddress(firm),
    toName: firm.name,
    replyTo: a.email,
    subject: oneLine(`${title}: ${a.serviceType}, ${a.date} ${slotWithZone(a)}, ${a.name}`, 160),
    text: `${intro}\n\n${textRows(rows)}`,
    html: appointmentHtml(firm, title, [intro], rows),
  };
}

/** The reminder before an active appointment (worker/services/appointments/reminders.ts), with the invite and both links. */
export function appointmentReminderEmail(env: Bindings, firm: FirmFacts, a: MailedAppointment, links: AppointmentLinks): OutgoingEmail {
  const when = appointmentWhen(a, timeZone);
  const intro = `This is a reminder of your ${a.serviceType} appointment with ${firm.name} on ${when}${a.status === 'requested' ? ' (requested; we will confirm it with you)' : ''}.`;
  const next = `We are at ${firmAddressLine(firm)}. If you cannot come, please reschedule or cancel with the links below so someone else can have the time.`;
  return visitorAppointmentEmail(env, firm, a, {
    kind: 'appointment-reminder',
    subject: `Reminder: your appointment with ${firm.name}, ${subjectWhen(a)}`,
    title: 'Appointment reminder',
    paragraphs: [intro, next],
    links,
  });
}
