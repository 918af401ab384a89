// The subscriber export of docs/product.md §6.3, built in the browser from the loaded list. Pure:
// no DOM here, so it is unit-tested in Node (tests/web/subscribers-csv.test.ts).

import { firm } from '../../../content/firm';

export interface CsvSubscriber {
  email: string;
  name: string | null;
  subscriptionDate: string;
  active: string;
}

export const SUBSCRIBER_CSV_COLUMNS = ['Email', 'Name', 'Subscription Date', 'Status'] as const;

/**
 * A spreadsheet treats a cell starting with = + - @ (or a tab / carriage return that it strips
 * before them) as a formula; prefixing a single quote keeps it text (OWASP "CSV injection").
 */
export function neutraliseFormula(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/** RFC 4180: quote a field holding a comma, a double quote, CR or LF; double the quotes inside. */
export function quoteCsvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

const csvCell = (value: string) => quoteCsvField(neutraliseFormula(value));

// The day the firm (in its time zone) saw the sign-up, as YYYY-MM-DD: sorts and imports cleanly.
const firmDay = new Intl.DateTimeFormat('en-CA', { timeZone: firm.timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });

/** The subscription date as YYYY-MM-DD, or the raw value if it is not a date. */
function csvDate(value: string): string {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : firmDay.format(date);
}

/** The whole CSV, header first, CRLF line breaks (RFC 4180), every subscriber included. */
export function buildSubscribersCsv(subscribers: readonly CsvSubscriber[]): string {
  const lines = [SUBSCRIBER_CSV_COLUMNS.join(',')];
  for (const s of subscribers) {
    lines.push(
      [s.email, s.name ?? '', csvDate(s.subscriptionDate), s.active === 'true' ? 'Active' : 'Inactive'].map(csvCell).join(','),
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}

/** subscribers-YYYY-MM-DD.csv with the local calendar date of `now`. */
export function subscribersCsvFileName(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `subscribers-${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}.csv`;
}
