import { IMPORT_MAX_ROWS, IMPORT_TOO_MANY_ROWS, type ImportRow } from './schemas/subscriber-import';
import { zonedInstant } from './firm-time';

/**
 * Reads a subscriber CSV as Mailchimp, Constant Contact and listmonk export it, or a plain
 * "Email,Name" file: a header row, any column order, RFC 4180 quoting (quoted fields may hold
 * commas, doubled quotes and line breaks), a comma, semicolon or tab separator, a byte-order mark.
 * Used by the admin's import screen (the browser parses, the worker checks each row) and the
 * newsletter benchmark.
 */

/** RFC 4180 records; `lines[i]` is the file line record i starts on (1-based). */
export function parseCsv(text: string, separator = detectSeparator(text)): { records: string[][]; lines: number[] } {
  const records: string[][] = [];
  const lines: number[] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let recordLine = 1;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const endRecord = () => {
    record.push(field);
    field = '';
    if (record.length > 1 || record[0].trim() !== '') {
      records.push(record);
      lines.push(recordLine);
    }
    record = [];
  };
  for (; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else {
        if (ch === '\n') line++;
        field += ch;
      }
    } else if (ch === '"' && field === '') quoted = true;
    else if (ch === separator) {
      record.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      endRecord();
      line++;
      recordLine = line;
    } else field += ch;
  }
  if (field !== '' || record.length) endRecord();
  return { records, lines };
}

function detectSeparator(text: string): string {
  const header = text.slice(0, text.search(/\r|\n|$/));
  const counts = [',', ';', '\t'].map((s) => [s, header.split(s).length] as const);
  return counts.sort((a, b) => b[1] - a[1])[0][0];
}

const norm = (header: string) => header.toLowerCase().replace(/[^a-z0-9]/g, '');

/** Header names each tool writes, normalised (lower case, letters and digits only). */
const COLUMNS = {
  // Mailchimp "Email Address", Constant Contact "Email address", listmonk "email".
  email: ['email', 'emailaddress', 'e-mail', 'mail', 'emailaddr'].map(norm),
  name: ['name', 'fullname', 'subscribername', 'contactname'].map(norm),
  firstName: ['firstname', 'fname', 'givenname'],
  lastName: ['lastname', 'lname', 'surname', 'familyname'],
  // Mailchimp OPTIN_TIME / CONFIRM_TIME, Constant Contact "Created At"/"Email permission date", listmonk created_at.
  consentDate: ['consentdate', 'consentedat', 'optintime', 'confirmtime', 'optindate', 'subscribedat', 'subscriptiondate', 'emailpermissiondate', 'createdat', 'dateadded'],
  source: ['source', 'consentsource', 'signupsource', 'emailupdatesource', 'sourcename', 'leadsource'],
  // Constant Contact "Email permission status", listmonk status.
  status: ['emailpermissionstatus', 'status', 'subscriptionstatus'],
} as const;

export type ColumnMap = { [K in keyof typeof COLUMNS]: number };

/** Which column holds what; -1 for none. Earlier names in each list win (OPTIN_TIME before created_at). */
export function mapColumns(header: string[]): ColumnMap {
  const normalised = header.map(norm);
  const find = (names: readonly string[]) => {
    for (const name of names) {
      const at = normalised.indexOf(name);
      if (at >= 0) return at;
    }
    return -1;
  };
  return Object.fromEntries(Object.entries(COLUMNS).map(([key, names]) => [key, find(names)])) as ColumnMap;
}

export type ParsedImport = { ok: true; rows: ImportRow[]; columns: ColumnMap } | { ok: false; message: string };

