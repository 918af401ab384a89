import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { defaultContent } from '#core/content/default-content';
import {
  appointmentCancelledByVisitorEmail,
  appointmentConfirmationEmail,
  appointmentReminderEmail,
  appointmentStatusEmail,
} from '../../worker/services/appointments/emails';
import type { MailedAppointment } from '../../worker/services/appointments/invite';
import { escapeHtml } from '../../worker/services/platform/html';

// docs/product.md §7: the visitor's e-mails state the firm's zone and, beside the .ics invite,
// carry "Add to Google Calendar" and "Outlook" links for the same hour (UTC instants), in the HTML
// part (escaped) and the text part; a cancellation and a request without a time carry none.

const booking: MailedAppointment = {
  id: 7,
  publicId: 'pubid7',
  sequence: 0,
  name: 'Sam Client',
  email: 'sam@example.com',
  phone: null,
  serviceType: 'Payroll Services',
  // 10:00 AM in New York in July is 14:00 UTC.
  date: '2026-07-15',
  timeSlot: '10:00 AM',
  notes: null,
  status: 'requested',
};
const links = { cancelUrl: 'https://example.com/appointment/cancel?token=a.b.c', rescheduleUrl: 'https://example.com/appointment/reschedule?token=a.b.c' };

const google =
  'https://calendar.google.com/calendar/render?action=TEMPLATE&text=Payroll%20Services%20consultation%20with%20';
const partsOf = (mail: { text?: string }) => {
  const googleUrl = /^Add to Google Calendar: (\S+)$/m.exec(mail.text ?? '')?.[1];
  const outlookUrl = /^Outlook: (\S+)$/m.exec(mail.text ?? '')?.[1];
  return { googleUrl, outlookUrl };
};

describe('add-to-calendar links in the visitor’s e-mails', () => {
  it.each([
    ['the booking confirmation', () => appointmentConfirmationEmail(env, defaultContent.firm, booking, links)],
    ['the firm’s confirmation', () => appointmentStatusEmail(env, defaultContent.firm, { ...booking, status: 'confirmed', sequence: 1 }, links)],
    ['the reminder', () => appointmentReminderEmail(env, defaultContent.firm, booking, links)],
  ])('%s carries both links for the invite’s hour, in UTC, escaped in the HTML, and names the zone', (_label, build) => {
    const mail = build();
    expect(mail.attachments?.[0].filename).toBe('appointment.ics');
    const { googleUrl, outlookUrl } = partsOf(mail);
    expect(googleUrl).toMatch(new RegExp(`^${google.replace(/[?.]/g, '\\$&')}`));
    const g = new URL(googleUrl!);
    expect(g.searchParams.get('dates')).toBe('20260715T140000Z/20260715T150000Z');
    expect(g.searchParams.get('location')).toContain('Warrendale');
    expect(g.searchParams.get('details')).toContain('Payroll Services');
    const o = new URL(outlookUrl!);
    expect(o.origin + o.pathname).toBe('https://outlook.live.com/calendar/0/deeplink/compose');
    expect(o.searchParams.get('startdt')).toBe('2026-07-15T14:00:00Z');
    expect(o.searchParams.get('enddt')).toBe('2026-07-15T15:00:00Z');
    expect(o.searchParams.get('subject')).toBe(g.searchParams.get('text'));
    expect(mail.html).toContain(`<a href="${escapeHtml(googleUrl!)}" style="color:#0f4c81">Add to Google Calendar</a>`);
    expect(mail.html).toContain(`<a href="${escapeHtml(outlookUrl!)}" style="color:#0f4c81">Outlook</a>`);
    expect(mail.html).not.toContain('&dates=');
    // The zone is stated with the time.
    expect(mail.text).toContain('10:00 AM Eastern Time');
  });

  it('leaves them out of a cancellation and of a request without a time', () => {
    for (const mail of [
      appointmentCancelledByVisitorEmail(env, defaultContent.firm, { ...booking, status: 'cancelled', sequence: 1 }),
      appointmentConfirmationEmail(env, defaultContent.firm, { ...booking, timeSlot: null }),
    ]) {
      expect(mail.text).not.toContain('Google Calendar');
      expect(mail.html).not.toContain('calendar.google.com');
      expect(mail.html).not.toContain('outlook.live.com');
    }
  });
});
