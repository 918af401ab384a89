// The admin's CSV exports (subscribers, appointments, contact messages), built in the browser from
// the loaded lists. One writer for all three and the audit trail's export (core/csv.ts), so they
// share RFC 4180 quoting and formula neutralising. Pure: no DOM here, so it is unit-tested in Node (tests/admin/admin-csv.web.test.ts, tests/newsletter/subscribers-csv.web.test.ts).

import { NO_PREFERRED_TIME } from '#core/content/booking';
import { firm } from '#core/content/firm';
import type { ContactMessage } from '../api/admin-api';

// The writer itself is the kernel's (core/csv.ts), shared with the worker's audit export.
import { buildCsv } from '#core/csv';
export { buildCsv, neutraliseFormula, quoteCsvField } from '#core/csv';

// Dates are written as the firm (in its time zone) saw them, YYYY-MM-DD and 24-hour HH:mm: they
// sort and import cleanly whatever the admin's laptop says.
const firmParts = new Intl.DateTimeFormat('en-CA', {
  timeZone: firm.timeZone,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

function firmDateParts(value: string) {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return null;
  const part = Object.fromEntries(firmParts.formatToParts(date).map((p) => [p.type, p.value]));
  return { day: `${part.year}-${part.month}-${part.day}`, time: `${part.hour}:${part.minute}` };
}

/** An ISO instant as the firm's calendar day YYYY-MM-DD, or the raw value if it is not a date. */
export function csvFirmDay(value: string): string {
  return firmDateParts(value)?.day ?? value;
}

/** An ISO instant as the firm's 'YYYY-MM-DD HH:mm', or the raw value if it is not a date. */
export function csvFirmDateTime(value: string): string {
  const parts = firmDateParts(value);
  return parts ? `${parts.day} ${parts.time}` : value;
}

/** `<prefix>-YYYY-MM-DD.csv` with the local calendar date of `now`. */
export function csvFileName(prefix: string, now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${prefix}-${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}.csv`;
}

export interface CsvAppointment {
  id: number;
  date: string;
  timeSlot: string | null;
  serviceType: string;
  name: string;
  email: string;
  phone: string | null;
  status: string;
  notes: string | null;
  createdAt: string;
}

export const APPOINTMENT_CSV_COLUMNS = ['ID', 'Date', 'Time', 'Service', 'Name', 'Email', 'Phone', 'Status', 'Notes', 'Requested At'] as const;

/** Appointments in the given order (the caller sorts), one line each. */
export function buildAppointmentsCsv(appointments: readonly CsvAppointment[]): string {
  return buildCsv(
    APPOINTMENT_CSV_COLUMNS,
    appointments.map((a) => [
      String(a.id),
      a.date,
      a.timeSlot ?? NO_PREFERRED_TIME,
      a.serviceType,
      a.name,
      a.email,
      a.phone,
      a.status,
      a.notes,
      csvFirmDateTime(a.createdAt),
    ]),
  );
}

/** The fields of the inbox's message (the admin API's own type) that the export writes. */
export type CsvContactMessage = Pick<ContactMessage, 'id' | 'createdAt' | 'name' | 'email' | 'phone' | 'message' | 'readAt'>;

export const CONTACT_MESSAGE_CSV_COLUMNS = ['ID', 'Received', 'Name', 'Email', 'Phone', 'Message', 'Read'] as const;

/** Contact messages in the given order (the inbox's: newest first), one line each. */
export function buildContactMessagesCsv(messages: readonly CsvContactMessage[]): string {
  return buildCsv(
    CONTACT_MESSAGE_CSV_COLUMNS,
    messages.map((m) => [String(m.id), csvFirmDateTime(m.createdAt), m.name, m.email, m.phone, m.message, m.readAt ? 'Yes' : 'No']),
  );
}