/** The file's rows for the import: its header mapped, one row per record with its line number. */
export function readSubscriberCsv(text: string): ParsedImport {
  const { records, lines } = parseCsv(text);
  if (records.length === 0) return { ok: false, message: 'The file is empty' };
  const columns = mapColumns(records[0]);
  if (columns.email < 0) return { ok: false, message: 'No Email column found in the header row' };
  const at = (record: string[], index: number) => (index >= 0 ? (record[index] ?? '').trim() : '');
  const rows = records.slice(1).map((record, i): ImportRow => {
    const name = at(record, columns.name) || [at(record, columns.firstName), at(record, columns.lastName)].filter(Boolean).join(' ');
    const row: ImportRow = { line: lines[i + 1], email: at(record, columns.email).slice(0, 1000) };
    if (name) row.name = name.slice(0, 1000);
    const consentDate = at(record, columns.consentDate);
    if (consentDate) row.consentDate = consentDate.slice(0, 100);
    const source = at(record, columns.source);
    if (source) row.source = source.slice(0, 1000);
    const status = at(record, columns.status);
    if (status) row.status = status.slice(0, 100);
    return row;
  });
  if (rows.length === 0) return { ok: false, message: 'The file has a header row but no subscribers' };
  if (rows.length > IMPORT_MAX_ROWS) return { ok: false, message: IMPORT_TOO_MANY_ROWS };
  return { ok: true, rows, columns };
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
/** How far ahead of the server's clock an opt-in time may be (a clock a little fast), not a date to come. */
const CLOCK_SKEW_MS = 10 * 60_000;

/** True when y-m-d is a day of the calendar (no 30 February, no month 13). */
function realDay(y: number, m: number, d: number): boolean {
  const date = new Date(Date.UTC(y, m - 1, d));
  return m >= 1 && m <= 12 && date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/**
 * A file's opt-in date ("Subscription Date", Mailchimp's OPTIN_TIME, ...) as the instant it names,
 * or why it cannot be one. Read:
 *  - ISO 8601 as the tools export it: 2024-03-01, 2024-03-01 10:00:00 or 2024-03-01T10:00:00Z
 *    (a time without a zone is UTC, as Mailchimp and listmonk write it);
 *  - US dates as a spreadsheet writes them: 3/1/2024, 3/1/24, 3/1/2024 2:05 PM (the firm's clock);
 *  - a written month (Mar 1, 2024; 1 March 2024).
 * A date alone is midnight at the firm (`timeZone`), so the Subscription Date shows the file's day.
 * Impossible days (2/30/2024, 2024-13-01) and dates after `now` are refused, each with its reason.
 */
export function readOptInDate(text: string, now: Date, timeZone: string): { at: Date } | { problem: string } {
  const shown = text.length > 40 ? `${text.slice(0, 40)}...` : text;
  const notReal = { problem: `Opt-in date "${shown}" is not a real date` };
  let at: Date | null = null;
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?\s*(Z|UTC|[+-]\d{2}:?\d{2})?)?$/i.exec(text);
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4}|\d{2})(?:,?\s+(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([AP]\.?M\.?)?)?$/i.exec(text);
  if (iso) {
    const [, y, m, d, hh, mm, ss, zone] = iso;
    if (!realDay(+y, +m, +d) || +(hh ?? 0) > 23 || +(mm ?? 0) > 59 || +(ss ?? 0) > 59) return notReal;
    const day = `${y}-${m.padStart(2, '0')}-${d.padStart(2, '0')}`;
    if (hh === undefined) at = zonedInstant(day, 0, timeZone);
    else {
      const offset = !zone || /^(z|utc)$/i.test(zone) ? 'Z' : `${zone.slice(0, 3)}:${zone.slice(-2)}`;
      at = new Date(`${day}T${hh.padStart(2, '0')}:${mm}:${ss ?? '00'}${offset}`);
    }
  } else if (us) {
    const [, m, d, yy, hh, mm, ss, half] = us;
    const y = yy.length === 2 ? 2000 + +yy : +yy;
    let hour = +(hh ?? 0);
    if (half) {
      if (hour < 1 || hour > 12) return notReal;
      hour = (hour % 12) + (/^p/i.test(half) ? 12 : 0);
    }
    if (!realDay(y, +m, +d) || hour > 23 || +(mm ?? 0) > 59 || +(ss ?? 0) > 59) return notReal;
    at = zonedInstant(`${y}-${m.padStart(2, '0')}-${d.padStart(2, '0')}`, hour * 60 + +(mm ?? 0), timeZone);
    at = new Date(at.getTime() + +(ss ?? 0) * 1000);
  } else {
    // A written month: the parser's own reading, kept only when its month is the one written (the
    // parser turns "Feb 30, 2024" into 1 March).
    const month = MONTHS.findIndex((name) => new RegExp(`\\b${name}[a-z]*\\.?\\b`, 'i').test(text));
    const ms = Date.parse(text);
    if (month < 0 || !/\b\d{4}\b/.test(text) || !Number.isFinite(ms)) {
      return { problem: `Opt-in date "${shown}" is not a date: write it as 2024-03-01 or 3/1/2024` };
    }
    if (new Date(ms).getUTCMonth() !== month && new Date(ms).getMonth() !== month) return notReal;
    at = new Date(ms);
  }
  if (!Number.isFinite(at.getTime()) || at.getUTCFullYear() < 1970) return notReal;
  if (at.getTime() > now.getTime() + CLOCK_SKEW_MS) return { problem: `Opt-in date "${shown}" is in the future` };
  return { at };
}
