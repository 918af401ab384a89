import { describe, expect, it } from 'vitest';
import {
  APPOINTMENT_CSV_COLUMNS,
  buildAppointmentsCsv,
  buildContactMessagesCsv,
  buildCsv,
  CONTACT_MESSAGE_CSV_COLUMNS,
  csvFileName,
  csvFirmDateTime,
  type CsvAppointment,
  type CsvContactMessage,
} from '../../web/features/admin/lib/csv';
import { buildSubscribersCsv } from '../../web/features/admin/lib/subscribers-csv';
import { parseCsv } from '../harness/web/csv-reader';

const appointment = (over: Partial<CsvAppointment> = {}): CsvAppointment => ({
  id: 7,
  date: '2026-12-01',
  timeSlot: '10:00 AM',
  serviceType: 'Individual Tax Return',
  name: 'Sam Client',
  email: 'sam@example.com',
  phone: '412-555-0199',
  status: 'confirmed',
  notes: null,
  createdAt: '2026-11-20T15:04:05.000Z',
  ...over,
});

const message = (over: Partial<CsvContactMessage> = {}): CsvContactMessage => ({
  id: 3,
  name: 'Casey',
  email: 'casey@example.com',
  phone: null,
  message: 'Hello',
  createdAt: '2026-11-20T15:04:05.000Z',
  readAt: null,
  ...over,
});

const FORMULAS = ['=HYPERLINK("http://evil")', '+1+1', '-2+3', '@SUM(A1)', '\t=1', '\r=1'];

describe('the one CSV writer', () => {
  it('quotes and neutralises every cell, header included, and writes empty cells for null', () => {
    const csv = buildCsv(['A', 'B,C', '=D'], [['x', null, undefined as unknown as string], ['"q"', 'a\r\nb', '-1']]);
    expect(csv).toBe('"A","B,C","\'=D"\r\n"x","",""\r\n"""q""","a\r\nb","\'-1"\r\n');
  });

  it("neutralises a formula after a ; or , or leading whitespace, where a spreadsheet could start a cell", () => {
    const csv = buildCsv(['H'], [["x;=cmd|' /C calc'!A0"], ['a, +1'], ['  -2']]);
    expect(csv).toBe('"H"\r\n"x;\'=cmd|\' /C calc\'!A0"\r\n"a,\' +1"\r\n"\'  -2"\r\n');
  });

  it('is the writer of the subscribers export too (same quoting, same neutralising)', () => {
    const tricky = '=cmd|"/c calc"!A1, "x"\nnext';
    const subscribers = buildSubscribersCsv([{ email: 'a@example.com', name: tricky, subscriptionDate: '2026-11-20T15:04:05.000Z', active: 'true' }]);
    expect(subscribers).toBe(
      buildCsv(['Email', 'Name', 'Subscription Date', 'Status'], [['a@example.com', tricky, '2026-11-20', 'Active']]),
    );
  });

  it("writes instants as the firm's wall-clock time, across the DST change", () => {
    expect(csvFirmDateTime('2026-11-21T03:00:00.000Z')).toBe('2026-11-20 22:00'); // EST, UTC-5
    expect(csvFirmDateTime('2026-07-01T03:00:00.000Z')).toBe('2026-06-30 23:00'); // EDT, UTC-4
    expect(csvFirmDateTime('2026-07-01T04:00:00.000Z')).toBe('2026-07-01 00:00');
    expect(csvFirmDateTime('not a date')).toBe('not a date');
  });

  it('names files by prefix and local date', () => {
    expect(csvFileName('appointments', new Date(2026, 10, 22, 23, 59))).toBe('appointments-2026-11-22.csv');
    expect(csvFileName('contact-messages', new Date(2027, 0, 5))).toBe('contact-messages-2027-01-05.csv');
  });
});

describe('appointments CSV', () => {
  it('writes the header and one row per appointment in the given order', () => {
    const csv = buildAppointmentsCsv([appointment(), appointment({ id: 8, date: '2026-12-02', timeSlot: '1:00 PM', phone: null, status: 'requested', notes: 'Bring W-2s' })]);
    expect(parseCsv(csv)).toEqual([
      [...APPOINTMENT_CSV_COLUMNS],
      ['7', '2026-12-01', '10:00 AM', 'Individual Tax Return', 'Sam Client', 'sam@example.com', '412-555-0199', 'confirmed', '', '2026-11-20 10:04'],
      ['8', '2026-12-02', '1:00 PM', 'Individual Tax Return', 'Sam Client', 'sam@example.com', '', 'requested', 'Bring W-2s', '2026-11-20 10:04'],
    ]);
    expect(csv.startsWith('"ID","Date","Time","Service","Name","Email","Phone","Status","Notes","Requested At"\r\n')).toBe(true);
  });

  it('quotes commas, quotes and line breaks in notes and names, and parses back to the same cells', () => {
    const notes = 'Smith, "Jr."\nsecond line';
    const rows = parseCsv(buildAppointmentsCsv([appointment({ name: 'O"Neil, Pat', notes })]));
    expect(rows[1][4]).toBe('O"Neil, Pat');
    expect(rows[1][8]).toBe(notes);
  });

  it.each(FORMULAS)('neutralises a formula in any visitor-written cell %j', (value) => {
    const rows = parseCsv(buildAppointmentsCsv([appointment({ name: value, notes: value, phone: value })]));
    expect([rows[1][4], rows[1][6], rows[1][8]]).toEqual([`'${value}`, `'${value}`, `'${value}`]);
  });
});

describe('contact messages CSV', () => {
  it('writes the header and one row per message with Read Yes / No', () => {
    const csv = buildContactMessagesCsv([message(), message({ id: 4, phone: '412-555-0100', readAt: '2026-11-21T10:00:00.000Z', message: 'Second' })]);
    expect(parseCsv(csv)).toEqual([
      [...CONTACT_MESSAGE_CSV_COLUMNS],
      ['3', '2026-11-20 10:04', 'Casey', 'casey@example.com', '', 'Hello', 'No'],
      ['4', '2026-11-20 10:04', 'Casey', 'casey@example.com', '412-555-0100', 'Second', 'Yes'],
    ]);
  });

  it('keeps a multi-line message with quotes and commas in one cell', () => {
    const text = 'Hi,\r\nI need "help" with\nmy 1040, please.';
    expect(parseCsv(buildContactMessagesCsv([message({ message: text })]))[1][5]).toBe(text);
  });

  it.each(FORMULAS)('neutralises a formula in the name or message %j', (value) => {
    const rows = parseCsv(buildContactMessagesCsv([message({ name: value, message: value })]));
    expect([rows[1][2], rows[1][5]]).toEqual([`'${value}`, `'${value}`]);
  });
});
